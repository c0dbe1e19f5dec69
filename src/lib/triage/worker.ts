// The triage worker's entry. The page starts it with
//   new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
// (Vite bundles it and its imports as a worker of its own) and talks to it through startTriage.
// A big log of lines is split across a pool of workers, one per core (pool/pool.ts), which this
// worker coordinates; anything else (a HAR, a small paste) it triages itself.
import { poolSize, type PoolReport, type PoolWorker } from './pool/pool';
import { warmUpPool } from './pool/warm-up';
import { serveTriage, type TriageCommand, type TriagePort, type TriageReport } from './protocol';

/** A Web Worker as the pool's coordinator talks to it. */
function webPoolWorker(worker: Worker): PoolWorker {
	return {
		postMessage: (command, transfer) => worker.postMessage(command, transfer ?? []),
		listen(listener) {
			const onMessage = (event: MessageEvent<PoolReport>) => listener(event.data);
			const onError = (event: Event) => {
				event.preventDefault();
				listener(new Error(event instanceof ErrorEvent ? event.message : 'a pool worker failed'));
			};
			worker.addEventListener('message', onMessage);
			worker.addEventListener('error', onError);
			worker.addEventListener('messageerror', onError);
			return () => {
				worker.removeEventListener('message', onMessage);
				worker.removeEventListener('error', onError);
				worker.removeEventListener('messageerror', onError);
			};
		}
	};
}

const canStartWorkers = typeof Worker === 'function';

/**
 * The pool's workers, or undefined where a worker cannot start one (a browser that starts no worker
 * from a worker, or no module worker there): this worker then triages every log itself.
 */
function startPool(): PoolWorker[] | undefined {
	if (!canStartWorkers) return undefined;
	try {
		return Array.from({ length: poolSize(navigator.hardwareConcurrency) }, () =>
			webPoolWorker(
				new Worker(new URL('./pool/pool-worker.ts', import.meta.url), { type: 'module' })
			)
		);
	} catch {
		return undefined;
	}
}
// Started now, with this worker, and warmed up while the page waits for a log (warm-up.ts); the
// first run stops the warm-up.
const poolWorkers = startPool();
const warmUp = new AbortController();
if (poolWorkers !== undefined) void warmUpPool(poolWorkers, warmUp.signal);

serveTriage(globalThis as unknown as TriagePort<TriageCommand, TriageReport>, {
	pool:
		poolWorkers &&
		(() => {
			warmUp.abort();
			return poolWorkers;
		})
});
