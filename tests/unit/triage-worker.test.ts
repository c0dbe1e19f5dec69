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
