import { expect, test } from '@playwright/test';
import { PLANTED_MISTAKES, triageLogText } from '../bench/triage-log.js';
import { violations } from './axe';
import { failOnPageErrors } from './page-errors';
import { giveLog, summaryCounts } from './triage-input';

// The triage page on a generated log with faults of every kind planted (tests/bench/triage-log.js
// signs it with node:crypto and counts what it planted): every count of the Summary, the Verdicts'
// filter, a mismatch opened on /verify, and Cancel.
const log = triageLogText({ requests: 2000, faultRate: 0.05, seed: 3 });
const { expected } = log;

/** The English label of each planted mistake, as the Summary names it. */
const MISTAKE_LABELS: Record<(typeof PLANTED_MISTAKES)[number], string> = {
	'query-dropped': 'query not signed',
	'host-other-deployment': 'host of the other deployment signed',
	'host-with-port': 'host signed with its port',
	'method-lower-case': 'method signed in lower case',
	'ext-line-dropped': 'lines joined, last LF missing',
	crlf: 'lines end with CRLF',
	'digest-hex': 'digest in hex'
};

function englishExpected(): Record<string, string> {
	const counts: Record<string, string> = {
		match: String(expected.match),
		'signature right, refused': String(expected.refused),
		// Its parts: each planted ts outside the window and nonce used again was signed right.
		'ts outside the window (assumed)': String(expected.outsideWindow),
		'nonce used again (refusal not in the spec)': String(expected.noncesReused),
		mismatch: String(expected.mismatch),
		'no key for kid': String(expected.noKey),
		unreadable: String(expected.unreadable),
		unexplained: String(expected.unexplained),
		'ts outside the assumed window (±300 s)': String(expected.outsideWindow),
		'nonce used twice': String(expected.noncesReused)
	};
	for (const id of PLANTED_MISTAKES) counts[MISTAKE_LABELS[id]] = String(expected.mistakes[id]);
	// The unreadable ones by reason: a line that is not JSON, a header that is not MAC.
	counts['not JSON'] = String(expected.lines['not-json'].length);
	counts['Authorization header not readable'] = String(expected.lines['bad-header'].length);
	return counts;
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('a pasted log: every planted count in the Summary, a filter, a mismatch opened on /verify', async ({
	page
}) => {
	// A whole log in the page, read and diagnosed on a 2-core machine beside another test: minutes,
	// not the default half-minute, before the run is called stuck.
	// Every kind planted at least once, so that each row below is tested.
	for (const id of PLANTED_MISTAKES) expect(expected.mistakes[id]).toBeGreaterThan(0);
	expect(expected.unexplained * expected.noKey * expected.unreadable).toBeGreaterThan(0);
	expect(expected.outsideWindow * expected.noncesReused).toBeGreaterThan(0);

	await page.goto('./triage');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Triage a whole log');
	await page.getByRole('textbox', { name: 'Requests', exact: true }).fill(log.text);
	await page.getByRole('textbox', { name: 'Keys', exact: true }).fill(log.keys);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();

	expect(await summaryCounts(page, 'Summary')).toEqual(englishExpected());
	await expect(page.getByRole('status').filter({ hasText: 'Format: NDJSON.' })).toBeVisible();
	const progress = page.getByRole('progressbar', { name: 'Triage progress' });
	const max = await progress.getAttribute('aria-valuemax');
	expect(Number(max)).toBe(Buffer.byteLength(log.text));
	await expect(progress).toHaveAttribute('aria-valuenow', String(max));

	// All the verdicts, then those of one group and of one kid.
	const verdicts = page.getByRole('table', { name: 'Verdicts', exact: true });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.requests + 1));
	await page.getByLabel('Filter by group').selectOption({ label: 'mismatch' });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.mismatch + 1));
	await page.getByLabel('Filter by group').selectOption({ label: MISTAKE_LABELS['crlf'] });
	await expect(verdicts).toHaveAttribute('aria-rowcount', String(expected.mistakes.crlf + 1));
	const rows = verdicts.getByRole('row');
	await expect(rows).toHaveCount(expected.mistakes.crlf + 1);
	for (const number of expected.lines.crlf)
		await expect(
			verdicts.getByRole('button', { name: `Open request ${number} on the verify page` })
		).toBeVisible();

	// Sorted by number (ascending at first), then descending: the last crlf line comes first.
	await page.getByRole('button', { name: 'Number' }).click();
	await expect(verdicts.getByRole('columnheader', { name: 'Number' })).toHaveAttribute(
		'aria-sort',
		'descending'
	);
	// The Number is the fifth column, after the Verdict, the Mistake, the URL and the kid.
	await expect(rows.nth(1).getByRole('cell').nth(4)).toHaveText(String(expected.lines.crlf.at(-1)));

	expect(await violations(page)).toEqual([]);

	// A mismatch opens on /verify with its request and its key, and is a mismatch there too.
	const number = expected.lines['query-dropped'][0] ?? 0;
	await page.getByLabel('Filter by group').selectOption({ label: 'all' });
	await page.getByLabel('Filter by kid').fill('');
	await page.getByLabel('Filter by group').selectOption({ label: MISTAKE_LABELS['query-dropped'] });
	await verdicts.getByRole('button', { name: `Open request ${number} on the verify page` }).click();
	await expect(page).toHaveURL(/\/verify$/);
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(/client_id=/);
	const { authorization } = JSON.parse(log.text.split('\n')[number - 1] ?? '{}');
	const kid = /id="([^"]+)"/.exec(authorization)?.[1] ?? '';
	const key = log.keys
		.split('\n')
		.find((line) => line.startsWith(`${kid} `))
		?.split(' ')[1];
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue(key ?? 'no key');
	await expect(page.getByRole('status').filter({ hasText: /^(Match|Mismatch)/ })).toContainText(
		'Mismatch'
	);
	await expect(page.getByRole('list', { name: 'Diagnosis' })).toBeVisible();
	// The key went nowhere but the verify page's field.
	for (const value of [key ?? '', kid]) expect(page.url()).not.toContain(value);

	// Back on /triage, the run is still there.
	await page.goBack();
	expect(await summaryCounts(page, 'Summary')).toEqual(englishExpected());
});

test('a log as a file, and the exports mask kids and hold no key', async ({ page }) => {
	await giveLog(page, log);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	expect(await summaryCounts(page, 'Summary')).toEqual(englishExpected());

	const [csv] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Download the verdicts (CSV)' }).click()
	]);
	const csvText = await streamText(await csv.createReadStream());
	expect(csvText.split('\r\n').length).toBe(expected.requests + 2);
	const [markdown] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Download the summary (Markdown)' }).click()
	]);
	const markdownText = await streamText(await markdown.createReadStream());
	expect(markdownText).toContain(`| ${MISTAKE_LABELS.crlf} | ${expected.mistakes.crlf} |`);
	for (const line of log.keys.trim().split('\n')) {
		const [kid = '', key = ''] = line.split(' ');
		for (const text of [csvText, markdownText]) {
			expect(text).not.toContain(key);
			expect(text).not.toContain(kid);
		}
	}
});

test('missing input is said at its field', async ({ page }) => {
	await page.goto('./triage');
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	await expect(page.getByRole('textbox', { name: 'Requests', exact: true })).toHaveAttribute(
		'aria-invalid',
		'true'
	);
	await expect(
		page.getByRole('textbox', { name: 'Requests', exact: true })
	).toHaveAccessibleDescription(/Paste the requests or choose a file\./);
	await expect(
		page.getByRole('textbox', { name: 'Keys', exact: true })
	).toHaveAccessibleDescription(/Give the keys/);
	await expect(page.getByRole('progressbar')).toHaveCount(0);
});

test('Cancel stops a big run at once', async ({ page }) => {
	// A whole log in the page, read and diagnosed on a 2-core machine beside another test: minutes,
	// not the default half-minute, before the run is called stuck.
	const big = triageLogText({ requests: 100_000, seed: 4 });
	await giveLog(page, big, { name: 'big.ndjson' });
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	const progress = page.getByRole('progressbar', { name: 'Triage progress' });
	await expect
		.poll(async () => Number(await progress.getAttribute('aria-valuenow')))
		.toBeGreaterThan(0);
	await page.getByRole('button', { name: 'Cancel' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Cancelled.' })).toBeVisible();
	const stoppedAt = await progress.getAttribute('aria-valuenow');
	const rowsAt = await page.getByRole('table', { name: 'Verdicts' }).getAttribute('aria-rowcount');
	await page.waitForTimeout(1500);
	await expect(progress).toHaveAttribute('aria-valuenow', stoppedAt ?? '');
	await expect(page.getByRole('table', { name: 'Verdicts' })).toHaveAttribute(
		'aria-rowcount',
		rowsAt ?? ''
	);
	expect(Number(stoppedAt)).toBeLessThan(Buffer.byteLength(big.text));
	expect(Number(rowsAt) - 1).toBeLessThan(big.expected.requests);
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
	let text = '';
	for await (const chunk of stream) text += chunk.toString();
	return text;
}
