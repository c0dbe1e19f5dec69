// A pool worker (src/lib/triage/pool/serve.ts) on the far end of a real message channel, every
// message structured-cloned and the buffers transferred, as between threads. Ports close after
// each test.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach } from 'vitest';
import { runPool, type PoolCommand, type PoolReport, type PoolWorker } from '$lib/triage/pool/pool';
import { plan } from '$lib/triage/pool/line-chunks';
import type { PartOutput } from '$lib/triage/pool/part';
import type { VerdictRecord } from '$lib/triage';
import { decodeVerdicts } from '$lib/triage/verdict-batch';
import { BASE_TS } from '../bench/triage-log.js';
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

/** The time a test's runs take as now: a minute after the generated log's first ts. */
export const NOW = (BASE_TS + 60) * 1000;

/** A test run's settings: the keys given, the server's window, NOW, the engine's own HMAC. */
export function runSettings(keys: string, output: PartOutput = 'batch') {
	return { keys, windowSeconds: 300, nowMs: NOW, output, revealKid: false };
}

const encoder = new TextEncoder();

/** A run of the pool on `text`, its verdicts decoded and its text kept (a CSV or NDJSON run). */
export async function pooled(
	text: string | Uint8Array<ArrayBuffer>,
	keys: string,
	{
		workers = 3,
		partBytes = 4096,
		output = 'batch' as PartOutput,
		workerList = undefined as PoolWorker[] | undefined
	} = {}
) {
	const bytes = typeof text === 'string' ? encoder.encode(text) : text;
	const found = plan(bytes.subarray(0, 65_536));
	if (found === null) throw new Error('the test log is not one the pool splits');
	const records: VerdictRecord[] = [];
	let written = '';
	const summary = await runPool({
		workers: workerList ?? Array.from({ length: workers }, channelWorker),
		stream: new Blob([bytes]).stream(),
		plan: found,
		settings: runSettings(keys, output),
		partBytes,
		onPart: ({ result, text: partText }) => {
			if (result.batch) records.push(...decodeVerdicts(result.batch));
			if (partText !== null) written += partText;
		}
	});
	return { summary, records, written };
}
