// The signing playground in Chinese (/zh-CN/): found by its Chinese names (or identifiers), it
// signs exactly as the English page does, and says what is wrong with an input in Chinese at the
// field it came from.
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';
import { expectNoEnglishProse } from './english-prose';

const DRAFT = {
	kid: 'h480djs93hd8',
	macKey: '489dks293j39',
	url: 'http://example.com/resource/1?b=1&a=2',
	ts: '1336363200',
	nonce: 'dj83hs9s'
};
const DRAFT_HEADER =
	'MAC id="h480djs93hd8",ts="1336363200",nonce="dj83hs9s",mac="6T3zZzy2Emppni6bzL7kdRxUWL4="';

const NAMES = {
	en: {
		header: 'Authorization header',
		curl: 'curl command',
		url: 'Request URL',
		hex: 'Signature (hex)',
		base64: 'Signature (base64)'
	},
	'zh-CN': {
		header: 'Authorization 请求头',
		curl: 'curl 命令',
		url: '请求 URL',
		hex: '签名（hex）',
		base64: '签名（base64）'
	}
} as const;

type Locale = keyof typeof NAMES;

async function open(page: Page, locale: Locale) {
	failOnPageErrors(page);
	await page.goto(locale === 'en' ? './' : './zh-CN/');
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(page.getByRole('status', { name: NAMES[locale].header, exact: true })).toBeVisible();
}

/** Fills the draft's vector by the fields' names and reads what the page computes from it. */
async function signDraft(page: Page, locale: Locale) {
	const names = NAMES[locale];
	await page.getByLabel('kid', { exact: true }).fill(DRAFT.kid);
	await page.getByLabel('mac_key', { exact: true }).fill(DRAFT.macKey);
	await page.getByRole('textbox', { name: names.url, exact: true }).fill(DRAFT.url);
	await page.getByLabel('ts', { exact: true }).fill(DRAFT.ts);
	await page.getByLabel('nonce', { exact: true }).fill(DRAFT.nonce);
	const output = (name: string) => page.getByRole('status', { name, exact: true });
	await expect(output(names.header)).toHaveText(DRAFT_HEADER);
	return {
		header: await output(names.header).textContent(),
		curl: await output(names.curl).textContent(),
		hex: await output(names.hex).textContent(),
		base64: await output(names.base64).textContent()
	};
}

test('signs a known vector on the Chinese page exactly as on the English page', async ({
	browser
}) => {
	const english = await browser.newPage();
	const chinese = await browser.newPage();
	await open(english, 'en');
	await open(chinese, 'zh-CN');
	const fromEnglish = await signDraft(english, 'en');
	const fromChinese = await signDraft(chinese, 'zh-CN');
	expect(fromChinese).toEqual(fromEnglish);
	expect(fromChinese.base64).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');
	await english.close();
	await chinese.close();
});

test('speaks Chinese: title, headings, groups, fields and buttons', async ({ page }) => {
	await open(page, 'zh-CN');
	await expect(page).toHaveTitle('Mac Token 调试工具 · 逐步签算请求');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('用 Mac Token 签算请求');
	for (const name of ['逐行构造待签名字符串', '签名', 'Authorization 请求头', 'curl 命令'])
		await expect(page.getByRole('heading', { name, exact: false }).first()).toBeVisible();
	for (const name of ['凭据', '请求', '部署', '接口', '同一请求，用于'])
		await expect(page.getByRole('group', { name, exact: false }).first()).toBeVisible();
	await expect(page.getByRole('radio', { name: '国内', exact: true })).toBeChecked();
	await expect(page.getByRole('radio', { name: '海外', exact: true })).toBeVisible();
	await expect(page.getByRole('textbox', { name: '国内域名', exact: true })).toHaveValue(
		/^https:\/\//
	);
	await expect(page.getByRole('textbox', { name: '海外域名', exact: true })).toBeVisible();
	await expect(page.getByRole('checkbox', { name: 'basic_info' })).toBeVisible();
	await expect(page.getByRole('button', { name: '显示 mac_key' })).toBeVisible();
	await expect(page.getByRole('button', { name: '复制 Authorization 请求头' })).toBeVisible();
	await expect(page.getByRole('button', { name: '新 nonce' })).toBeVisible();
	await expect(page.getByRole('group', { name: '加载示例：' })).toBeVisible();
	await expect(page.getByText('实时', { exact: true })).toBeVisible();
	// The base string's lines are named in the vendor's words.
	const lines = page.getByRole('list', { name: '待签名字符串的各行' });
	await expect(lines).toContainText('请求地址（带 query string）');
	await expect(lines).toContainText('扩展数据（ext）');
	// No English sentence of the playground is left.
	const text = (await page.locator('main').textContent()) ?? '';
	expect(text).not.toMatch(/Base string|Signature|Credential|step by step|as you type/);
	await expectNoEnglishProse(page);
});

test('a preset, a fixed ts and the byte count, in Chinese', async ({ page }) => {
	await open(page, 'zh-CN');
	await page
		.getByRole('button', {
			name: 'IETF 的 MAC 认证草案（draft-ietf-oauth-v2-http-mac §1.1）中的示例（其请求域名、端口和密钥不是本服务的）'
		})
		.click();
	await expect(page.getByRole('status', { name: 'Authorization 请求头', exact: true })).toHaveText(
		DRAFT_HEADER
	);
	await expect(page.getByText('60 字节（UTF-8）')).toBeVisible();
	await expect(page.getByLabel('ts', { exact: true })).toHaveAccessibleDescription(
		/2012-05-07T04:00:00Z · 2012\/5\/\d.*（你的时钟）.*已按输入固定。/
	);
	await page.getByRole('button', { name: '复制 curl 命令' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: /^(已复制|浏览器阻止了复制)/ })
	).toHaveCount(1);
	await expectNoEnglishProse(page);
});

test('says what is wrong with an input in Chinese, at its field', async ({ page }) => {
	await open(page, 'zh-CN');
	const ts = page.getByLabel('ts', { exact: true });
	await ts.fill('soon');
	await expect(ts).toHaveAccessibleDescription(
		/不是十进制整秒数（规范 §5.2 规定的时间戳（ts）格式）；沙盒返回 invalid_time。/
	);

	const kid = page.getByLabel('kid', { exact: true });
	await kid.fill('');
	await expect(kid).toHaveAttribute('aria-invalid', 'true');
	await expect(kid).toHaveAccessibleDescription(/kid 为空：请从 SDK 登录结果中复制。/);
	await expect(page.getByText('还没有请求头：请先修正 kid。')).toBeVisible();

	// A message of the core, in Chinese: a quote cannot go into a quoted header value.
	await kid.fill('a"b');
	await expect(kid).toHaveAccessibleDescription('kid 含有 "，带引号的请求头值不能包含它。');

	const url = page.getByRole('textbox', { name: '请求 URL', exact: true });
	await url.fill('open.tapapis.cn/account');
	await expect(url).toHaveAccessibleDescription(/“open\.tapapis\.cn\/account”缺少协议/);
	// Nothing typed is lost.
	await expect(kid).toHaveValue('a"b');

	await page.getByText('粘贴 SDK 登录结果', { exact: true }).first().click();
	const paste = page.getByRole('textbox', { name: '粘贴 SDK 登录结果' });
	await paste.fill('{"kid": "half');
	await expect(paste).toHaveAttribute('aria-invalid', 'true');
	await expect(paste).toHaveAccessibleDescription(/^这不是 JSON：/);
	await expect(paste).toHaveValue('{"kid": "half');
	await expectNoEnglishProse(page);
});
