import { expect, test } from '@playwright/test';
import { triageLogText } from '../bench/triage-log.js';
import { failOnPageErrors } from './page-errors';
import { giveLog } from './triage-input';

// The Summary fills while the run goes on, from the verdicts as they come, and ends with the run's
// own counts; the unreadable requests are broken down by reason.
const log = triageLogText({ requests: 40_000, faultRate: 0.02, seed: 5 });
const { expected } = log;

test('the Summary counts grow during the run and end with every count of the log', async ({
	page
}) => {
	failOnPageErrors(page);
	await giveLog(page, log);
	// Each state of the Summary the page shows, as (busy, match count) seen by a MutationObserver.
	await page.evaluate(() => {
		const seen: [string | null, number][] = [];
		(window as unknown as { summaries: typeof seen }).summaries = seen;
		new MutationObserver(() => {
			const table = document.querySelector('table[aria-labelledby="triage-summary-heading"]');
			const match = table?.querySelector('tbody tr td')?.textContent;
			if (table && match) seen.push([table.getAttribute('aria-busy'), Number(match)]);
		}).observe(document.body, {
			subtree: true,
			childList: true,
			characterData: true,
			attributes: true
		});
	});
	await page.getByRole('button', { name: 'Triage', exact: true }).click();

	const summary = page.getByRole('table', { name: 'Summary', exact: true });
	await expect(summary).toHaveAttribute('aria-busy', 'false');
	await expect(
		summary.getByRole('row', { name: `match ${expected.match}`, exact: true })
	).toBeVisible();
	await expect(
		summary.getByRole('row', { name: `unreadable ${expected.unreadable}`, exact: true })
	).toBeVisible();
	await expect(
		summary.getByRole('row', { name: `not JSON ${expected.lines['not-json'].length}`, exact: true })
	).toBeVisible();
	await expect(
		summary.getByRole('row', {
			name: `Authorization header not readable ${expected.lines['bad-header'].length}`,
			exact: true
		})
	).toBeVisible();

	const seen = await page.evaluate(
		() => (window as unknown as { summaries: [string | null, number][] }).summaries
	);
	const live = seen.filter(([busy]) => busy === 'true').map(([, match]) => match);
	// Counts shown before the end, short of the total, and never going back.
	expect(live.some((match) => match > 0 && match < expected.match)).toBe(true);
	expect(live).toEqual([...live].sort((a, b) => a - b));
	await expect(
		page.getByText('Counting: the counts grow as the requests are checked.')
	).toHaveCount(0);
});
