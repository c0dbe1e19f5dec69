import { describe, expect, it } from 'vitest';
import { startTriage, type VerdictRecord } from '$lib/triage';
import { triageLogText } from '../bench/triage-log.js';
import { workerChannel } from './triage-channel';

// The worker's protocol over a real message channel (triage-channel.ts).
const channel = workerChannel;

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
		const lines = log.text.split('\n');
		const head = `${lines.slice(0, 3000).join('\n')}\n`;
		// The worker gets the log's first 3,000 lines and then waits for more, held until the test has
		// cancelled: the run cannot end before the cancel, however fast it goes.
		const input = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode(head));
			}
		});
		const page = channel();
		let afterCancel = 0;
		let cancelled = false;
		const run = startTriage(
			page,
			input,
			log.keys,
			{
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
			},
			{ batchSize: 500 }
		);
		const reports: { type: string; id: number }[] = [];
		page.addEventListener('message', (event) => reports.push(event.data));
		const summary = await run.done;
		expect(cancelled).toBe(true);
		expect(summary.cancelled).toBe(true);
		expect(summary.requests).toBeLessThan(15000);
		expect(afterCancel).toBe(0);
		// The worker itself sends nothing for the cancelled run after its summary: a second run on the
		// same channel ends, and every report of the first came before the first's 'done'.
		const first = reports.at(-1)?.id;
		await startTriage(page, log.text.slice(0, 2000), log.keys).done;
		const ofFirst = reports.filter((report) => report.id === first);
		expect(ofFirst.at(-1)?.type).toBe('done');
		expect(ofFirst.filter((report) => report.type === 'done')).toHaveLength(1);
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
