// Mismatches diagnosed in a worker of their own give the verdicts the engine gives diagnosing them
// itself, and a worker that cannot start, or fails midway, leaves no mismatch undiagnosed.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { triageText, type VerdictRecord } from '$lib/triage';
import {
	serveDiagnoses,
	type Diagnose,
	workerDiagnose,
	type DiagnosisAnswer,
	type DiagnosisRequest
} from '$lib/triage/diagnoser';
import { triageLogText } from '../bench/triage-log.js';

const LOG = triageLogText({ requests: 1500, faultRate: 0.1, seed: 17 });

const open: MessagePort[] = [];
afterEach(() => {
	for (const port of open.splice(0)) port.close();
});

/** A worker made of a message channel, serving diagnoses on its far side (each message cloned). */
function channelWorker(): { worker: Worker; fail: () => void; posted: () => number } {
	const { port1, port2 } = new MessageChannel();
	open.push(port1, port2);
	port1.start();
	port2.start();
	serveDiagnoses(
		port2 as unknown as {
			postMessage(answer: DiagnosisAnswer): void;
			addEventListener(
				type: 'message',
				listener: (event: MessageEvent<DiagnosisRequest>) => void
			): void;
		}
	);
	const errors: (() => void)[] = [];
	let posted = 0;
	const worker = {
		postMessage: (message: DiagnosisRequest) => {
			posted += message.mismatches.length;
			port1.postMessage(message);
		},
		addEventListener: (type: string, listener: (event: never) => void) => {
			if (type === 'message') port1.addEventListener('message', listener as never);
			if (type === 'error') errors.push(listener as () => void);
		},
		terminate: () => port1.close()
	} as unknown as Worker;
	return { worker, fail: () => errors.forEach((listener) => listener()), posted: () => posted };
}

async function run(diagnose?: Diagnose) {
	const records: VerdictRecord[] = [];
	await triageText(LOG.text, LOG.keys, {
		nowMs: 1_763_800_000_000,
		...(diagnose ? { diagnose, maxDiagnoses: 64 } : {}),
		onVerdicts: (batch) => void records.push(...batch)
	});
	return records;
}

describe('diagnoses in a worker of their own', () => {
	it('name the same mistakes as the engine does in its own thread', async () => {
		const here = await run();
		const { worker, posted } = channelWorker();
		const there = await run(workerDiagnose(() => worker));
		expect(there).toStrictEqual(here);
		expect(posted()).toBe(LOG.expected.mismatch);
		expect(here.filter((record) => record.mistake !== null)).toHaveLength(LOG.expected.mismatch);
	});

	it('are made in this thread when the worker cannot start, or after it fails', async () => {
		const here = await run();
		const unstarted = await run(
			workerDiagnose(() => {
				throw new Error('no workers here');
			})
		);
		expect(unstarted).toStrictEqual(here);
		const { worker, fail } = channelWorker();
		// The worker answers nothing, and fails a moment after the first mismatch reaches it.
		let failing = false;
		worker.postMessage = () => {
			if (!failing) setTimeout(fail, 5);
			failing = true;
		};
		expect(await run(workerDiagnose(() => worker))).toStrictEqual(here);
	});
});
