// The diagnosis and the paste readers' messages on the Chinese verify page: a known mistake and a
// paste that cannot be read are said in Chinese there, and in the same English as before on /verify.
import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectNoEnglishProse } from './english-prose';

const KEY = 'support-desk-key-7Hq';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-app';
const ts = String(Math.floor(Date.now() / 1000));
const nonce = 'bm9uY2Utbm9uY2UtMTY=';
// Signed with port 80 though the request is https: the catalogue's port-wrong mistake.
const base = `${ts}\n${nonce}\nGET\n/account/profile/v1?client_id=cust-app\nopen.tapapis.cn\n80\n\n`;
const mac = createHmac('sha1', KEY).update(base).digest('base64');
const curl = `curl '${URL}' -H 'Authorization: MAC id="kid-of-a-customer-1234",ts="${ts}",nonce="${nonce}",mac="${mac}"'`;

// The desk's own labels are translated separately; the paste box is the page's first textbox and
// the key's box keeps its identifier's name in both languages.
const pasteBox = (page: Page) => page.getByRole('textbox').first();

async function open(page: Page, path: string) {
	page.on('pageerror', (error) => {
		throw error;
	});
	await page.goto(path);
	await expect(pasteBox(page)).toBeEditable();
}

test('zh-CN: the verdict, the mistake, its fix and the clock are said in Chinese', async ({
	page
}) => {
	await open(page, './zh-CN/verify');
	await pasteBox(page).fill(curl);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const verdict = page.getByRole('status').filter({ hasText: '签名不一致' });
	await expect(verdict).toContainText(
		'一个常见错误能复现客户的签名：签算了端口 80，而不是 443（这是 http 的端口，但请求是 https）。'
	);
	await expect(verdict).not.toContainText(/Signed|does not match/);
	const mistake = page.locator('li[data-mistake="port-wrong"]');
	await expect(mistake).toContainText(
		'签算请求实际发往的端口：URL 中写明的端口，否则 https 为 443'
	);
	await expect(mistake.locator('strong code').first()).toHaveText('80');
	await expect(mistake).not.toContainText(/Signed port|Sign the port/);
	await expect(page.getByText(/比现在早 \d+ 秒，但这里没有请求的发送时间/)).toBeVisible();
	await expect(
		page.getByRole('listitem').filter({ hasText: /^URL 取自 curl 命令。$/ })
	).toBeVisible();
	await expectNoEnglishProse(page);
});

test('zh-CN: a paste that cannot be read is refused in Chinese at the paste box', async ({
	page
}) => {
	await open(page, './zh-CN/verify');
	await pasteBox(page).fill('Bearer eyJhbGciOi.payload.sig');
	await expect(pasteBox(page)).toHaveAttribute('aria-invalid', 'true');
	await expect(pasteBox(page)).toHaveAccessibleDescription(
		/无法识别粘贴的内容：请粘贴 Authorization 请求头（MAC id="…",…）.*这是 Bearer 请求头；本服务用 MAC 签名。/
	);
	await expect(pasteBox(page)).not.toHaveAccessibleDescription(/Could not tell|Bearer header;/);
	await expectNoEnglishProse(page);
});

test('en: the same mistake and the same unreadable paste in English, as before', async ({
	page
}) => {
	await open(page, './verify');
	await expect(pasteBox(page)).toHaveAccessibleName('Signed request');
	await pasteBox(page).fill(curl);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const verdict = page.getByRole('status').filter({ hasText: 'Mismatch' });
	await expect(verdict).toContainText(
		'The mac does not match. It is reproduced by a known mistake: Signed port 80 instead of 443 (the http port, but the request is https).'
	);
	const mistake = page.locator('li[data-mistake="port-wrong"]');
	await expect(mistake).toContainText(
		'Fix: Sign the port the request goes to: the one in the URL, else 443 for https (80 for http).'
	);
	// A pasted curl has no send time: the window is not judged against the moment it is read.
	await expect(
		page.getByText(/ts is \d+ seconds? old now, but nothing here says when the request was sent/)
	).toBeVisible();

	await pasteBox(page).fill('Bearer eyJhbGciOi.payload.sig');
	await expect(pasteBox(page)).toHaveAccessibleDescription(
		/Could not tell what this is: paste an Authorization header \(MAC id="…",…\).* It is a Bearer header; this service signs with MAC\./
	);
});
