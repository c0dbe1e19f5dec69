import { expect, test } from '@playwright/test';
import { triageLogText } from '../bench/triage-log.js';
import { failOnPageErrors } from './page-errors';
import { giveLog } from './triage-input';

// The CSV of a huge run is built without holding the page: a slice at a time, the page's event loop
// running between the slices, from the click on the button to the file handed to the browser. The
// long tasks of that span (PerformanceObserver) are measured and reported with the test: a task's
// wall time grows with the machine's load, so what the test holds to is that the page runs between
// slices; each slice is sized (at most 8 ms or 256 k characters of rows, then their encoding) to
// stay well under 50 ms. The file holds every verdict, kids masked and no key.
const big = triageLogText({ requests: 100_000, faultRate: 0.01, seed: 6 });

test('the CSV of 100,000 verdicts is written in slices, the page running between them', async ({
	page
}) => {
	failOnPageErrors(page);
	await giveLog(page, big, { name: 'big.ndjson' });
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	await expect(
		page.getByRole('status').filter({ hasText: /^Format: NDJSON\. Done:/ })
	).toBeVisible();
	// From here on: the long tasks, the click on the button, the moment the file is handed to the
	// browser to save (its Blob URL made) and a tick each time the event loop gets the thread back.
	await page.evaluate(() => {
		const seen = { longTasks: [] as number[], clicked: 0, saved: 0, ticks: [] as number[] };
		(window as unknown as { seen: typeof seen }).seen = seen;
		const observer = new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) seen.longTasks.push(Math.round(entry.duration));
		});
		observer.observe({ type: 'longtask' });
		(window as unknown as { longTasks: PerformanceObserver }).longTasks = observer;
		document.addEventListener('click', () => (seen.clicked ||= performance.now()), true);
		const createObjectURL = URL.createObjectURL.bind(URL);
		URL.createObjectURL = (blob) => {
			seen.saved = performance.now();
			return createObjectURL(blob);
		};
		const tick = () => {
			seen.ticks.push(performance.now());
			if (seen.saved === 0) setTimeout(tick, 0);
		};
		tick();
	});
	const button = page.getByRole('button', { name: 'Download the verdicts (CSV)' });
	const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
	const text = await streamText(await download.createReadStream());
	// A last long task the observer has not been handed yet, if any: take it from its queue.
	await page.evaluate(() => {
		const w = window as unknown as {
			longTasks: PerformanceObserver;
			seen: { longTasks: number[] };
		};
		for (const entry of w.longTasks.takeRecords())
			w.seen.longTasks.push(Math.round(entry.duration));
	});
	const seen = await page.evaluate(
		() =>
			(
				window as unknown as {
					seen: { longTasks: number[]; clicked: number; saved: number; ticks: number[] };
				}
			).seen
	);
	const { clicked, saved } = seen;
	expect(saved).toBeGreaterThan(clicked);
	const between = seen.ticks.filter((at) => at > clicked && at < saved);
	// Written in slices: the page ran between them (one synchronous export gives no tick at all).
	expect(between.length).toBeGreaterThanOrEqual(2);
	const longest = Math.max(0, ...seen.longTasks);
	test.info().annotations.push({
		type: 'export',
		description: `${Math.round(saved - clicked)} ms, ${between.length} ticks, longest task ${longest} ms`
	});
	console.log(
		`CSV of ${big.expected.requests} verdicts: ${test.info().annotations.at(-1)?.description}`
	);

	const rows = text.split('\r\n');
	expect(rows[0]).toBe(
		'number,method,url,kid,verdict,refusal,mistake,status,ts_age_seconds,ts_outside_window,nonce_first_used_at,unreadable,likely_client,likely_client_confidence,likely_client_evidence'
	);
	expect(rows).toHaveLength(big.expected.requests + 2);
	expect(rows.at(-1)).toBe('');
	expect(rows[1]?.startsWith('1,GET,')).toBe(true);
	expect(rows.at(-2)?.startsWith(`${big.expected.requests},`)).toBe(true);
	expect(rows.filter((row) => row.includes(',mismatch,'))).toHaveLength(big.expected.mismatch);
	for (const line of big.keys.trim().split('\n')) {
		const [kid = '', key = ''] = line.split(' ');
		expect(text).not.toContain(key);
		expect(text).not.toContain(kid);
	}
	await expect(button).toBeEnabled();
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk));
	return Buffer.concat(chunks).toString('utf8');
}
