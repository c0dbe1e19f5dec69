// `npm run triage`'s pool: worker threads running node/pool-thread.ts (from the bundle that run.js
// loads), driven by the same coordinator as the page's (../pool/pool.ts).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { poolSize, type PoolReport, type PoolWorker } from '../pool/pool';

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
