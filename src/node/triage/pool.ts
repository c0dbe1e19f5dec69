// `npm run triage`'s pool: worker threads running pool-thread.ts (from the bundle that run.js
// loads), driven by the same coordinator as the page's ($lib/triage/pool/pool.ts).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileHandle } from 'node:fs/promises';
import { PLAN_BYTES, plan, type PoolPlan } from '$lib/triage/pool/line-chunks';
import type { PartOutput } from '$lib/triage/pool/part';
import { poolSize, runPool, type PoolReport, type PoolWorker } from '$lib/triage/pool/pool';
import { POOL_MIN_BYTES, partBytesFor } from '$lib/triage/protocol';
import type { NonceLedger } from '$lib/triage/tally';
import type { TriageSummary } from '$lib/triage/types';

export interface ThreadPool {
	workers: PoolWorker[];
	/** Ends the threads (a thread busy with a part is stopped). */
	close(): Promise<void>;
}

/** Starts one thread a core (at least 2, at most 8) from the bundled thread file `file`. */
export function startThreads(file: URL, count = poolSize(availableParallelism())): ThreadPool {
	const threads = Array.from({ length: count }, () => new Worker(file));
	const workers = threads.map((thread): PoolWorker => ({
		postMessage: (command, transfer) =>
			thread.postMessage(command, (transfer ?? []) as unknown as ArrayBuffer[]),
		listen(listener) {
			const onMessage = (report: PoolReport) => listener(report);
			const onError = (error: Error) => listener(error);
			const onExit = (code: number) => listener(new Error(`a worker thread exited (${code})`));
			thread.on('message', onMessage);
			thread.on('error', onError);
			thread.on('exit', onExit);
			return () => {
				thread.off('message', onMessage);
				thread.off('error', onError);
				thread.off('exit', onExit);
			};
		}
	}));
	return {
		workers,
		close: async () => {
			await Promise.all(threads.map((thread) => thread.terminate()));
		}
	};
}

/** How the pool reads a file of `size` bytes, from its first bytes; null: one thread reads it. */
export async function poolFor(
	file: FileHandle,
	size: number | null,
	thread: URL
): Promise<{ plan: PoolPlan; thread: URL } | null> {
	if (size === null || size < POOL_MIN_BYTES) return null;
	const head = new Uint8Array(Math.min(size, PLAN_BYTES));
	await file.read(head, 0, head.length, 0);
	const found = plan(head);
	return found === null ? null : { plan: found, thread };
}

/**
 * A log of lines triaged by a pool of worker threads (`threads`, or one a core): the verdicts
 * written in the log's order, a part at a time, in the one form asked for (the threads write it).
 */
export async function triageOnThreads(
	pool: { plan: PoolPlan; thread: URL },
	/** The file from its start. */
	stream: () => ReadableStream<Uint8Array>,
	run: {
		keysText: string;
		output: PartOutput;
		threads: number | null;
		windowSeconds: number;
		revealKid: boolean;
		size: number | null;
		nonces: NonceLedger;
		signal: AbortSignal;
		write: (text: string) => Promise<void>;
	}
): Promise<TriageSummary> {
	const threads = startThreads(pool.thread, run.threads ?? undefined);
	const partBytes = partBytesFor(run.size ?? 0, threads.workers.length);
	try {
		return await runPool({
			workers: threads.workers,
			stream: stream(),
			plan: pool.plan,
			settings: {
				keys: run.keysText,
				windowSeconds: run.windowSeconds,
				nowMs: Date.now(),
				output: run.output,
				revealKid: run.revealKid
			},
			partBytes,
			totalBytes: run.size,
			nonces: run.nonces,
			signal: run.signal,
			indexOf: bufferIndexOf(),
			onPart: async ({ text }) => {
				if (text !== null && run.output !== 'none') await run.write(text);
			}
		});
	} finally {
		await threads.close();
	}
}

/** Buffer's indexOf over a part's bytes, the Buffer made once per part rather than once a line. */
function bufferIndexOf(): (bytes: Uint8Array, byte: number, from: number) => number {
	let last: Uint8Array | null = null;
	let buffer: Buffer = Buffer.alloc(0);
	return (bytes, byte, from) => {
		if (bytes !== last) {
			last = bytes;
			buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		}
		return buffer.indexOf(byte, from);
	};
}
