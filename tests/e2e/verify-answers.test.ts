// Answers true for the case at hand on /verify (issue 24 §1): a request opened from /triage is judged
// against the time it was logged, not today's clock; a paste of two kids with the key of one says
// "no key for this kid" for the other; the next step goes once it is taken. The page's clock is the
// test's (page.clock), and every logged time is fixed, so nothing races the clock.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

const HOST = 'open.tapapis.cn';
const PATH = '/account/profile/v1?client_id=cust-app';
const URL = `https://${HOST}${PATH}`;
const KID_A = 'kid-alpha-0001';
const KEY_A = 'key-of-kid-alpha-9Qz';
const KID_B = 'kid-bravo-0002';
const KEY_B = 'key-of-kid-bravo-3Xw';

/** 2026-11-24 13:05:00 UTC, when the log says the request was sent. */
const LOGGED_MS = Date.UTC(2026, 10, 24, 13, 5, 0);
/** Three hours later: "now" for the page, so that judging against now would say invalid_time. */
const NOW = new Date(LOGGED_MS + 3 * 3600 * 1000);

function header(kid: string, key: string, ts: string, nonce: string): string {
	const base = `${ts}\n${nonce}\nGET\n${PATH}\n${HOST}\n443\n\n`;
	const mac = createHmac('sha1', key).update(base).digest('base64');
	return `MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
}

/** A log line as NDJSON, logged `loggedOffset` seconds after LOGGED_MS, ts 2 s after that. */
function ndjson(kid: string, key: string, nonce: string, loggedOffset = 0): string {
	const logged = LOGGED_MS + loggedOffset * 1000;
	const ts = String(Math.floor(logged / 1000) + 2);
	return JSON.stringify({
		time: new Date(logged).toISOString(),
		method: 'GET',
		url: URL,
		status: 200,
		authorization: header(kid, key, ts, nonce)
	});
}

const verdict = (page: Page) =>
	page
		.getByRole('status')
		.filter({ hasText: /^(Match|Mismatch|Waiting|No key for kid|一致|不一致|等待|没有 kid)/ });
const clock = (page: Page) => page.locator('p', { hasText: /^Clock:/ });

test.beforeEach(async ({ page }) => {
	failOnPageErrors(page);
	// The page's clock is the test's: three hours after the log was written.
	await page.clock.setFixedTime(NOW);
});

test('a request opened from /triage is judged against its logged time, and the report says so', async ({
	page
}) => {
	await page.goto('./triage');
	await page
		.getByRole('textbox', { name: 'Requests', exact: true })
		.fill(ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMQ=='));
	await page.getByLabel('Keys', { exact: true }).fill(`${KID_A} ${KEY_A}`);
	await page.getByRole('button', { name: 'Triage', exact: true }).click();
	await page.getByRole('button', { name: 'Open request 1 on the verify page' }).click();
	await expect(page).toHaveURL(/\/verify$/);

	await expect(verdict(page)).toContainText('Match');
	const statement = 'ts is 2 seconds after the logged time 2026-11-24 13:05:00 UTC';
	await expect(clock(page)).toContainText(statement);
	await expect(clock(page)).not.toContainText('expect invalid_time');

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download report (Markdown)' }).click();
	const report = await readFile(await (await download).path(), 'utf8');
	expect(report).toContain(`Clock: ${statement}`);
	expect(report).not.toContain('expect invalid_time');
});

test('log lines pasted on /verify are judged against their own logged times', async ({ page }) => {
	await page.goto('./verify');
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(
			[
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMQ=='),
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMg==', 60)
			].join('\n')
		);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY_A);
	await expect(verdict(page)).toContainText('Match');
	await expect(clock(page)).toContainText(statementAt('2026-11-24 13:05:00 UTC'));
	await page.getByRole('button', { name: 'Open request 2' }).click();
	await expect(clock(page)).toContainText(statementAt('2026-11-24 13:06:00 UTC'));
	await expect(clock(page)).not.toContainText('expect invalid_time');
});

function statementAt(instant: string): string {
	return `ts is 2 seconds after the logged time ${instant}`;
}

test('two kids with the key of one: the other kid says "no key for this kid", never a mismatch', async ({
	page
}) => {
	await page.goto('./verify');
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(
			[
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMQ=='),
				ndjson(KID_B, KEY_B, 'bm9uY2UtYnJhdm8tMQ==', 1),
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMg==', 2),
				ndjson(KID_B, KEY_B, 'bm9uY2UtYnJhdm8tMg==', 3)
			].join('\n')
		);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY_A);

	const table = page.getByRole('table', { name: 'Requests in the paste' });
	await expect(table.getByRole('columnheader', { name: 'kid', exact: true })).toBeVisible();
	const row = (line: number) =>
		table
			.getByRole('row')
			.filter({ has: page.getByRole('button', { name: `Open request ${line}` }) });
	for (const line of [1, 3]) {
		await expect(row(line)).toContainText(KID_A);
		await expect(row(line)).toContainText('Match');
	}
	for (const line of [2, 4]) {
		await expect(row(line)).toContainText(KID_B);
		await expect(row(line)).toContainText('No key for this kid');
		await expect(row(line)).not.toContainText(/Mismatch|unexplained/i);
	}
	// The key field says which kid its key is for.
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveAccessibleDescription(
		new RegExp(`for kid ${KID_A}`)
	);

	// Opened, a row of the other kid is not called a mismatch either.
	await page.getByRole('button', { name: 'Open request 2' }).click();
	await expect(verdict(page)).toContainText(`No key for kid ${KID_B}`);
	await expect(verdict(page)).not.toContainText('Mismatch');
	await expect(page.getByRole('list', { name: 'Diagnosis' })).toHaveCount(0);
});

test('on a phone the list of requests scrolls in its own box: the page never scrolls sideways, and each verdict is in view', async ({
	page
}) => {
	await page.setViewportSize({ width: 375, height: 800 });
	await page.goto('./verify');
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(
			[
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMQ=='),
				ndjson(KID_B, KEY_B, 'bm9uY2UtYnJhdm8tMQ==', 1)
			].join('\n')
		);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY_A);
	const table = page.getByRole('table', { name: 'Requests in the paste' });
	await expect(table.getByRole('cell', { name: 'No key for this kid' })).toBeVisible();
	const widths = await page.evaluate(() => ({
		scroll: document.documentElement.scrollWidth,
		client: document.documentElement.clientWidth
	}));
	expect(widths.scroll).toBeLessThanOrEqual(widths.client);
	// The verdict column comes before the wide ones: in view without scrolling the box.
	await table.getByRole('columnheader').first().scrollIntoViewIfNeeded();
	await expect(table.getByRole('cell', { name: 'Match', exact: true })).toBeInViewport();
	await expect(table.getByRole('cell', { name: 'No key for this kid' })).toBeInViewport();
});

test('the same on the Chinese page: the kid column and "no key for this kid"', async ({ page }) => {
	await page.goto('./zh-CN/verify');
	await page
		.getByRole('textbox', { name: '已签名的请求' })
		.fill(
			[
				ndjson(KID_A, KEY_A, 'bm9uY2UtYWxwaGEtMQ=='),
				ndjson(KID_B, KEY_B, 'bm9uY2UtYnJhdm8tMQ==', 1)
			].join('\n')
		);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY_A);
	const table = page.getByRole('table', { name: '粘贴内容中的请求' });
	await expect(table.getByRole('columnheader', { name: 'kid', exact: true })).toBeVisible();
	await expect(table).toContainText('没有此 kid 的密钥');
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveAccessibleDescription(
		new RegExp(`kid ${KID_A}`)
	);
});

test('"compare the logged base string next" gives way to the comparison once it is made', async ({
	page
}) => {
	await page.goto('./verify');
	const ts = String(Math.floor(NOW.getTime() / 1000));
	// Signed with another key: nothing in the catalogue explains it.
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(
			`curl '${URL}' -H 'Authorization: ${header(KID_A, 'another-key-entirely', ts, 'bm9uY2Utbm9uY2UtMTY=')}'`
		);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY_A);
	await expect(verdict(page)).toContainText('Mismatch');
	await expect(verdict(page)).toContainText(
		'Compare their logged base string with the expected one next.'
	);
	const diagnosis = page.getByRole('list', { name: 'Diagnosis' });
	await expect(diagnosis).toContainText('Next:');

	// Their code logged the expected base string: the next step is taken, its result takes its place.
	const expected = `${ts}\nbm9uY2Utbm9uY2UtMTY=\nGET\n${PATH}\n${HOST}\n443\n\n`;
	await page.getByRole('textbox', { name: "Base string from the customer's logs" }).fill(expected);
	await expect(verdict(page)).not.toContainText('next');
	await expect(verdict(page)).toContainText(
		'Their logged base string is the expected one, byte for byte'
	);
	await expect(diagnosis).not.toContainText('Next:');
	await expect(diagnosis).toContainText('byte for byte');

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download report (Markdown)' }).click();
	const report = await readFile(await (await download).path(), 'utf8');
	expect(report).not.toContain('with the expected one next');
	expect(report).toContain('byte for byte');
});
