// The triage on every core: a coordinator reads the log, cuts it into parts at line breaks
// (line-chunks.ts), hands each to the least busy of its workers (part.ts, in a Web Worker on the
// page, a worker thread on the command line), and puts their results back in file order
// (merge.ts). It reads ahead only so far: parts handed out but not yet released are bounded, so
// memory is too, whatever the file's size. The same code runs on the page's triage worker and in
// `npm run triage`; each side gives its own workers and its own way of reading the file.
import type { NonceLedger } from '../tally';
import type { TriageProgress, TriageSummary } from '../types';
import { LineChunker, type IndexOf, type LinePart, type PoolPlan } from './line-chunks';
import { PartMerger, type ReleasedPart } from './merge';
import { recordsResult, type PartResult, type PartSettings } from './part';
import { unreadableRecord } from '../verify';

/** Coordinator → worker. */
export type PoolCommand =
	| { type: 'setup'; run: number; settings: PartSettings }
	| {
			type: 'part';
			run: number;
			index: number;
			bytes: Uint8Array<ArrayBuffer>;
			linesBefore: number;
			tooLong: boolean;
	  }
	| { type: 'cancel'; run: number };

/** Worker → coordinator. */
export type PoolReport =
	| { type: 'result'; run: number; result: PartResult }
	| { type: 'failed'; run: number; index: number; message: string };

/** A worker as the coordinator sees it, whichever kind it is. */
export interface PoolWorker {
	postMessage(command: PoolCommand, transfer?: Transferable[]): void;
	/** Calls `listener` with each report, or with an Error when the worker itself fails; returns a way to stop listening. */
	listen(listener: (report: PoolReport | Error) => void): () => void;
}

/** Workers a pool starts: one per core reported, at least 2 (a core may be shared), at most 8. */
export function poolSize(cores: number | undefined): number {
	return Math.min(8, Math.max(2, Math.floor(cores ?? 2)));
}

export interface PoolRunOptions {
	workers: readonly PoolWorker[];
	/** The whole file, from its first byte. */
	stream: ReadableStream<Uint8Array>;
	plan: PoolPlan;
	settings: Omit<PartSettings, 'plan'>;
	/** Bytes a part holds, about (it ends at the next line break). */
	partBytes: number;
	totalBytes?: number | null;
	signal?: AbortSignal;
	/** Each part, in file order, once the parts before it are released; awaited. */
	onPart?: (part: ReleasedPart) => void | Promise<void>;
	/** After a part is released, at most every `intervalMs`, and at the end. */
	onProgress?: (progress: TriageProgress) => void;
	intervalMs?: number;
	/** A faster byte search than the TypedArray's, where there is one (Node's Buffer). */
	indexOf?: IndexOf;
	/** The table of kid and nonce pairs, given: the caller reads it after the run (--json). */
	nonces?: NonceLedger;
	/** Parts handed to a worker at once (one working, the next waiting: no gap between them). */
	perWorker?: number;
}

let nextRun = 1;

/** Triages the stream with the pool; resolves to the summary of the whole file. */
export async function runPool(options: PoolRunOptions): Promise<TriageSummary> {
	const started = performance.now();
	const { workers, plan, signal } = options;
	const run = nextRun++;
	const perWorker = options.perWorker ?? 2;
	const intervalMs = options.intervalMs ?? 100;
	const settings: PartSettings = { ...options.settings, plan };
	const merger = new PartMerger(settings.windowSeconds, options.nonces);
	const chunker = new LineChunker(options.partBytes, plan.skip, undefined, options.indexOf);
	const busy = workers.map(() => 0);
	// Parts handed out and not yet handled, at most: the memory the run holds.
	const ahead = workers.length * (perWorker + 1);
	/** Parts cut but not yet handed out. */
	const ready: LinePart[] = [];
	/** Bytes of each part handed out, by index, for progress once it is released. */
	const partBytes = new Map<number, number>();
	let handedOut = 0;
	/** Parts that onPart has handled. */
	let handled = 0;
	let bytesRead = 0;
	let bytesReleased = 0;
	let readingDone = false;
	/** Where reading failed, when it did. */
	let readFailedAt: number | null = null;
	let failure: Error | null = null;
	let lastProgress = 0;
	/** Wakes the reading loop or the end's wait when a result comes (or the run fails or stops). */
	let wake: () => void = () => undefined;
	const woken = () => new Promise<void>((resolve) => (wake = resolve));
	const cancelled = () => signal?.aborted === true;
	/** The released parts' handling, one after another. */
	let releasing: Promise<void> = Promise.resolve();

	const progress = (): TriageProgress => {
		const elapsedMs = performance.now() - started;
		return {
			bytesRead: bytesReleased,
			totalBytes: options.totalBytes ?? null,
			requests: merger.tally.requests,
			rate: elapsedMs > 0 ? (merger.tally.requests * 1000) / elapsedMs : 0,
			elapsedMs,
			counts: merger.tally.counts()
		};
	};

	const dispatch = () => {
		// Parts handed out and not yet handled hold memory (their bytes, then their results): at most
		// `ahead` of them, whatever the blocks the stream gives.
		while (ready.length > 0 && handedOut - handled < ahead && !cancelled() && failure === null) {
			let chosen = -1;
			for (let index = 0; index < workers.length; index++)
				if ((busy[index] as number) < perWorker && (chosen < 0 || busy[index]! < busy[chosen]!))
					chosen = index;
			if (chosen < 0) return;
			const part = ready.shift() as LinePart;
			busy[chosen] = (busy[chosen] as number) + 1;
			partBytes.set(part.index, part.byteLength + (part.index === 0 ? plan.skip : 0));
			const { index, bytes, linesBefore, tooLong } = part;
			(workers[chosen] as PoolWorker).postMessage(
				{ type: 'part', run, index, bytes, linesBefore, tooLong },
				[bytes.buffer]
			);
			handedOut += 1;
		}
	};

	const stops = workers.map((worker, index) =>
		worker.listen((report) => {
			if (report instanceof Error) {
				failure ??= report;
				wake();
				return;
			}
			if (report.run !== run) return;
			busy[index] = (busy[index] as number) - 1;
			if (report.type === 'failed') {
				failure ??= new Error(`part ${report.index}: ${report.message}`);
				wake();
				return;
			}
			for (const released of merger.take(report.result)) {
				bytesReleased += partBytes.get(released.result.index) ?? 0;
				partBytes.delete(released.result.index);
				releasing = releasing.then(async () => {
					if (cancelled() || failure !== null) return;
					await options.onPart?.(released);
					// Handled (written, shown): its memory is free, and reading may go on.
					handled += 1;
					dispatch();
					wake();
					const now = performance.now();
					if (now - lastProgress >= intervalMs) {
						lastProgress = now;
						options.onProgress?.(progress());
					}
				});
			}
			dispatch();
			wake();
		})
	);
	const onAbort = () => {
		for (const worker of workers) worker.postMessage({ type: 'cancel', run });
		wake();
	};
	signal?.addEventListener('abort', onAbort, { once: true });
	for (const worker of workers) worker.postMessage({ type: 'setup', run, settings });

	const reader = options.stream.getReader();
	const summary = (wasCancelled: boolean) =>
		merger.tally.summary({
			format: plan.format,
			empty: false,
			bytesRead,
			elapsedMs: performance.now() - started,
			cancelled: wasCancelled,
			workers: workers.length
		});
	try {
		let skip = plan.skip;
		while (!readingDone) {
			// Parts not yet handled by onPart (a slow writer holds them) count against what is read.
			while (handedOut + ready.length - handled >= ahead && !cancelled() && !failure) await woken();
			if (cancelled()) return summary(true);
			if (failure) throw failure;
			let next: ReadableStreamReadResult<Uint8Array>;
			try {
				next = await reader.read();
			} catch {
				// What was read before the failure is counted, then the failure, as the engine does: the
				// line it cut short is not read, and the failure is a verdict of its own after the rest.
				readFailedAt = bytesRead;
				readingDone = true;
				break;
			}
			if (next.done) {
				ready.push(...chunker.end());
				readingDone = true;
			} else {
				let block = next.value;
				bytesRead += block.length;
				if (skip > 0) {
					const skipped = Math.min(skip, block.length);
					block = block.subarray(skipped);
					skip -= skipped;
				}
				ready.push(...chunker.feed(block));
			}
			dispatch();
		}
		while (merger.released < handedOut + ready.length && !cancelled() && !failure) {
			dispatch();
			await woken();
		}
		if (cancelled()) return summary(true);
		if (failure) throw failure;
		if (readFailedAt !== null) {
			const unreadable = {
				number: chunker.lines + 1,
				code: 'read-failed' as const,
				at: readFailedAt
			};
			for (const released of merger.take(
				recordsResult(handedOut, [unreadableRecord(unreadable)], settings)
			))
				releasing = releasing.then(() => options.onPart?.(released));
		}
		await releasing;
		if (cancelled()) return summary(true);
		options.onProgress?.(progress());
		return summary(false);
	} finally {
		signal?.removeEventListener('abort', onAbort);
		for (const stop of stops) stop();
		if (cancelled() || failure) await reader.cancel().catch(() => undefined);
		else reader.releaseLock();
	}
}
