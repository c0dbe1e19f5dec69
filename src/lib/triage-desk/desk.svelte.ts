// The triage page's state: what is given (requests as a file or a text, the keys), the run in the
// worker (format, progress, verdicts as they come, the summary) and the table's view of the
// verdicts (filter and sort). No language: components render every word.
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { CSV_HEADER, csvRow } from '$lib/triage/exports';
import { maskKid } from '$lib/diagnosis/mask-kid';
import { parseKeys, type KeyProblem, type Keyring } from '$lib/triage/keys';
import {
	startTriage,
	type TriagePort,
	type TriageCommand,
	type TriageReport,
	type TriageRun
} from '$lib/triage/protocol';
import { Tally } from '$lib/triage/tally';
import {
	UNEXPLAINED,
	type TriageCounts,
	type TriageFormat,
	type TriageProgress,
	type TriageSummary,
	type VerdictKind,
	type VerdictRecord
} from '$lib/triage/types';
import { VerdictColumns } from '$lib/triage/verdict-batch';
import { overPasteBox } from '$lib/read/input-limits';
import { logLineTimeText } from '$lib/read/sent-at';
import { clientGroup, clientGroupId, clientGroupOf } from '$lib/diagnosis/likely-client';

export type Phase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/** A group of the Summary, as the Verdicts filter names it. */
export type GroupFilter =
	| 'all'
	| VerdictKind
	| 'clock'
	| 'nonce'
	/** A header not written as the spec shows it, of any verdict (a kid with no key too). */
	| 'header-format'
	/** A mismatch's mistake id, or 'unexplained'. */
	| `mistake:${string}`
	/** A refused request's refusal (service-answer.ts). */
	| `refusal:${string}`;

export type SortColumn =
	| 'number'
	| 'method'
	| 'url'
	| 'kid'
	| 'verdict'
	| 'mistake'
	| 'status'
	| 'clock'
	| 'nonce'
	| 'client';

/** A filter by the status logged: 'all', a status ('401'), or 'none' for a request logged without one. */
export type StatusFilter = 'all' | 'none' | `${number}`;
export type SortDirection = 'ascending' | 'descending';

export type TriageWorker = TriagePort<TriageReport, TriageCommand> & { terminate(): void };

/** What the Summary table shows: the worker's summary at the end, its counts so far before. */
export type SummaryCounts = TriageCounts & {
	/** Lines with no signed request: known only from the worker's summary, at the end. */
	skipped: number | null;
};

/** The Summary's counts before anything is counted. */
export const NO_COUNTS: SummaryCounts = {
	...new Tally(TS_WINDOW_SECONDS).counts(),
	skipped: null
};

/** A verdict's mistake group: its id, 'unexplained', or null for a request that matched. */
export function mistakeGroup(record: VerdictRecord): string | null {
	return record.verdict === 'mismatch' ? (record.mistake ?? UNEXPLAINED) : null;
}

function hasStatus(columns: VerdictColumns, index: number, status: StatusFilter): boolean {
	const logged = columns.status(index);
	return status === 'none' ? logged === null : logged === Number(status);
}

function inGroup(columns: VerdictColumns, index: number, group: GroupFilter): boolean {
	if (group === 'all') return true;
	if (group === 'clock') return columns.outsideWindow(index);
	if (group === 'nonce') return columns.nonceReused(index);
	if (group === 'header-format') return columns.headerFormat(index);
	const verdict = columns.verdict(index);
	if (group.startsWith('refusal:'))
		return verdict === 'refused' && columns.refusal(index) === group.slice('refusal:'.length);
	if (group.startsWith('mistake:'))
		return (
			verdict === 'mismatch' &&
			(columns.mistake(index) ?? UNEXPLAINED) === group.slice('mistake:'.length)
		);
	return verdict === group;
}

const TEXT_COLUMNS = { method: 0, url: 1, kid: 2 } as const;

function sortKey(columns: VerdictColumns, index: number, column: SortColumn): string | number {
	if (column === 'number') return columns.number(index);
	if (column === 'verdict') return columns.verdict(index);
	if (column === 'mistake') return columns.mistake(index) ?? columns.refusal(index) ?? '';
	if (column === 'status') return columns.status(index) ?? -1;
	if (column === 'clock') return columns.outsideWindow(index) ? 1 : 0;
	if (column === 'nonce') return columns.nonceReused(index) ? 1 : 0;
	if (column === 'client')
		return columns.verdict(index) === 'unreadable' ? '' : clientGroupId(columns.client(index));
	return columns.text(index, TEXT_COLUMNS[column]);
}

/** The verdicts the table shows, in its order: a record is made only for a row asked for. */
export class VerdictRows implements Iterable<VerdictRecord> {
	constructor(
		readonly length: number,
		readonly columns: VerdictColumns,
		/** The rows' indexes among the verdicts; null: all of them, in file order. */
		readonly order: Uint32Array | null
	) {}

	at(row: number): VerdictRecord {
		return this.columns.at(this.order === null ? row : (this.order[row] as number));
	}

	/** The row of request `number` in this order, or -1 when it is not shown. */
	rowOf(number: number): number {
		for (let row = 0; row < this.length; row++)
			if (this.columns.number(this.order === null ? row : (this.order[row] as number)) === number)
				return row;
		return -1;
	}

	/** The rows from `start` up to `end` (not included), as records. */
	slice(start: number, end: number): VerdictRecord[] {
		const records: VerdictRecord[] = [];
		for (let row = Math.max(0, start); row < Math.min(end, this.length); row++)
			records.push(this.at(row));
		return records;
	}

	*[Symbol.iterator](): Iterator<VerdictRecord> {
		for (let row = 0; row < this.length; row++) yield this.at(row);
	}
}

/**
 * The request as /verify reads it (a raw request in absolute form with its Authorization header),
 * for the hand-over of one verdict. A logged time goes first, as a log line's time: /verify then
 * judges the ts against when the request was logged, as it does a pasted log line, not against
 * today's clock; a time logged without a zone stays without one.
 */
export function signedRequestText(record: VerdictRecord): string {
	const request = `${record.method} ${record.url} HTTP/1.1\nAuthorization: ${record.authorization}\n`;
	if (record.sentAt === null) return request;
	return `${logLineTimeText(record.sentAt)} ${request}`;
}

/** What one slice of an export may take before the page gets the thread back (a long task: 50 ms). */
const SLICE_MS = 8;
/**
 * Text one slice may write: joining rows is quick (the engine defers the copy), encoding them into
 * the file is what costs, a few milliseconds for this much.
 */
const SLICE_CHARS = 1 << 18;
/** Rows written between two looks at the clock. */
const ROWS_PER_LOOK = 64;
/**
 * How often a run's progress reaches the page. Each report redraws the Summary, the status and the
 * rows, 15 to 25 ms of the main thread, which shares the cores with the pool's workers: at 100 ms
 * that was a fifth of a core; the bench's page run (100,000 requests, 8 pairs in turn) took a median
 * 1.10 s at 250 ms against 1.23 s at 100 ms. Four times a second still reads as live.
 */
const PROGRESS_INTERVAL_MS = 250;
/**
 * How long a run's worker may say nothing of it (its format comes with the log's first bytes)
 * before it is replaced and the run started again in a new one. Firefox now and then leaves the
 * triage page's worker silent, with no error: the engines suite's triage path hung in 1 run of 4 or
 * 5 there, always the first triage of the session (the service worker then taking over the page is
 * the likely cause; not proven).
 */
const SILENT_START_MS = 10_000;
/** The name a File needs, for a large handed-over paste: never shown (the form says where it came from). */
const HANDED_FILE_NAME = 'verify-paste.txt';
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Whether a row's kid is the one filtered for: typed in full, or as the table shows it masked. */
function kidMatches(kid: string, typed: string, shown: boolean): boolean {
	return kid.includes(typed) || (!shown && maskKid(kid).includes(typed));
}

export class TriageDesk {
	/** The pasted requests. */
	requestsText = $state('');
	/** A chosen file: triaged instead of the text, read as a stream. */
	file: File | null = $state.raw(null);
	/** `kid mac_key` lines or one mac_key: in this object's memory only. */
	keysText = $state('');
	/** The keys are shown as typed; masked until the user asks, as a mac_key field is. */
	keysShown = $state(false);
	/** True once Triage was pressed: missing input is said only then. */
	attempted = $state(false);

	phase: Phase = $state('idle');
	/** The format the worker detected; undefined until it says, null for an empty input. */
	format: TriageFormat | null | undefined = $state(undefined);
	progress: TriageProgress | null = $state.raw(null);
	summary: TriageSummary | null = $state.raw(null);
	/** How many runs have ended in this tab: the page brings the Summary into view at each. */
	runsEnded = $state(0);
	failure: string | null = $state(null);

	/**
	 * The verdicts, appended a batch at a time as the columns they travel in; `received` is what the
	 * page reacts to.
	 */
	#columns = new VerdictColumns();
	received = $state(0);
	/** The counts of the verdicts received, as the worker counted them (null before a run). */
	#liveCounts: TriageCounts | null = $state.raw(null);

	groupFilter: GroupFilter = $state('all');
	kidFilter = $state('');
	/** Kids in full in the table and the exports (the CLI's --reveal-kid); masked until asked. */
	kidsShown = $state(false);
	/** A likely client's group id (as the Summary counts them: 'docs-java', 'unknown' …), or 'all'. */
	clientFilter = $state('all');
	statusFilter: StatusFilter = $state('all');
	sortColumn: SortColumn = $state('number');
	sortDirection: SortDirection = $state('ascending');
	/** The number of the request whose whole URL its row shows, or null. */
	expandedUrl: number | null = $state(null);

	readonly #createWorker: () => TriageWorker;
	#worker: TriageWorker | null = null;
	#run: TriageRun | null = null;

	readonly #silentStartMs: number;

	constructor(createWorker: () => TriageWorker, { silentStartMs = SILENT_START_MS } = {}) {
		this.#createWorker = createWorker;
		this.#silentStartMs = silentStartMs;
	}

	readonly #keys = $derived(parseKeys(this.keysText));
	readonly keyProblems: KeyProblem[] = $derived(this.#keys.problems);
	get keyring(): Keyring {
		return this.#keys.keyring;
	}

	readonly missingRequests = $derived(this.file === null && this.requestsText.trim() === '');
	readonly missingKeys = $derived(this.#keys.keyring.kids === 0 && !this.#keys.keyring.everyKid);
	readonly running = $derived(this.phase === 'running');

	/**
	 * The Summary's counts: the worker's summary once the run ends; during a run, the verdicts
	 * received so far (each arrives with its mistake, so every row fills as they come).
	 */
	readonly counts: SummaryCounts | null = $derived.by(() => {
		if (this.summary) return this.summary;
		const live = this.#liveCounts;
		return live === null ? null : { ...live, skipped: null };
	});
	/** Whether the counts are still growing: the run has not given its summary yet. */
	readonly countsLive = $derived(this.summary === null && this.counts !== null);

	/** The statuses logged so far, as the filter by status offers them ('none': some had none). */
	readonly statuses: StatusFilter[] = $derived.by(() => {
		void this.received;
		const statuses: StatusFilter[] = this.#columns.statuses().map((status) => `${status}` as const);
		return this.#columns.withoutStatus ? [...statuses, 'none'] : statuses;
	});

	/** The verdicts the table shows: filtered by group, status, client and kid, sorted by a column. */
	readonly rows: VerdictRows = $derived.by(() => {
		const count = this.received;
		const group = this.groupFilter;
		const status = this.statusFilter;
		const kid = this.kidFilter.trim();
		const shown = this.kidsShown;
		const client = this.clientFilter === 'all' ? -1 : clientGroupOf(this.clientFilter);
		const column = this.sortColumn;
		const descending = this.sortDirection === 'descending';
		const columns = this.#columns;
		const filtered = group !== 'all' || status !== 'all' || kid !== '' || client >= 0;
		if (!filtered && column === 'number' && !descending)
			return new VerdictRows(count, columns, null);
		let order = new Uint32Array(count);
		let length = 0;
		for (let index = 0; index < count; index++)
			if (
				!filtered ||
				(inGroup(columns, index, group) &&
					(status === 'all' || hasStatus(columns, index, status)) &&
					(client < 0 ||
						(clientGroup(columns.client(index)) === client &&
							columns.verdict(index) !== 'unreadable')) &&
					(kid === '' || kidMatches(columns.text(index, TEXT_COLUMNS.kid), kid, shown)))
			)
				order[length++] = index;
		order = order.subarray(0, length);
		if (column !== 'number' || descending) {
			const sign = descending ? -1 : 1;
			// Each row's key read once; then the rows sorted by it, ties in file order.
			const keys = Array.from(order, (index) => sortKey(columns, index, column));
			const at = Array.from(order.keys());
			at.sort((a, b) => {
				const x = keys[a] as string | number;
				const y = keys[b] as string | number;
				return x < y ? -sign : x > y ? sign : a - b;
			});
			order = Uint32Array.from(at, (position) => order[position] as number);
		}
		return new VerdictRows(length, columns, order);
	});

	/** Sorts by `column`; again on the same column turns the order round. */
	sortBy(column: SortColumn): void {
		if (this.sortColumn === column)
			this.sortDirection = this.sortDirection === 'ascending' ? 'descending' : 'ascending';
		else {
			this.sortColumn = column;
			this.sortDirection = 'ascending';
		}
	}

	/** Shows the whole URL of request `number` in its row, or folds it again. */
	toggleUrl(number: number): void {
		this.expandedUrl = this.expandedUrl === number ? null : number;
	}

	/**
	 * Requests and keys handed over from another page: filled in, and triaged at once. Requests over
	 * the paste box's limit (the /verify box's link sends them here) go in as a file: laid out in the
	 * box, 6 MB held the page for two seconds, and the box is no place to read them anyway.
	 */
	receive(handoff: { requests: string; keys: string }): void {
		const { requests } = handoff;
		const large = overPasteBox(requests);
		this.#handedFile = large
			? new File([requests], HANDED_FILE_NAME, { type: 'text/plain' })
			: null;
		this.file = this.#handedFile;
		this.requestsText = large ? '' : requests;
		this.keysText = handoff.keys;
		this.start();
	}

	/** The file made of a large paste handed over (see receive). */
	#handedFile: File | null = null;
	/** Whether the file triaged is a paste handed over from /verify, not one the user chose. */
	get fileHandedOver(): boolean {
		return this.file !== null && this.file === this.#handedFile;
	}

	start(): void {
		this.attempted = true;
		if (this.missingRequests || this.missingKeys) return;
		this.#begin(true);
	}

	#begin(mayRestart: boolean): void {
		this.#run?.cancel();
		this.#columns = new VerdictColumns();
		this.#rowsNow();
		this.#liveCounts = NO_COUNTS;
		this.format = undefined;
		this.progress = null;
		this.summary = null;
		this.failure = null;
		this.groupFilter = 'all';
		this.clientFilter = 'all';
		this.statusFilter = 'all';
		this.expandedUrl = null;
		this.phase = 'running';
		const columns = this.#columns;
		// Whether the worker has said anything of this run: its format comes with its first bytes.
		let heard = false;
		const run = startTriage(
			this.#startedWorker(),
			this.file ?? this.requestsText,
			this.keysText,
			{
				onFormat: (format) => {
					heard = true;
					this.format = format;
				},
				onBatch: (batch) => columns.add(batch),
				onProgress: (progress) => {
					heard = true;
					this.progress = progress;
					this.#liveCounts = progress.counts;
					this.#showRows();
				}
			},
			{ intervalMs: PROGRESS_INTERVAL_MS }
		);
		this.#run = run;
		// A worker that has said nothing of a run after SILENT_START_MS is replaced, and the run
		// started again in the new one, once.
		const silence = mayRestart
			? setTimeout(() => {
					if (heard || this.#run !== run || this.phase !== 'running') return;
					this.#worker?.terminate();
					this.#worker = null;
					this.#begin(false);
				}, this.#silentStartMs)
			: undefined;
		run.done.then(
			(summary) => {
				clearTimeout(silence);
				if (this.#run !== run) return;
				this.#rowsNow();
				this.summary = summary;
				if (this.phase === 'running') this.phase = summary.cancelled ? 'cancelled' : 'done';
				this.runsEnded += 1;
			},
			(error: unknown) => {
				clearTimeout(silence);
				if (this.#run !== run) return;
				this.#rowsNow();
				this.failure = error instanceof Error ? error.message : String(error);
				this.phase = 'failed';
			}
		);
	}

	/** Stops the run at once: nothing more is shown of it but its summary so far. */
	cancel(): void {
		if (this.phase !== 'running') return;
		this.#run?.cancel();
		this.#rowsNow();
		this.phase = 'cancelled';
	}

	/**
	 * The rows received reach the Verdicts (`received`) in a task after the counts that came with
	 * them: the first verdicts of a run build the table's rows, and with the Summary's and the
	 * status's update in the same task they made it a long one (52 to 55 ms, Long Tasks API).
	 */
	#rowsLater: ReturnType<typeof setTimeout> | null = null;
	#showRows(): void {
		this.#rowsLater ??= setTimeout(() => this.#rowsNow(), 0);
	}
	/** Every row received, in the Verdicts now: at a run's end (its summary), a cancel, a new run. */
	#rowsNow(): void {
		if (this.#rowsLater !== null) clearTimeout(this.#rowsLater);
		this.#rowsLater = null;
		this.received = this.#columns.length;
	}

	/** The worker, started now if it was not: a run then starts without waiting for it to load. */
	#startedWorker(): TriageWorker {
		return (this.#worker ??= this.#createWorker());
	}

	/** Starts the worker before it is needed (once the page is shown). */
	startWorker(): void {
		this.#startedWorker();
	}

	/** Every verdict received, in file order, as records (made now: for an export, a test). */
	verdicts(): VerdictRecord[] {
		return [...new VerdictRows(this.#columns.length, this.#columns, null)];
	}

	/**
	 * The verdicts received as a CSV file, kids masked unless shown (kidsShown); it is never given a
	 * key. Written a slice at a time, each slice's rows added to the file before the page gets the
	 * thread back, so that the CSV of a huge run holds the page for no long task.
	 */
	async csv(): Promise<Blob> {
		const columns = this.#columns;
		const count = columns.length;
		const options = { revealKid: this.kidsShown };
		const type = 'text/csv;charset=utf-8';
		let file = new Blob([CSV_HEADER], { type });
		let index = 0;
		while (index < count) {
			const until = performance.now() + SLICE_MS;
			let rows = '';
			do {
				const end = Math.min(index + ROWS_PER_LOOK, count);
				for (; index < end; index++) rows += csvRow(columns.at(index), options);
			} while (index < count && rows.length < SLICE_CHARS && performance.now() < until);
			file = new Blob([file, rows], { type });
			if (index < count) await nextTask();
		}
		return file;
	}

	/** The request of a verdict and its key, as /verify's hand-over takes them. */
	caseOf(record: VerdictRecord): { signedRequest: string; macKey: string } {
		return {
			signedRequest: signedRequestText(record),
			macKey: this.#keys.keyring.keyFor(record.kid) ?? ''
		};
	}

	/** Ends the worker (and any run in it). */
	dispose(): void {
		this.#run?.cancel();
		this.#run = null;
		this.#worker?.terminate();
		this.#worker = null;
		if (this.phase === 'running') this.phase = 'cancelled';
	}
}
