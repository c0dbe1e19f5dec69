// The triage of a whole file: read (readers.ts), verify each request (verify.ts), diagnose each
// mismatch, group (tally.ts). The same function runs in the page's worker and under Node; it
// reports through callbacks, in batches, and stops as soon as its signal aborts.
import { MacChecks, syncDigests } from './hmac';
import { parseKeys, type Keyring } from './keys';
import { readRequests, type LinesPart } from '$lib/read/readers';
import { NonceLedger, Tally } from './tally';
import type { TriageFormat, TriageProgress, TriageSummary, VerdictRecord } from './types';
import { checkRequest, diagnoseMistake, unreadableRecord, type CheckContext } from './verify';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import type { DiagnoseInput } from '$lib/diagnosis/diagnose';
import { clientCode, headerShape } from '$lib/diagnosis/likely-client';

export interface TriageOptions {
	/** Aborting stops the run at once: no more verdicts, and a summary with `cancelled: true`. */
	signal?: AbortSignal;
	/** ±seconds a ts may differ from its logged time (by default the sandbox's: TS_WINDOW_SECONDS). */
	windowSeconds?: number;
	/** The stream is a part of a file of lines, as the triage's pool gives one (readers.ts). */
	part?: LinesPart;
	/** Names the mistake of a mismatch (see diagnoseMistake); by default in this thread. */
	diagnose?: (mismatch: DiagnoseInput) => Promise<string>;
	/** Diagnoses running at once, while the verdicts behind the oldest wait (default 8). */
	maxDiagnoses?: number;
	/**
	 * Verdicts held back behind the oldest diagnosis running, at most (default 4096); past that the
	 * run waits for it.
	 */
	maxQueued?: number;
	/**
	 * False: every header and URL read by the core's parsers, not the fast readers first (the same
	 * verdicts, slower; for comparing the two).
	 */
	fastPath?: boolean;
	/** The input's size in bytes, when known, for progress. */
	totalBytes?: number | null;
	/** Once the first bytes have told the format (null: the file is empty). */
	onFormat?: (format: TriageFormat | null) => void;
	/** At most every `intervalMs`, and at the end; right after each batch of verdicts. */
	onProgress?: (progress: TriageProgress) => void;
	/**
	 * Verdicts in file order, `batchSize` at a time or every `intervalMs`, whichever comes first. A
	 * promise returned is awaited (a file being written keeps up; memory stays bounded).
	 */
	onVerdicts?: (batch: VerdictRecord[]) => void | Promise<void>;
	batchSize?: number;
	intervalMs?: number;
	/** The time "now" is for messages about ts (only the logged time decides the window). */
	nowMs?: number;
	/** Where the kid and nonce pairs seen are kept: given, the caller reads them after the run. */
	nonces?: NonceLedger;
}

/**
 * Lets the event loop run (a message saying cancel, a paint): setImmediate in Node, a message to
 * itself through one channel in a worker (made once: making a channel crosses threads).
 */
let selfChannel: MessageChannel | undefined;
const wakers: (() => void)[] = [];
function macrotask(): Promise<void> {
	if (typeof globalThis.setImmediate === 'function')
		return new Promise((resolve) => globalThis.setImmediate(resolve));
	if (selfChannel === undefined) {
		selfChannel = new MessageChannel();
		selfChannel.port1.onmessage = () => wakers.shift()?.();
	}
	const channel = selfChannel;
	return new Promise((resolve) => {
		wakers.push(resolve);
		channel.port2.postMessage(null);
	});
}

/** How long the engine works before it lets other events in. */
const SLICE_MS = 20;
/** Requests between two looks at the clock (for progress, batches and slices). */
const CLOCK_EVERY = 32;

interface Queued {
	record: VerdictRecord;
	/** Settles when the mismatch's mistake is known; null once it is, or for any other verdict. */
	diagnosis: Promise<void> | null;
}

/**
 * Triages every request in `stream` against `keys` (a keys text, see parseKeys, or a keyring) and
 * resolves to the summary. Never rejects on what the file holds: unreadable input is counted.
 */
export async function triage(
	stream: ReadableStream<Uint8Array>,
	keys: string | Keyring,
	options: TriageOptions = {}
): Promise<TriageSummary> {
	const started = performance.now();
	const windowSeconds = options.windowSeconds ?? TS_WINDOW_SECONDS;
	const batchSize = options.batchSize ?? 2000;
	const intervalMs = options.intervalMs ?? 100;
	const { signal } = options;
	const tally = new Tally(windowSeconds);
	const context: CheckContext = {
		keyring: typeof keys === 'string' ? parseKeys(keys).keyring : keys,
		checks: new MacChecks(),
		nonces: options.nonces ?? new NonceLedger(),
		windowSeconds,
		nowMs: options.nowMs ?? Date.now(),
		fastPath: options.fastPath !== false
	};
	// The diagnosis signs its variants with the same HMAC as the bulk path.
	const digests = syncDigests();
	const diagnose = options.diagnose ?? ((mismatch) => diagnoseMistake(mismatch, digests));
	const maxDiagnoses = options.maxDiagnoses ?? 8;
	const maxQueued = options.maxQueued ?? 4096;

	const reading = await readRequests(stream, options.part);
	const { source } = reading;
	// Told once by the signal's event, not asked of the signal for every request.
	let stopped = signal?.aborted === true;
	const stop = () => {
		stopped = true;
		void source.cancel();
	};
	signal?.addEventListener('abort', stop, { once: true });
	const aborted = () => stopped;
	const summary = (cancelled: boolean) =>
		tally.summary({
			format: reading.format,
			empty: reading.empty,
			bytesRead: source.bytesRead,
			elapsedMs: performance.now() - started,
			cancelled
		});

	let pending: VerdictRecord[] = [];
	let lastFlush = performance.now();
	let sliceStart = lastFlush;
	const flush = async () => {
		const batch = pending;
		pending = [];
		if (batch.length > 0) await options.onVerdicts?.(batch);
		const now = performance.now();
		lastFlush = now;
		const elapsedMs = now - started;
		options.onProgress?.({
			bytesRead: source.bytesRead,
			totalBytes: options.totalBytes ?? null,
			requests: tally.requests,
			rate: elapsedMs > 0 ? (tally.requests * 1000) / elapsedMs : 0,
			elapsedMs,
			counts: tally.counts()
		});
	};

	// Verdicts wait here, in file order, while the diagnoses of mismatches run a few at a time: a
	// diagnosis mostly awaits its signer, so several overlap. A verdict with nothing ahead of it in
	// the queue goes straight to the batch.
	const queue: Queued[] = [];
	let head = 0;
	let inFlight = 0;
	const release = async (record: VerdictRecord) => {
		tally.add(record);
		pending.push(record);
		if (pending.length >= batchSize) await flush();
	};
	const drain = async (all: boolean) => {
		while (head < queue.length) {
			const next = queue[head] as Queued;
			if (next.diagnosis !== null) {
				if (!all && inFlight < maxDiagnoses && queue.length - head < maxQueued) break;
				await next.diagnosis;
				if (aborted()) return;
			}
			head += 1;
			await release(next.record);
			if (aborted()) return;
		}
		if (head > 1024 || head === queue.length) {
			queue.splice(0, head);
			head = 0;
		}
	};

	try {
		if (aborted()) return summary(true);
		options.onFormat?.(reading.format);
		// The clock is read every few requests only: a request takes microseconds.
		let sinceClock = 0;
		for await (const items of reading.items) {
			for (const item of items) {
				if (aborted()) return summary(true);
				if (item.kind === 'skipped') {
					tally.skip();
					continue;
				}
				let record: VerdictRecord;
				let diagnosis: Promise<string> | null = null;
				if (item.kind === 'unreadable') record = unreadableRecord(item.unreadable);
				else {
					const checked = checkRequest(item.request, context);
					record = checked.record;
					if (checked.mismatch !== null) diagnosis = diagnose(checked.mismatch);
				}
				if (diagnosis === null && head === queue.length) {
					if (pending.length + 1 >= batchSize) {
						await release(record);
						if (aborted()) return summary(true);
					} else {
						tally.add(record);
						pending.push(record);
					}
				} else {
					const queued: Queued = { record, diagnosis: null };
					if (diagnosis !== null) {
						inFlight += 1;
						const mismatch = record;
						queued.diagnosis = diagnosis.then((mistake) => {
							mismatch.mistake = mistake;
							mismatch.client = clientCode(headerShape(mismatch.authorization), mistake);
							queued.diagnosis = null;
							inFlight -= 1;
						});
					}
					queue.push(queued);
					await drain(false);
					if (aborted()) return summary(true);
				}
				if (++sinceClock < CLOCK_EVERY) continue;
				sinceClock = 0;
				const now = performance.now();
				if (now - lastFlush >= intervalMs) await flush();
				if (now - sliceStart >= SLICE_MS) {
					await macrotask();
					sliceStart = performance.now();
				}
				if (aborted()) return summary(true);
			}
			if (aborted()) return summary(true);
			await drain(false);
			if (aborted()) return summary(true);
			if (performance.now() - lastFlush >= intervalMs) await flush();
		}
		await drain(true);
		if (aborted()) return summary(true);
		await flush();
		return summary(false);
	} finally {
		signal?.removeEventListener('abort', stop);
		if (aborted()) await source.cancel();
	}
}

/** Triage of a text in memory (a paste, the requests /verify was given). */
export function triageText(
	text: string,
	keys: string | Keyring,
	options: TriageOptions = {}
): Promise<TriageSummary> {
	const blob = new Blob([text]);
	return triage(blob.stream(), keys, { totalBytes: blob.size, ...options });
}
