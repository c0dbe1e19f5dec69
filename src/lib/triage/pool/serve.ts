// A pool worker's side of the messages (pool.ts): the settings of each run, then its parts, each
// answered with its result (or why it failed); a cancel stops the run's part being read.
import { resultTransferables, triagePart, type PartSettings } from './part';
import type { PoolCommand, PoolReport } from './pool';

/** The side of a worker's scope (or a MessagePort, a worker thread's parentPort) it uses. */
export interface PoolScope {
	postMessage(report: PoolReport, transfer?: Transferable[]): void;
	onCommand(listener: (command: PoolCommand) => void): void;
}

/** Runs settings kept at once: a run's follow the previous one's out. */
const RUNS_KEPT = 4;

export function servePool(scope: PoolScope): void {
	const runs = new Map<number, { settings: PartSettings; stop: AbortController }>();
	// One part at a time, in the order given: a worker is one core's worth.
	let queue: Promise<void> = Promise.resolve();
	scope.onCommand((command) => {
		if (command.type === 'setup') {
			runs.set(command.run, { settings: command.settings, stop: new AbortController() });
			for (const run of runs.keys()) if (runs.size > RUNS_KEPT) runs.delete(run);
			return;
		}
		if (command.type === 'cancel') {
			runs.get(command.run)?.stop.abort();
			return;
		}
		queue = queue.then(async () => {
			const run = runs.get(command.run);
			if (run === undefined || run.stop.signal.aborted) return;
			try {
				const result = await triagePart(command, run.settings, { signal: run.stop.signal });
				if (run.stop.signal.aborted) return;
				scope.postMessage(
					{ type: 'result', run: command.run, result },
					resultTransferables(result)
				);
			} catch (error) {
				scope.postMessage({
					type: 'failed',
					run: command.run,
					index: command.index,
					message: error instanceof Error ? error.message : String(error)
				});
			}
		});
	});
}
