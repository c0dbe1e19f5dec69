// /triage's kids and files (issue 42 §5): kids masked in the Verdicts and the exports one way, the
// way /verify's case file masks them, so that short kids stay apart; "Show kids" shows them in full
// in both; a log rotated as .gz is read; a file of text with no signed request says so.
import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { chooseFile, summaryCounts } from './triage-input';

const KIDS = ['cust-1', 'cust-2', 'cust-3'];
const MASKED = ['cu...1', 'cu...2', 'cu...3'];
const keyOf = (kid: string) => `key-of-${kid}-Zq8`;

/** A request of `kid` as an NDJSON line, signed here with node:crypto. */
function line(kid: string, n: number): string {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = `bm9uY2Ut${n}`;
	const uri = `/account/profile/v1?client_id=c&n=${n}`;
	const base = `${ts}\n${nonce}\nGET\n${uri}\nopen.tapapis.cn\n443\n\n`;
	const mac = createHmac('sha1', keyOf(kid)).update(base).digest('base64');
	const authorization = `MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
	return JSON.stringify({ method: 'GET', url: `https://open.tapapis.cn${uri}`, authorization });
}
const LOG = `${KIDS.map((kid, index) => line(kid, index)).join('\n')}\n`;
const KEYS = KIDS.map((kid) => `${kid} ${keyOf(kid)}`).join('\n');

async function markdown(page: Page): Promise<string> {
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Download the summary (Markdown)' }).click()
	]);
	const chunks: Buffer[] = [];
	for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

async function triageFile(page: Page, name: string, buffer: Buffer): Promise<void> {
	await page.goto('./triage');
	await chooseFile(page, 'Requests file', { name, mimeType: 'application/octet-stream', buffer });
	await page.getByRole('textbox', { name: 'Keys', exact: true }).fill(KEYS);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('short kids stay apart, masked, in the Verdicts and the Summary; "Show kids" shows them', async ({
	page
}) => {
	await page.goto('./triage');
	await page.getByRole('textbox', { name: 'Requests', exact: true }).fill(LOG);
	await page.getByRole('textbox', { name: 'Keys', exact: true }).fill(KEYS);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	expect(await summaryCounts(page, 'Summary')).toMatchObject({ match: '3' });

	const verdicts = page.getByRole('table', { name: 'Verdicts' });
	const show = page.getByRole('checkbox', { name: 'Show kids' });
	await expect(show).not.toBeChecked();
	for (const masked of MASKED)
		await expect(verdicts.getByRole('cell', { name: masked, exact: true })).toBeVisible();
	for (const kid of KIDS) await expect(verdicts).not.toContainText(kid);
	const hidden = await markdown(page);
	for (const masked of MASKED) expect(hidden).toContain(`| ${masked} | 1 | 0 | 0 |`);
	for (const kid of KIDS) expect(hidden).not.toContain(kid);

	await show.check();
	for (const kid of KIDS)
		await expect(verdicts.getByRole('cell', { name: kid, exact: true })).toBeVisible();
	await expect(page.getByText('Kids are in full in both files')).toBeVisible();
	const shown = await markdown(page);
	for (const kid of KIDS) expect(shown).toContain(`| ${kid} | 1 | 0 | 0 |`);
	expect(shown).not.toContain(keyOf(KIDS[0]!));

	// The filter finds a kid as the table shows it, masked or not.
	await show.uncheck();
	await page.getByLabel('Filter by kid').fill('cu...2');
	await expect(verdicts.getByRole('cell', { name: 'cu...2', exact: true })).toBeVisible();
	await expect(verdicts.getByRole('cell', { name: 'cu...1', exact: true })).toHaveCount(0);
});

test('a log rotated as .gz is read as the log inside', async ({ page }) => {
	await triageFile(page, 'calls.ndjson.gz', gzipSync(LOG));
	expect(await summaryCounts(page, 'Summary')).toMatchObject({ match: '3', unreadable: '0' });
	await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a file of text with no signed request says so', async ({ page }) => {
	await triageFile(page, 'access.log', Buffer.from('GET /health 200\nGET /ready 200\n'));
	await expect(page.getByRole('alert')).toHaveText(
		// 31 bytes, in the page's sizes (decimal units, rounded up).
		'No signed request was found in 0.1 kB of text: nothing in it carries an Authorization: MAC header. Check that this is the log of the calls, saved as text (UTF-8 or UTF-16).'
	);
});
