// A HAR with several MAC-signed requests, one of them refused: /verify lists them all with their
// status and verdict, opens the failing one, opens any other on demand, and hands them all to
// /triage. In English and on the Chinese page, found by role and name.
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';
import { KEY, HOST, BASIC, PROFILE, ts, authorization } from './customer-requests';

function entry(path: string, signedPath: string, status: number, nonce: string) {
	return {
		startedDateTime: new Date(Number(ts) * 1000).toISOString(),
		request: {
			method: 'GET',
			url: `https://${HOST}${path}`,
			httpVersion: 'http/2.0',
			headers: [
				{ name: ':path', value: path },
				{ name: 'authorization', value: authorization(signedPath, nonce) }
			]
		},
		response: { status, content: { text: '{}' } }
	};
}

// Entries 1 to 3 signed correctly; entry 4 signed without its query string, and refused.
const HAR = JSON.stringify({
	log: {
		version: '1.2',
		entries: [
			entry(BASIC, BASIC, 200, 'bm9uY2UtMQ=='),
			entry(PROFILE, PROFILE, 200, 'bm9uY2UtMg=='),
			entry(BASIC, BASIC, 200, 'bm9uY2UtMw=='),
			entry(PROFILE, '/account/profile/v1', 401, 'bm9uY2UtNA==')
		]
	}
});

/** No English prose on the Chinese page, in each state the tests reach on /verify. */
const noEnglishProse = (page: Page, language: string) =>
	language === 'Chinese' ? expectNoEnglishProse(page) : Promise.resolve();

interface Names {
	path: string;
	signedRequest: string;
	table: string;
	open: (number: number) => string;
	triage: string;
	requests: string;
	summary: string;
	match: string;
	mismatch: string;
	diagnosis: string;
	queryDropped: string;
	triageUrl: RegExp;
}

const LANGUAGES: Record<string, Names> = {
	English: {
		path: './verify',
		signedRequest: 'Signed request',
		table: 'Requests in the paste',
		open: (number) => `Open request ${number}`,
		triage: 'Triage them all',
		requests: 'Requests',
		summary: 'Summary',
		match: 'Match',
		mismatch: 'Mismatch',
		diagnosis: 'Diagnosis',
		queryDropped: 'Signed the path without its query string (/account/profile/v1)',
		triageUrl: /\/mac-token-playground\/triage$/
	},
	Chinese: {
		path: './zh-CN/verify',
		signedRequest: '已签名的请求',
		table: '粘贴内容中的请求',
		open: (number) => `打开请求 ${number}`,
		triage: '批量排查全部请求',
		requests: '请求',
		summary: '汇总',
		match: '一致',
		mismatch: '不一致',
		diagnosis: '诊断',
		queryDropped: '签算的路径缺少 query string（/account/profile/v1）',
		triageUrl: /\/mac-token-playground\/zh-CN\/triage$/
	}
};

const verdict = (page: Page, names: Names) =>
	page
		.getByRole('status')
		.filter({ has: page.getByText(new RegExp(`^(?:${names.match}|${names.mismatch})$`)) });

for (const [language, names] of Object.entries(LANGUAGES)) {
	test.describe(language, () => {
		test.beforeEach(async ({ page }) => {
			failOnPageErrors(page);
			await page.goto(names.path);
			await expect(page.getByRole('textbox', { name: 'mac_key' })).toBeEditable();
		});

		test('lists the four requests with their statuses and verdicts, and opens the failing one', async ({
			page
		}) => {
			await page.getByRole('textbox', { name: names.signedRequest }).fill(HAR);
			await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);

			const table = page.getByRole('table', { name: names.table });
			const rows = table.getByRole('row');
			// A header row and one row per request.
			await expect(rows).toHaveCount(5);
			for (const [index, status, result] of [
				[1, '200', names.match],
				[2, '200', names.match],
				[3, '200', names.match],
				[4, '401', names.mismatch]
			] as const) {
				const cells = rows.nth(index).getByRole('cell');
				await expect(cells.nth(0)).toHaveText(String(index));
				await expect(cells.nth(3)).toHaveText('GET');
				await expect(cells.nth(4)).toHaveText(`https://${HOST}${index % 2 ? BASIC : PROFILE}`);
				await expect(cells.nth(5)).toHaveText(status);
				await expect(cells.nth(1)).toHaveText(result);
			}

			// Entry 4 is the one opened: its verdict and the mistake that explains it.
			await expect(page.getByRole('button', { name: names.open(4) })).toHaveAttribute(
				'aria-pressed',
				'true'
			);
			await expect(verdict(page, names).locator('strong')).toHaveText(names.mismatch);
			const first = page.getByRole('list', { name: names.diagnosis }).getByRole('listitem').first();
			await expect(first).toContainText(names.queryDropped);
			await noEnglishProse(page, language);
			expect(await violations(page)).toEqual([]);

			// Entry 2 opened: it matches, and no diagnosis is left of entry 4.
			await page.getByRole('button', { name: names.open(2) }).click();
			await expect(page.getByRole('button', { name: names.open(2) })).toHaveAttribute(
				'aria-pressed',
				'true'
			);
			await expect(page.getByRole('button', { name: names.open(4) })).toHaveAttribute(
				'aria-pressed',
				'false'
			);
			await expect(verdict(page, names).locator('strong')).toHaveText(names.match);
			await expect(page.getByText(names.queryDropped)).toHaveCount(0);
			await noEnglishProse(page, language);
		});

		test('"Triage them all" goes to the triage page, the mac_key kept out of the URL', async ({
			page
		}) => {
			await page.getByRole('textbox', { name: names.signedRequest }).fill(HAR);
			await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
			await expect(page.getByRole('table', { name: names.table })).toBeVisible();
			await noEnglishProse(page, language);
			await page.getByRole('button', { name: names.triage }).click();
			await expect(page).toHaveURL(names.triageUrl);
			expect(page.url()).not.toContain(KEY);
			// The triage page took the paste and the key from the tab's memory, and ran.
			await expect(page.getByRole('textbox', { name: names.requests, exact: true })).toHaveValue(
				HAR
			);
			await expect(page.getByRole('table', { name: names.summary, exact: true })).toBeVisible();
		});
	});
}
