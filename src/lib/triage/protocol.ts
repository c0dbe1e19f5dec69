// The messages between the page and its triage worker, both sides: `serveTriage` runs in the
// worker (worker.ts), `startTriage` on the page. A run is started with its input and keys, reports
// its format, progress and verdicts in batches, and ends with its summary, also when cancelled.
import { triage, type TriageOptions } from './engine';
import { PLAN_BYTES, plan, type PoolPlan } from './pool/line-chunks';
import { runPool, type PoolWorker } from './pool/pool';
import { LEDGER_BYTES_PER_PAIR, NonceLedger } from './tally';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { decodeVerdicts, encodeVerdicts, transferables, type VerdictBatch } from './verdict-batch';
import type { TriageFormat, TriageProgress, TriageSummary, VerdictRecord } from './types';

/** What a run reads: a File (read with File.stream()), a stream of bytes, or a pasted text. */
export type TriageInput = Blob | ReadableStream<Uint8Array> | string;

export type TriageRunOptions = Pick<
	TriageOptions,
	'windowSeconds' | 'batchSize' | 'intervalMs' | 'nowMs'
>;

/** Page → worker. */
export type TriageCommand =
	| { type: 'start'; id: number; input: TriageInput; keys: string; options?: TriageRunOptions }
	| { type: 'cancel'; id: number };

/**
 * Worker → page. Nothing but 'done' follows a cancel. Progress comes with the counts so far and the
 * verdicts reported since the last progress, in columns (verdict-batch.ts): one message, one update
 * of the page, per batch.
 */
export type TriageReport =
	| { type: 'format'; id: number; format: TriageFormat | null }
	| {
			type: 'progress';
			id: number;
			/** Null only for verdicts that no progress followed (the engine reports one after each batch). */
			progress: TriageProgress | null;
			batch: VerdictBatch | null;
	  }
	| { type: 'done'; id: number; summary: TriageSummary }
	| { type: 'failed'; id: number; message: string };

/** The side of a MessagePort or a Worker (or a worker's global scope) that triage uses. */
export interface TriagePort<In, Out> {
	postMessage(message: Out, transfer?: Transferable[]): void;
	addEventListener(type: 'message', listener: (event: MessageEvent<In>) => void): void;
	removeEventListener(type: 'message', listener: (event: MessageEvent<In>) => void): void;
}

function streamOf(input: TriageInput): {
	stream: ReadableStream<Uint8Array>;
	totalBytes: number | null;
} {
	if (typeof input === 'string') {
		const blob = new Blob([input]);
		return { stream: blob.stream(), totalBytes: blob.size };
	}
	if (input instanceof Blob) return { stream: input.stream(), totalBytes: input.size };
	return { stream: input, totalBytes: null };
}

/** An input of at least this many bytes is split across the pool, when there is one. */
export const POOL_MIN_BYTES = 1 << 20;

/**
 * Bytes a part of the pool holds: enough parts for the workers to share evenly, none huge (parts of
 * up to 4 MiB took the command line 3% longer on a million requests, and 400 MiB against 307 MiB).
 */
export function partBytesFor(totalBytes: number, workers: number): number {
	return Math.min(1 << 20, Math.max(256 << 10, Math.ceil(totalBytes / (workers * 16))));
}

/**
 * How a File or a text is read by the pool: its plan, when it is a log of lines in UTF-8 big enough
 * to be worth splitting (null: one worker reads it, as before).
 */
async function poolPlan(input: TriageInput): Promise<{ blob: Blob; plan: PoolPlan } | null> {
	if (input instanceof ReadableStream) return null;
	const blob = typeof input === 'string' ? new Blob([input]) : input;
	if (blob.size < POOL_MIN_BYTES) return null;
	const head = new Uint8Array(await blob.slice(0, PLAN_BYTES).arrayBuffer());
	const found = plan(head);
	return found === null ? null : { blob, plan: found };
}

/**
 * The worker's side: runs each started triage and answers on the same port. `pool`, when given,
 * starts the workers a big log of lines is split across (pool/pool.ts); it is called once, on the
 * first run that uses them.
 */
export function serveTriage(
	port: TriagePort<TriageCommand, TriageReport>,
	{ pool }: { pool?: () => PoolWorker[] } = {}
): void {
	let workers: PoolWorker[] | null = null;
	let poolBroken = false;
	const runs = new Map<number, AbortController>();
	port.addEventListener('message', (event) => {
		const command = event.data;
		if (command?.type === 'cancel') {
			runs.get(command.id)?.abort();
			return;
		}
		if (command?.type !== 'start') return;
		const { id } = command;
		const controller = new AbortController();
		runs.get(id)?.abort();
		runs.set(id, controller);
		const live = () => !controller.signal.aborted;
		const post = (report: TriageReport, transfer: Transferable[] = []) =>
			port.postMessage(report, transfer);
		// The verdicts of a batch wait for the progress the engine reports right after them.
		let held: VerdictBatch | null = null;
		const progressReport = (progress: TriageProgress | null) => {
			const batch = held;
			held = null;
			post({ type: 'progress', id, progress, batch }, batch ? transferables(batch) : []);
		};
		void (async () => {
			try {
				const pooled = pool !== undefined && !poolBroken ? await poolPlan(command.input) : null;
				let released = false;
				if (pooled !== null && live())
					try {
						workers ??= pool?.() ?? [];
						post({ type: 'format', id, format: pooled.plan.format });
						const partBytes = partBytesFor(pooled.blob.size, workers.length);
						const summary = await runPool({
							workers,
							// The ledger is made at the size the log likely needs, not grown to it (as the CLI does).
							stream: pooled.blob.stream(),
							nonces: new NonceLedger(pooled.blob.size / LEDGER_BYTES_PER_PAIR),
							plan: pooled.plan,
							settings: {
								keys: String(command.keys ?? ''),
								windowSeconds: command.options?.windowSeconds ?? TS_WINDOW_SECONDS,
								nowMs: command.options?.nowMs ?? Date.now(),
								output: 'batch',
								revealKid: false
							},
							partBytes,
							totalBytes: pooled.blob.size,
							signal: controller.signal,
							intervalMs: command.options?.intervalMs ?? 100,
							onPart: ({ result }) => {
								released = true;
								if (!live() || result.batch === null) return;
								if (held !== null) progressReport(null);
								held = result.batch;
							},
							onProgress: (progress) => {
								if (live()) progressReport(progress);
							}
						});
						if (held !== null && live()) progressReport(null);
						post({ type: 'done', id, summary });
						return;
					} catch (error) {
						// A pool that cannot work (a browser that starts no worker from a worker) fails before
						// its first part: the run goes on in this worker, and later runs too. After a part was
						// shown, the run fails as any run does.
						if (released) throw error;
						poolBroken = true;
						workers = null;
					}
				const { stream, totalBytes } = streamOf(command.input);
				const summary = await triage(stream, String(command.keys ?? ''), {
					// Every 100 ms (the engine's interval) rather than every so many verdicts: the page keeps
					// a batch's columns as they come and redraws once per batch, so fewer batches leave
					// more of the machine to the run; the size only bounds what one batch holds.
					batchSize: 32_768,
					...command.options,
					signal: controller.signal,
					totalBytes,
					onFormat: (format) => {
						if (live()) post({ type: 'format', id, format });
					},
					onProgress: (progress) => {
						if (live()) progressReport(progress);
					},
					onVerdicts: (records) => {
						if (!live()) return;
						if (held !== null) progressReport(null);
						held = encodeVerdicts(records);
					}
				});
				if (held !== null && live()) progressReport(null);
				post({ type: 'done', id, summary });
			} catch (error) {
				post({
					type: 'failed',
					id,
					message: error instanceof Error ? error.message : String(error)
				});
			} finally {
				if (runs.get(id) === controller) runs.delete(id);
			}
		})();
	});
}

export interface TriageHandlers {
	onFormat?: (format: TriageFormat | null) => void;
	/** After the verdicts it comes with (onBatch, onVerdicts). */
	onProgress?: (progress: TriageProgress) => void;
	/** The verdicts of a batch as records. */
	onVerdicts?: (records: VerdictRecord[]) => void;
	/** The verdicts of a batch as they travel, in columns: nothing decoded (see VerdictColumns). */
	onBatch?: (batch: VerdictBatch) => void;
}

export interface TriageRun {
	/** The summary; `cancelled: true` after cancel(). Rejects only on a fault in the engine. */
	done: Promise<TriageSummary>;
	/** Stops the run at once: no more format, progress or verdicts; `done` resolves soon after. */
	cancel(): void;
}

let nextId = 1;

/**
 * The page's side: starts a triage in `worker` (e.g. `new Worker(new URL('$lib/triage/worker.ts',
 * import.meta.url), { type: 'module' })`) and routes its reports to the handlers.
 */
export function startTriage(
	worker: TriagePort<TriageReport, TriageCommand>,
	input: TriageInput,
	keys: string,
	handlers: TriageHandlers = {},
	options?: TriageRunOptions
): TriageRun {
	const id = nextId++;
	let cancelled = false;
	let listener: (event: MessageEvent<TriageReport>) => void = () => undefined;
	const done = new Promise<TriageSummary>((resolve, reject) => {
		listener = (event) => {
			const report = event.data;
			if (report?.id !== id) return;
			if (report.type === 'done' || report.type === 'failed') {
				worker.removeEventListener('message', listener);
				if (report.type === 'done') resolve(report.summary);
				else reject(new Error(report.message));
				return;
			}
			if (cancelled) return;
			if (report.type === 'format') {
				handlers.onFormat?.(report.format);
				return;
			}
			const { batch } = report;
			if (batch !== null) {
				handlers.onBatch?.(batch);
				if (!cancelled && handlers.onVerdicts) handlers.onVerdicts(decodeVerdicts(batch));
			}
			// A handler above may have cancelled the run.
			if (!cancelled && report.progress !== null) handlers.onProgress?.(report.progress);
		};
		worker.addEventListener('message', listener);
	});
	const command: TriageCommand = { type: 'start', id, input, keys };
	if (options !== undefined) command.options = options;
	// A stream is moved to the worker, not copied; a File is cloned cheaply (a reference to the file).
	worker.postMessage(command, input instanceof ReadableStream ? [input] : []);
	return {
		done,
		cancel() {
			cancelled = true;
			worker.postMessage({ type: 'cancel', id });
		}
	};
}
