import { expect, test } from '@playwright/test';
import { triageLogText } from '../bench/triage-log.js';
import { failOnPageErrors } from './page-errors';
import { giveLog } from './triage-input';

// A log of a few megabytes is split across the page's pool of workers (src/lib/triage/pool): the
// parts come back in any order, and the page must show them in the log's, with "nonce used twice"
// counted over the whole log, not per part (the planted reuses take the nonce of the request just
// before, so many cross from one part into the next).
const log = triageLogText({ requests: 12_000, faultRate: 0.04, seed: 19 });
const { expected } = log;

test('a log split across the pool: every count as planted, the verdicts in the log’s order', async ({
	page
}) => {
	failOnPageErrors(page);
	expect(Buffer.byteLength(log.text)).toBeGreaterThan(2 * 1024 * 1024);
	await giveLog(page, log, { name: 'pooled.ndjson' });
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	const summary = page.getByRole('table', { name: 'Summary', exact: true });
	await expect(summary).toHaveAttribute('aria-busy', 'false');
	for (const [group, count] of [
		['match', expected.match],
		['signature right, refused', expected.refused],
		['mismatch', expected.mismatch],
		['nonce used twice', expected.noncesReused],
		['unreadable', expected.unreadable]
	] as const)
		await expect(
			summary.getByRole('row', { name: `${group} ${count}`, exact: true })
		).toBeVisible();

	// The verdicts of the requests that reused a nonce, filtered: exactly the planted ones, and the
	// rows shown read in the log's order (the request number is a row's fifth cell).
	const verdicts = page.getByRole('table', { name: 'Verdicts', exact: true });
	const shownNumbers = () =>
		verdicts.getByRole('row').evaluateAll((rows) =>
			rows
				.filter((row) => Number(row.getAttribute('aria-rowindex')) > 1)
				.sort(
					(a, b) =>
						Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex'))
				)
				.map((row) => Number(row.querySelectorAll('[role="cell"]')[4]?.textContent?.trim()))
		);
	await page.getByLabel('Filter by group').selectOption({ label: 'nonce used twice' });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.noncesReused + 1));
	const reused = await shownNumbers();
	expect(reused.length).toBeGreaterThan(5);
	expect(reused).toEqual(expected.lines['nonce-reused'].slice(0, reused.length));
	await page.getByLabel('Filter by group').selectOption({ label: 'all' });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.requests + 1));
	const numbers = await shownNumbers();
	expect(numbers.length).toBeGreaterThan(5);
	expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
});
