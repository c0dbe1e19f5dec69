import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { expectNoEnglishProse } from './english-prose';

// The verify page in Chinese: the same flow as in English (tests/e2e/verify.test.ts), found by its
// Chinese names, with the same results; the case file is written in Chinese and masks the kid.
const KEY = 'support-desk-key-7Hq';
const KID = 'kid-of-a-customer-1234';
const MASKED_KID = 'kid-...34';
// The kid also in the query (access_token equals it): the case file masks every occurrence.
const QUERY = `/account/profile/v1?client_id=cust-app&access_token=${KID}`;
const URL = `https://open.tapapis.cn${QUERY}`;

const ts = String(Math.floor(Date.now() / 1000));
const nonce = 'bm9uY2Utbm9uY2UtMTY=';
const correctBase = `${ts}\n${nonce}\nGET\n${QUERY}\nopen.tapapis.cn\n443\n\n`;
const portBase = correctBase.replace('open.tapapis.cn\n', 'open.tapapis.cn:443\n');

function curl(base: string): string {
	const mac = createHmac('sha1', KEY).update(base).digest('base64');
	const header = `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
	return `curl -sS '${URL}' \\\n  -H 'Accept: application/json' \\\n  -H 'Authorization: ${header}'`;
}

const verdict = (page: Page) => page.getByRole('status').filter({ hasText: /一致|等待输入/ });
const signedRequest = (page: Page) => page.getByRole('textbox', { name: '已签名的请求' });
const macKey = (page: Page) => page.getByRole('textbox', { name: 'mac_key' });

// Whatever state each test leaves (a verdict, a diagnosis, a comparison), no English prose.
test.afterEach(({ page }) => expectNoEnglishProse(page));

test.beforeEach(async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('./zh-CN/verify');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('校验客户的签名');
	await expect(verdict(page)).toHaveText('等待输入：已签名的请求、mac_key、请求 URL。');
});

test('a curl command signed correctly: 一致, the URL taken from it', async ({ page }) => {
	await signedRequest(page).fill(curl(correctBase));
	await expect(page.getByText('识别为 curl 命令：')).toBeVisible();
	await expect(page.getByRole('list', { name: '从粘贴内容中读出' })).toBeVisible();
	// What the request alone shows comes first, then the wait for the key.
	await expect(verdict(page)).toHaveText(/^不用密钥就能看出的问题 .*等待输入：mac_key。$/);
	await macKey(page).fill(KEY);
	await expect(page.getByRole('textbox', { name: '请求 URL' })).toHaveValue(URL);
	await expect(verdict(page).locator('strong')).toHaveText('一致');
	const customerMac = await page
		.getByRole('status', { name: '客户的 mac', exact: true })
		.textContent();
	await expect(page.getByRole('status', { name: '预期的 mac', exact: true })).toHaveText(
		customerMac ?? ''
	);
	await expect(page.getByText('时钟：')).toBeVisible();
});

test('the host signed with its port: 不一致, the diagnosis, the comparison and a Chinese case file with the kid masked', async ({
	page
}) => {
	await signedRequest(page).fill(curl(portBase));
	await macKey(page).fill(KEY);
	await expect(verdict(page).locator('strong')).toHaveText('不一致');
	const first = page.getByRole('list', { name: '诊断' }).getByRole('listitem').first();
	await expect(first).toHaveAttribute('data-mistake', 'host-with-port');
	await expect(first).toContainText('修正：');

	await page
		.getByRole('textbox', { name: '客户日志中的待签名字符串' })
		.fill(portBase.replaceAll('\n', '\\n'));
	await page.getByLabel('将 \\n、\\r 和 \\t 读作换行符和制表符').check();
	await expect(page.getByText('第一处差异在第 5 行。')).toBeVisible();
	const table = page.getByRole('table', { name: '逐行对比待签名字符串' });
	await expect(table.getByRole('columnheader')).toHaveText(['行', '预期', '客户的']);
	await expect(table.locator('mark')).toHaveText([':443']);

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: '下载排查报告（Markdown）' }).click();
	const report = await readFile(await (await download).path(), 'utf8');
	expect(report).toMatch(/^# Mac Token 签名排查报告\n/);
	expect(report).toContain('本文件不含 mac_key。');
	expect(report).toContain('## 校验结果');
	expect(report).toContain('- 是否一致：不一致');
	expect(report).toContain(`- Authorization（kid 已遮盖）：\`MAC id="${MASKED_KID}"`);
	expect(report).toContain('(`host-with-port`)');
	expect(report).toContain('## 测试向量');
	for (const english of ['# MAC signature case', '## Verdict', 'Match: no', 'kid masked'])
		expect(report).not.toContain(english);
	expect(report).not.toContain(KID);
	expect(report).not.toContain(KEY);

	await page.getByLabel('显示完整的 kid').check();
	const withKid = page.waitForEvent('download');
	await page.getByRole('button', { name: '下载排查报告（Markdown）' }).click();
	const revealed = await readFile(await (await withKid).path(), 'utf8');
	expect(revealed).toContain(`- Authorization：\`MAC id="${KID}"`);
	expect(revealed).not.toContain(KEY);
});

test('a share link made on the Chinese page opens the case on the Chinese page, without the mac_key', async ({
	page
}) => {
	await signedRequest(page).fill(curl(portBase));
	await macKey(page).fill(KEY);
	await expect(verdict(page).locator('strong')).toHaveText('不一致');
	const link = await page.getByRole('textbox', { name: '分享链接' }).inputValue();
	expect(link).toContain('/zh-CN/verify#');
	expect(link).not.toContain(KEY);
	expect(link).not.toContain(KID);

	await page.getByLabel('显示完整的 kid').check();
	const linkWithKid = await page.getByRole('textbox', { name: '分享链接' }).inputValue();
	expect(linkWithKid).not.toBe(link);

	await page.goto(linkWithKid);
	await page.reload();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('校验客户的签名');
	await expect(signedRequest(page)).toHaveValue(new RegExp(KID));
	await expect(macKey(page)).toHaveValue('');
	// What the request alone shows comes first, then the wait for the key.
	await expect(verdict(page)).toHaveText(/^不用密钥就能看出的问题 .*等待输入：mac_key。$/);
	await macKey(page).fill(KEY);
	await expect(verdict(page).locator('strong')).toHaveText('不一致');
});

test('an example loaded over the agent’s own case, and put back', async ({ page }) => {
	await signedRequest(page).fill(curl(correctBase));
	await macKey(page).fill(KEY);
	const examples = page.getByRole('group', { name: '试试示例：' });
	await examples.getByRole('button', { name: '未签算 query string（curl）' }).click();
	await expect(verdict(page).locator('strong')).toHaveText('不一致');
	await expect(page.getByText('原先的内容已保留。')).toBeVisible();
	await page.getByRole('button', { name: '恢复原先的内容' }).click();
	await expect(signedRequest(page)).toHaveValue(curl(correctBase));
	await expect(verdict(page).locator('strong')).toHaveText('一致');
});

test('the link to the signing page stays in Chinese, and the case is still live on coming back', async ({
	page
}) => {
	await signedRequest(page).fill(curl(correctBase));
	await macKey(page).fill(KEY);
	await expect(verdict(page).locator('strong')).toHaveText('一致');
	await page.getByRole('link', { name: '签算演练场' }).click();
	await expect(page).toHaveURL(/\/zh-CN\/$/);
	await page.goBack();
	await expect(signedRequest(page)).toHaveValue(curl(correctBase));
	await expect(verdict(page).locator('strong')).toHaveText('一致');
	await macKey(page).fill(`${KEY}-not-theirs`);
	await expect(verdict(page).locator('strong')).toHaveText('不一致');
});

test('what a browser would rewrite in the pasted URL is said in Chinese, on the page and in the case file', async ({
	page
}) => {
	// A host in capitals and a quote in the query: curl sends them as written, a browser would not.
	const written = `https://Open.TapAPIs.cn${QUERY}&state=it's`;
	const command = curl(correctBase).replace(`'${URL}'`, `"${written}"`);
	await signedRequest(page).fill(command);
	const note = page
		.getByRole('list', { name: '从粘贴内容中读出' })
		.getByRole('listitem')
		.filter({ hasText: '浏览器会改写' });
	await expect(note).toContainText("（请求域名以小写发出，' 以 %27 发出）");
	await macKey(page).fill(KEY);
	await expect(verdict(page).locator('strong')).toHaveText(/一致|不一致/);

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: '下载排查报告（Markdown）' }).click();
	const report = await readFile(await (await download).path(), 'utf8');
	expect(report).toContain("请求域名以小写发出，' 以 %27 发出");
	expect(report).not.toMatch(/is sent|lower case/);
});

test('why the pasted URL cannot be signed is said in Chinese', async ({ page }) => {
	await signedRequest(page).fill(
		`curl 'ftp://open.tapapis.cn${QUERY}' -H 'Authorization: MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="bWFj"'`
	);
	await expect(
		page.getByRole('list', { name: '从粘贴内容中读出' }).getByRole('listitem')
	).toContainText(['这个 URL 无法签算：只能签算 https:// 和 http:// 的 URL，不能签算 ftp://。']);
});
