// A pool worker (src/lib/triage/pool/serve.ts) on the far end of a real message channel, every
// message structured-cloned and the buffers transferred, as between threads. Ports close after
// each test.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach } from 'vitest';
import type { PoolCommand, PoolReport, PoolWorker } from '$lib/triage/pool/pool';
import { servePool } from '$lib/triage/pool/serve';

const open: MessagePort[] = [];
afterEach(() => {
	for (const port of open.splice(0)) port.close();
});

/** A channel whose two ports are started, and closed after the test. */
export function openChannel(): { port1: MessagePort; port2: MessagePort } {
	const { port1, port2 } = new MessageChannel();
	open.push(port1, port2);
	port1.start();
	port2.start();
	return { port1, port2 };
}

/**
 * A pool worker on the far end of a real message channel (every message structured-cloned, the
 * buffers transferred, as between threads). `hold` keeps its results back until `release()`: the
 * test then decides in which order the workers answer.
 */
export function channelWorker(): PoolWorker & {
	held: PoolReport[];
	holding: boolean;
	release(): void;
} {
	const { port1, port2 } = openChannel();
	servePool({
		postMessage: (report, transfer) => port1.postMessage(report, (transfer ?? []) as ArrayBuffer[]),
		onCommand: (listener) => port1.on('message', listener)
	});
	const listeners = new Set<(report: PoolReport | Error) => void>();
	const worker = {
		held: [] as PoolReport[],
		holding: false,
		release() {
			const held = worker.held.splice(0);
			for (const report of held) for (const listener of listeners) listener(report);
		},
		postMessage: (command: PoolCommand, transfer?: Transferable[]) =>
			port2.postMessage(command, (transfer ?? []) as ArrayBuffer[]),
		listen(listener: (report: PoolReport | Error) => void) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		}
	};
	port2.on('message', (report: PoolReport) => {
		if (worker.holding) worker.held.push(report);
		else for (const listener of listeners) listener(report);
	});
	return worker;
}
