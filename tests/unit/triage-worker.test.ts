import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	serveTriage,
	startTriage,
	triageText,
	type TriageCommand,
	type TriagePort,
	type TriageReport,
	type VerdictRecord
} from '$lib/triage';
import type { WarmUpRun } from '$lib/triage/protocol';
import { warmUpLog } from '$lib/triage/warm-up';
import { triageLogText } from '../bench/triage-log.js';

// The worker's protocol over a real message channel: every message is structured-cloned as it
// would be between the page and its worker.
const open: MessagePort[] = [];
function channel() {
	const { port1, port2 } = new MessageChannel();
	open.push(port1, port2);
	port1.start();
	port2.start();
	serveTriage(port1 as unknown as TriagePort<TriageCommand, TriageReport>);
	return port2 as unknown as TriagePort<TriageReport, TriageCommand>;
}
afterEach(() => {
	for (const port of open.splice(0)) port.close();
});

describe('the triage worker protocol', () => {
	it('reports the format, progress, verdict batches and the summary of a run', async () => {
		const log = triageLogText({ requests: 2000, faultRate: 0.05, seed: 8 });
		const page = channel();
		const formats: unknown[] = [];
		const progress: number[] = [];
		const records: VerdictRecord[] = [];
		const run = startTriage(page, new Blob([log.text]), log.keys, {
			onFormat: (format) => formats.push(format),
			onProgress: (report) => progress.push(report.bytesRead),
			onVerdicts: (batch) => void records.push(...batch)
		});
		const summary = await run.done;
		expect(formats).toEqual(['ndjson']);
		expect(progress.at(-1)).toBe(new Blob([log.text]).size);
		expect(records).toHaveLength(2000);
		expect(summary.groups.mismatch).toBe(log.expected.mismatch);
		expect(summary.groups.unreadable).toBe(log.expected.unreadable);
		// Nothing posted carries a key.
		for (const line of log.keys.trim().split('\n'))
			expect(JSON.stringify({ records, summary })).not.toContain(line.split(' ')[1]);
	});

	it('takes a stream and a pasted text as well as a file', async () => {
		const log = triageLogText({ requests: 300, faultRate: 0.05, seed: 9 });
		const page = channel();
		const fromText = await startTriage(page, log.text, log.keys).done;
		const fromStream = await startTriage(page, new Blob([log.text]).stream(), log.keys).done;
		expect(fromText.groups).toEqual(fromStream.groups);
		expect(fromText.requests).toBe(300);
	});

	it('stops at once on cancel: nothing but the summary follows, and it says cancelled', async () => {
		const log = triageLogText({ requests: 15000, faultRate: 0.01, seed: 3 });
		const page = channel();
		let afterCancel = 0;
		let cancelled = false;
		const run = startTriage(page, log.text, log.keys, {
			onVerdicts: () => {
				if (cancelled) afterCancel += 1;
				else {
					cancelled = true;
					run.cancel();
				}
			},
			onProgress: () => {
				if (cancelled) afterCancel += 1;
			}
		});
		const reports: string[] = [];
		page.addEventListener('message', (event) => reports.push(event.data.type));
		const summary = await run.done;
		expect(summary.cancelled).toBe(true);
		expect(summary.requests).toBeLessThan(15000);
		expect(afterCancel).toBe(0);
		// The worker itself sends nothing after the summary.
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(reports.at(-1)).toBe('done');
	});

	it('keeps runs apart by id', async () => {
		const a = triageLogText({ requests: 200, faultRate: 0, seed: 1 });
		const b = triageLogText({ requests: 300, faultRate: 0, seed: 2 });
		const page = channel();
		const [first, second] = await Promise.all([
			startTriage(page, a.text, a.keys).done,
			startTriage(page, b.text, b.keys).done
		]);
		expect([first.requests, second.requests]).toEqual([200, 300]);
		expect([first.groups.match, second.groups.match]).toEqual([200, 300]);
	});
});

describe('the triage worker warming up', () => {
	function warmingChannel(warmUp: (() => WarmUpRun)[]) {
		const { port1, port2 } = new MessageChannel();
		open.push(port1, port2);
		port1.start();
		port2.start();
		serveTriage(port1 as unknown as TriagePort<TriageCommand, TriageReport>, { warmUp });
		return port2 as unknown as TriagePort<TriageReport, TriageCommand>;
	}

	it('triages the made-up logs of warm-up.ts as the engine reads them, each format', async () => {
		for (const format of ['ndjson', 'log-lines'] as const) {
			const log = warmUpLog(format, 400);
			const summary = await triageText(log.text, log.keys);
			expect(summary.format).toBe(format);
			expect(summary.requests).toBe(400);
			expect(summary.groups.match).toBe(390);
			expect(summary.groups.mismatch).toBe(10);
			expect(summary.mistakes).toEqual([{ id: 'query-dropped', count: 5 }]);
			expect(summary.unexplained).toBe(5);
		}
	});

	it('runs its warm-up before any start, and reports nothing of it', async () => {
		const log = warmUpLog('ndjson', 300);
		const made: string[] = [];
		const page = warmingChannel([
			() => (made.push('first'), { input: log.text, keys: log.keys }),
			() => (made.push('second'), { input: log.text, keys: log.keys })
		]);
		const reports: unknown[] = [];
		page.addEventListener('message', (event) => reports.push(event.data));
		await vi.waitFor(() => expect(made).toEqual(['first', 'second']));
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(reports).toEqual([]);
	});

	it('stops warming up at the first start, whose run is whole', async () => {
		// A warm-up that reads a log, then waits for more that never comes: only a stop ends it.
		const warm = new TextEncoder().encode(warmUpLog('ndjson', 100).text);
		let cancelled = false;
		const endless = new ReadableStream<Uint8Array>({
			start: (controller) => controller.enqueue(warm),
			pull: () => new Promise(() => undefined),
			cancel: () => void (cancelled = true)
		});
		const made: string[] = [];
		const page = warmingChannel([
			() => (made.push('first'), { input: endless, keys: warmUpLog('ndjson', 1).keys }),
			() => (made.push('second'), { input: '', keys: '' })
		]);
		await vi.waitFor(() => expect(made).toEqual(['first']));
		expect(cancelled).toBe(false);
		const log = triageLogText({ requests: 500, faultRate: 0.05, seed: 10 });
		const ids = new Set<number>();
		page.addEventListener('message', (event) => ids.add(event.data.id));
		const summary = await startTriage(page, log.text, log.keys).done;
		expect(summary.requests).toBe(500);
		expect(summary.groups.mismatch).toBe(log.expected.mismatch);
		expect(cancelled).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 50));
		// The second warm-up run never started, and nothing but the real run was reported.
		expect(made).toEqual(['first']);
		expect([...ids]).toHaveLength(1);
	});
});
