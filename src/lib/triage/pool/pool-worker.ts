// The page's pool worker: started by the triage worker (worker.ts) as
//   new Worker(new URL('./pool/pool-worker.ts', import.meta.url), { type: 'module' })
// once per core, and fed parts of a log by runPool (pool.ts).
import { servePool } from './serve';
import type { PoolCommand, PoolReport } from './pool';

const scope = globalThis as unknown as {
	postMessage(report: PoolReport, transfer?: Transferable[]): void;
	addEventListener(type: 'message', listener: (event: MessageEvent<PoolCommand>) => void): void;
};
// Started with the triage worker, before a log is chosen, which warms it up (warm-up.ts).
servePool({
	postMessage: (report, transfer) => scope.postMessage(report, transfer ?? []),
	onCommand: (listener) => scope.addEventListener('message', (event) => listener(event.data))
});
