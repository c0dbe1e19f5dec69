import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ndjsonLine, signAs, type ShapedClient } from '../unit/client-shaped';
import { violations } from './axe';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';
import { summaryCounts } from './triage-input';

// "Likely client" on /verify and /triage, in English and in Chinese: requests signed as the
// vendor's clients sign them (tests/unit/client-shaped.ts) are named for the client that made them
// where the evidence reaches (a sample's fixed nonce, the Java sample's `:443`), with the confidence
// and the evidence; the others are unknown, with what was seen.
const KID = 'kid-of-a-customer-5678';
const KEY = 'support-desk-key-Lc9';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-app';
// The Java sample takes the request URI as the text after the host: `:443` and all.
const URL_443 = 'https://open.tapapis.cn:443/account/profile/v1?client_id=cust-app';

const signed = (client: ShapedClient, url = URL, key = KEY) =>
	signAs(client, { kid: KID, key, url });

function curl(client: ShapedClient, url = URL): string {
	const { authorization } = signed(client, url);
	return `curl -sS '${url}' -H 'Authorization: ${authorization}'`;
}

test.beforeEach(({ page }) => failOnPageErrors(page));

const NAMES = {
	en: {
		verify: './verify',
		triage: './triage',
		signedRequest: 'Signed request',
		likelyClient: 'Likely client:',
		report: 'Download report (Markdown)',
		requests: 'Requests',
		keys: 'Keys',
		triageButton: 'Triage',
		summary: 'Summary',
		clients: 'Likely clients',
		verdicts: 'Verdicts',
		column: 'Likely client',
		filter: 'Filter by likely client',
		java: 'docs Java sample',
		php: 'docs PHP sample',
		python: 'docs Python 3 sample',
		unity: 'Unity SDK (C#)',
		nodeCurrent: 'docs Node.js sample (current)',
		unknown: 'unknown',
		seen: 'seen:',
		alike: 'other code writes it so too',
		high: 'high confidence',
		medium: 'medium confidence',
		because: 'because:',
		phpEvidence: "the PHP sample's fixed nonce == XinDong_Lee-JiEun =="
	},
	'zh-CN': {
		verify: './zh-CN/verify',
		triage: './zh-CN/triage',
		signedRequest: '已签名的请求',
		likelyClient: '可能的客户端：',
		report: '下载排查报告（Markdown）',
		requests: '请求',
		keys: '密钥',
		triageButton: '排查',
		summary: '汇总',
		clients: '可能的客户端',
		verdicts: '逐条结果',
		column: '可能的客户端',
		filter: '按可能的客户端筛选',
		java: '文档 Java 示例',
		php: '文档 PHP 示例',
		python: '文档 Python3 示例',
		unity: 'Unity 版 SDK（C#）',
		nodeCurrent: '文档 Node.js 示例（当前版）',
		unknown: '未知',
		seen: '所见：',
		alike: '其他代码也这样写',
		high: '可信度高',
		medium: '可信度中等',
		because: '依据：',
		phpEvidence: 'nonce 为 PHP 示例中固定的 == XinDong_Lee-JiEun =='
	}
} as const;

type Language = keyof typeof NAMES;

async function verifyPage(page: Page, language: Language) {
	const names = NAMES[language];
	await page.goto(names.verify);
	const paste = (text: string) =>
		page.getByRole('textbox', { name: names.signedRequest }).fill(text);
	const line = page.getByRole('status', { name: names.likelyClient, exact: true });
	return { names, paste, line };
}

for (const language of ['en', 'zh-CN'] as const) {
	test(`${language}: /verify names the likely client near the verdict, and the report carries it`, async ({
		page
	}) => {
		const { names, paste, line } = await verifyPage(page, language);
		await expect(line).toHaveCount(0);

		// The PHP sample's fixed nonce: named from the header alone, before any key.
		await paste(`Authorization: ${signed('docs-php').authorization}`);
		await expect(line).toContainText(names.php);
		await expect(line).toContainText(names.phpEvidence);
		await expect(line).toContainText(names.high);
		await expect(line).toContainText(names.because);
		await expect(line.locator('code').first()).toHaveText('== XinDong_Lee-JiEun ==');

		// A Java-shaped request with `:443` in its URL: once the key shows the `:443` signed (the
		// Java sample's own way of taking the URI), the Java sample is named, medium confidence.
		await paste(curl('docs-java', URL_443));
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(line).toContainText(names.java);
		await expect(line).toContainText(names.medium);
		await expect(line).not.toContainText(names.php);

		// The Node.js sample's `, ` and a Base64 nonce: other code writes them too, so unknown, with
		// what was seen and whose form it is.
		await paste(curl('docs-node-current'));
		await expect(line).toContainText(names.unknown);
		await expect(line).toContainText(names.seen);
		await expect(line).toContainText(names.nodeCurrent);
		await expect(line).toContainText(names.alike);
		await expect(line).not.toContainText(names.high);

		// The report says it too.
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			page.getByRole('button', { name: names.report }).click()
		]);
		const report = await readFile((await download.path()) ?? '', 'utf8');
		expect(report).toContain(`- ${names.likelyClient}`);
		expect(report).toContain(names.nodeCurrent);

		// A shape no client makes: unknown, and why.
		await paste(`MAC id="${KID}", nonce="5:abc", ts="1780000000", mac="x"`);
		await expect(line).toContainText(names.unknown);

		expect(await violations(page)).toEqual([]);
		if (language === 'zh-CN') await expectNoEnglishProse(page);
	});
}

/** A log of requests as the clients make them, and how many each client made. */
const PLAN: [ShapedClient, number][] = [
	['docs-php', 3],
	['docs-python3', 2],
	['unity-sdk', 2],
	['docs-java', 2],
	['docs-node-current', 1]
];
const LOG = PLAN.flatMap(([client, count]) =>
	Array.from({ length: count }, () => ndjsonLine(signed(client)))
).join('\n');
const REQUESTS = PLAN.reduce((sum, [, count]) => sum + count, 0);

for (const language of ['en', 'zh-CN'] as const) {
	test(`${language}: /triage has a Likely client column, a filter on it and a count per client`, async ({
		page
	}) => {
		const names = NAMES[language];
		await page.goto(names.triage);
		await page.getByRole('textbox', { name: names.requests, exact: true }).fill(LOG);
		await page.getByRole('textbox', { name: names.keys, exact: true }).fill(`${KID} ${KEY}`);
		await page.getByRole('button', { name: names.triageButton, exact: true }).click();
		await summaryCounts(page, names.summary);

		// Only the PHP sample's fixed nonce names a client; the other forms are other code's too.
		expect(await summaryCounts(page, names.clients)).toEqual({
			[names.unknown]: '7',
			[names.php]: '3'
		});

		const verdicts = page.getByRole('table', { name: names.verdicts, exact: true });
		await expect(verdicts).toHaveAttribute('aria-rowcount', String(REQUESTS + 1));
		await expect(verdicts.getByRole('columnheader', { name: names.column })).toBeVisible();
		const firstRow = verdicts.getByRole('row').nth(1);
		const firstClient = firstRow.getByRole('cell').last();
		await expect(firstClient).toContainText(names.php);
		await expect(firstClient).toContainText(names.high);
		await expect(firstClient).toContainText(names.phpEvidence);

		await page.getByLabel(names.filter).selectOption({ label: names.php });
		await expect(verdicts).toHaveAttribute('aria-rowcount', '4');
		await page.getByLabel(names.filter).selectOption({ label: names.unknown });
		await expect(verdicts).toHaveAttribute('aria-rowcount', '8');
		await expect(verdicts.getByRole('row').nth(1).getByRole('cell').last()).toHaveText(
			names.unknown
		);

		expect(await violations(page)).toEqual([]);
		if (language === 'zh-CN') await expectNoEnglishProse(page);
	});
}
