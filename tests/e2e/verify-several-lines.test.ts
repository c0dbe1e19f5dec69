// An NDJSON or log-lines paste with several MAC-signed requests, one refused: /verify lists them as
// it lists a HAR's (by line number, with status and verdict), opens the failing one, and hands them
// all to /triage. In English and on the Chinese page, found by role and name.
import { expect, test, type Page } from '@playwright/test';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';
import { KEY, HOST, BASIC, PROFILE, ts, authorization } from './customer-requests';

// Lines 1, 2 and 4 signed correctly; line 3 signed without its query string, and refused.
const SIGNED = [
	[BASIC, BASIC, 200],
	[PROFILE, PROFILE, 200],
	[PROFILE, '/account/profile/v1', 401],
	[BASIC, BASIC, 200]
] as const;

const PASTES = {
	NDJSON: SIGNED.map(([path, signed, status], index) =>
		JSON.stringify({
			method: 'GET',
			url: `https://${HOST}${path}`,
			authorization: authorization(signed, `bm9uY2Ut${index}`),
			status,
			time: Number(ts)
		})
	).join('\n'),
	'log lines': SIGNED.map(
		([path, signed, status], index) =>
			`${new Date(Number(ts) * 1000).toISOString()} INFO GET https://${HOST}${path} status=${status} ` +
			`Authorization: ${authorization(signed, `bm9uY2Ut${index}`)}`
	).join('\n')
};

const LANGUAGES = {
	English: {
		path: './verify',
		signedRequest: 'Signed request',
		table: 'Requests in the paste',
		line: 'Line',
		open: (number: number) => `Open request ${number}`,
		triage: 'Triage them all',
		summary: 'Summary',
		summaryMismatch: 'mismatch',
		match: 'Match',
		mismatch: 'Mismatch',
		queryDropped: 'Signed the path without its query string (/account/profile/v1)',
		readAs: {
			NDJSON: 'Read as NDJSON, one request a line:',
			'log lines': 'Read as log lines, one request a line:'
		}
	},
	Chinese: {
		path: './zh-CN/verify',
		signedRequest: '已签名的请求',
		table: '粘贴内容中的请求',
		line: '行',
		open: (number: number) => `打开请求 ${number}`,
		triage: '批量排查全部请求',
		summary: '汇总',
		summaryMismatch: '不一致',
		match: '一致',
		mismatch: '不一致',
		queryDropped: '签算的路径缺少 query string（/account/profile/v1）',
		readAs: { NDJSON: '识别为 NDJSON，每行一个请求：', 'log lines': '识别为日志，每行一个请求：' }
	}
};

const verdict = (page: Page, match: string, mismatch: string) =>
	page
		.getByRole('status')
		.filter({ has: page.getByText(new RegExp(`^(?:${match}|${mismatch})$`)) });

for (const [language, names] of Object.entries(LANGUAGES)) {
	for (const [format, paste] of Object.entries(PASTES) as [keyof typeof PASTES, string][]) {
		test(`${language}: ${format} with four signed requests listed by line, the refused one opened, all triaged`, async ({
			page
		}) => {
			failOnPageErrors(page);
			await page.goto(names.path);
			await page.getByRole('textbox', { name: names.signedRequest }).fill(paste);
			await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);

			const table = page.getByRole('table', { name: names.table });
			await expect(table.getByRole('columnheader').first()).toHaveText(names.line);
			const rows = table.getByRole('row');
			await expect(rows).toHaveCount(5);
			for (const [index, [path, , status]] of SIGNED.entries()) {
				const cells = rows.nth(index + 1).getByRole('cell');
				await expect(cells.nth(0)).toHaveText(String(index + 1));
				await expect(cells.nth(4)).toHaveText(`https://${HOST}${path}`);
				await expect(cells.nth(5)).toHaveText(String(status));
				await expect(cells.nth(1)).toHaveText(status === 401 ? names.mismatch : names.match);
			}
			await expect(page.getByRole('button', { name: names.open(3) })).toHaveAttribute(
				'aria-pressed',
				'true'
			);
			await expect(page.getByText(names.readAs[format])).toBeVisible();
			await expect(verdict(page, names.match, names.mismatch).locator('strong')).toHaveText(
				names.mismatch
			);
			await expect(page.getByText(names.queryDropped).first()).toBeVisible();
			if (language === 'Chinese') await expectNoEnglishProse(page);

			await page.getByRole('button', { name: names.triage }).click();
			await expect(page).toHaveURL(/\/triage$/);
			expect(page.url()).not.toContain(KEY);
			const summary = page.getByRole('table', { name: names.summary, exact: true });
			await expect(
				summary.getByRole('row', { name: new RegExp(`^${names.summaryMismatch} 1$`) })
			).toBeVisible();
			if (language === 'Chinese') await expectNoEnglishProse(page);
		});
	}
}

for (const [language, names] of Object.entries(LANGUAGES)) {
	test(`${language}: one NDJSON line, the refused request, is read and diagnosed as a paste of its own`, async ({
		page
	}) => {
		failOnPageErrors(page);
		await page.goto(names.path);
		const refused = PASTES.NDJSON.split('\n')[2] ?? '';
		await page.getByRole('textbox', { name: names.signedRequest }).fill(refused);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(page.getByRole('table', { name: names.table })).toHaveCount(0);
		await expect(verdict(page, names.match, names.mismatch).locator('strong')).toHaveText(
			names.mismatch
		);
		await expect(page.getByText(names.queryDropped).first()).toBeVisible();
		if (language === 'Chinese') await expectNoEnglishProse(page);
	});
}
