// The triage page's state: what is given (requests as a file or a text, the keys), the run in the
// worker (format, progress, verdicts as they come, the summary) and the table's view of the
// verdicts (filter and sort). No language: components render every word.
import { DEFAULT_WINDOW_SECONDS } from '$lib/triage/engine';
import { CSV_HEADER, csvRow } from '$lib/triage/exports';
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
	type TriageFormat,
	type TriageProgress,
	type TriageSummary,
	type VerdictKind,
	type VerdictRecord
} from '$lib/triage/types';

export type Phase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

/** A group of the Summary, as the Verdicts filter names it. */
export type GroupFilter =
	| 'all'
	| VerdictKind
	| 'clock'
	| 'nonce'
	/** A mismatch's mistake id, or 'unexplained'. */
	| `mistake:${string}`;

export type SortColumn = 'number' | 'method' | 'url' | 'kid' | 'verdict' | 'mistake';
export type SortDirection = 'ascending' | 'descending';

export type TriageWorker = TriagePort<TriageReport, TriageCommand> & { terminate(): void };

/** What the Summary table shows: the worker's summary at the end, the page's own tally before. */
export type SummaryCounts = Pick<
	TriageSummary,
	'groups' | 'mistakes' | 'unexplained' | 'clock' | 'noncesReused' | 'unreadable'
> & {
	/** Lines with no signed request: known only from the worker's summary, at the end. */
	skipped: number | null;
};

/** A verdict's mistake group: its id, 'unexplained', or null for a request that matched. */
export function mistakeGroup(record: VerdictRecord): string | null {
	return record.verdict === 'mismatch' ? (record.mistake ?? UNEXPLAINED) : null;
}

function inGroup(record: VerdictRecord, group: GroupFilter): boolean {
	if (group === 'all') return true;
	if (group === 'clock') return record.clock?.outsideWindow === true;
	if (group === 'nonce') return record.nonceFirstUsedAt !== null;
	if (group.startsWith('mistake:')) return mistakeGroup(record) === group.slice('mistake:'.length);
	return record.verdict === group;
}

function sortKey(record: VerdictRecord, column: SortColumn): string | number {
	if (column === 'number') return record.number;
	if (column === 'mistake') return record.mistake ?? '';
	return record[column];
}

/**
 * The request as /verify reads it (a raw request in absolute form with its Authorization header),
 * for the hand-over of one verdict.
 */
export function signedRequestText(record: VerdictRecord): string {
	return `${record.method} ${record.url} HTTP/1.1\nAuthorization: ${record.authorization}\n`;
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
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class TriageDesk {
	/** The pasted requests. */
	requestsText = $state('');
	/** A chosen file: triaged instead of the text, read as a stream. */
	file: File | null = $state.raw(null);
	/** `kid mac_key` lines or one mac_key: in this object's memory only. */
	keysText = $state('');
	/** True once Triage was pressed: missing input is said only then. */
	attempted = $state(false);

	phase: Phase = $state('idle');
	/** The format the worker detected; undefined until it says, null for an empty input. */
	format: TriageFormat | null | undefined = $state(undefined);
	progress: TriageProgress | null = $state.raw(null);
	summary: TriageSummary | null = $state.raw(null);
	failure: string | null = $state(null);

	/** The verdicts, appended a batch at a time; `received` is what the page reacts to. */
	#records: VerdictRecord[] = [];
	received = $state(0);
	/** The groups of the verdicts received, counted as they come (the worker's Tally, on the page). */
	#tally: Tally | null = $state.raw(null);

	groupFilter: GroupFilter = $state('all');
	kidFilter = $state('');
	sortColumn: SortColumn = $state('number');
	sortDirection: SortDirection = $state('ascending');

	readonly #createWorker: () => TriageWorker;
	#worker: TriageWorker | null = null;
	#run: TriageRun | null = null;

	constructor(createWorker: () => TriageWorker) {
		this.#createWorker = createWorker;
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
		const tally = this.#tally;
		// The tally grows in place: reading `received` counts again with each batch.
		void this.received;
		if (tally === null) return null;
		const live = tally.summary({
			format: null,
			bytesRead: 0,
			hmac: 'noble',
			elapsedMs: 0,
			cancelled: false
		});
		return { ...live, skipped: null };
	});
	/** Whether the counts are still growing: the run has not given its summary yet. */
	readonly countsLive = $derived(this.summary === null && this.counts !== null);

	/** The verdicts the table shows: filtered by group and kid, sorted by a column. */
	readonly rows: readonly VerdictRecord[] = $derived.by(() => {
		const count = this.received;
		const group = this.groupFilter;
		const kid = this.kidFilter.trim();
		const column = this.sortColumn;
		const descending = this.sortDirection === 'descending';
		let rows = this.#records.slice(0, count);
		if (group !== 'all' || kid !== '')
			rows = rows.filter(
				(record) => inGroup(record, group) && (kid === '' || record.kid.includes(kid))
			);
		if (column !== 'number' || descending) {
			const sign = descending ? -1 : 1;
			rows.sort((a, b) => {
				const x = sortKey(a, column);
				const y = sortKey(b, column);
				return x < y ? -sign : x > y ? sign : a.number - b.number;
			});
		}
		return rows;
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

	/** Requests and keys handed over from another page: filled in, and triaged at once. */
	receive(handoff: { requests: string; keys: string }): void {
		this.file = null;
		this.requestsText = handoff.requests;
		this.keysText = handoff.keys;
		this.start();
	}

	start(): void {
		this.attempted = true;
		if (this.missingRequests || this.missingKeys) return;
		this.#run?.cancel();
		this.#records = [];
		this.received = 0;
		this.#tally = new Tally(DEFAULT_WINDOW_SECONDS);
		this.format = undefined;
		this.progress = null;
		this.summary = null;
		this.failure = null;
		this.groupFilter = 'all';
		this.phase = 'running';
		this.#worker ??= this.#createWorker();
		const run = startTriage(this.#worker, this.file ?? this.requestsText, this.keysText, {
			onFormat: (format) => (this.format = format),
			onProgress: (progress) => (this.progress = progress),
			onVerdicts: (records) => {
				const tally = this.#tally;
				for (const record of records) {
					this.#records.push(record);
					tally?.add(record);
				}
				this.received = this.#records.length;
			}
		});
		this.#run = run;
		run.done.then(
			(summary) => {
				if (this.#run !== run) return;
				this.summary = summary;
				if (this.phase === 'running') this.phase = summary.cancelled ? 'cancelled' : 'done';
			},
			(error: unknown) => {
				if (this.#run !== run) return;
				this.failure = error instanceof Error ? error.message : String(error);
				this.phase = 'failed';
			}
		);
	}

	/** Stops the run at once: nothing more is shown of it but its summary so far. */
	cancel(): void {
		if (this.phase !== 'running') return;
		this.#run?.cancel();
		this.phase = 'cancelled';
	}

	/** Every verdict received, in file order. */
	verdicts(): readonly VerdictRecord[] {
		return this.#records;
	}

	/**
	 * The verdicts received as a CSV file, kids masked (the exporter's default; it is never given a
	 * key). Written a slice at a time, each slice's rows added to the file before the page gets the
	 * thread back, so that the CSV of a huge run holds the page for no long task.
	 */
	async csv(): Promise<Blob> {
		const records = this.#records;
		const count = records.length;
		const type = 'text/csv;charset=utf-8';
		let file = new Blob([CSV_HEADER], { type });
		let index = 0;
		while (index < count) {
			const until = performance.now() + SLICE_MS;
			let rows = '';
			do {
				const end = Math.min(index + ROWS_PER_LOOK, count);
				for (; index < end; index++) rows += csvRow(records[index]!);
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
