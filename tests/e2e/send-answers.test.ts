// Answers true for the case at hand on the signing page (issue 24 §1): a wrong mac_key is not a
// revoked token; a preset keeps the credential typed before it, to put back; the demo's client_id
// beside a pasted credential is said at the field and in the sandbox's answer.
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const response = (page: Page) => page.getByRole('region', { name: 'Response' });
const explainer = (page: Page, code: string) =>
	page.getByRole('region', { name: code, exact: true });
const kid = (page: Page) => page.getByLabel('kid', { exact: true });
const macKey = (page: Page) => page.getByLabel('mac_key', { exact: true });
const clientId = (page: Page) => page.getByLabel('client_id', { exact: true });

const REAL_LOGIN = {
	kid: 'real-kid-7f3a',
	access_token: 'real-kid-7f3a',
	token_type: 'mac',
	mac_key: 'real-mac-key-Hs72kq',
	mac_algorithm: 'hmac-sha-1',
	scopeSet: ['basic_info']
};

async function open(page: Page, path = './') {
	await page.goto(path);
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(page.getByRole('status', { name: /^Authorization/ }).first()).toBeVisible();
}

test.beforeEach(({ page }) => failOnPageErrors(page));

test('a wrong mac_key gets access_denied, explained as a signature that does not match, not as a revoked token', async ({
	page
}) => {
	await open(page);
	await macKey(page).fill('not-the-key');
	await send(page).click();
	const answer = explainer(page, 'access_denied');
	await expect(answer).toContainText('The mac does not match');
	await expect(answer).toContainText('The signature does not match');
	await expect(answer).toContainText('mac_key');
	await expect(answer).not.toContainText('Sign the user out');
	await expect(answer.getByRole('button', { name: 'Sign out locally' })).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Sign out locally' })).toHaveCount(0);
	// The diagnosis is one link away, with the request and its key.
	await answer.getByRole('link', { name: 'Find the mistake on the verify page' }).click();
	await expect(page).toHaveURL(/\/verify$/);
	// Signed consistently with the key given: the verdict there tells the key from the base string.
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(/client_id=/);
	await expect(page.getByRole('status').filter({ hasText: /^(Match|Mismatch)/ })).toBeVisible();
});

test('a revoked token keeps the sign-out advice and its button', async ({ page }) => {
	await open(page);
	await page.getByText('Sandbox settings and token lifecycle').click();
	await page.getByRole('button', { name: 'User revoked authorization' }).click();
	await send(page).click();
	const answer = explainer(page, 'access_denied');
	await expect(answer).toContainText(
		'Sign the user out locally and direct the user to log in again.'
	);
	await expect(answer).not.toContainText('The signature does not match');
	await expect(page.getByRole('button', { name: 'Sign out locally' })).toBeVisible();
});

test('the Chinese page: a wrong mac_key is not told to sign out', async ({ page }) => {
	await open(page, './zh-CN/');
	await macKey(page).fill('not-the-key');
	await page.getByRole('button', { name: '发送', exact: true }).click();
	const answer = explainer(page, 'access_denied');
	await expect(answer).toContainText('签名不一致');
	await expect(page.getByRole('button', { name: '退出本地登录' })).toHaveCount(0);
	await expect(answer.getByRole('link', { name: '在校验页查找错误' })).toBeVisible();
});

test('a preset keeps the credential typed before it, and "Put back my credential" restores it', async ({
	page
}) => {
	await open(page);
	await kid(page).fill('my-own-kid-55');
	await macKey(page).fill('my-own-mac-key-Lq3');
	await clientId(page).fill('my-own-client-9');
	await page.getByRole('button', { name: 'Demo account with basic_info only' }).click();
	await expect(kid(page)).toHaveValue('demo-kid-basic-8a2e');
	await expect(page.getByRole('status').filter({ hasText: 'my-own-kid-55' })).toBeVisible();

	// Another preset on top keeps the same one aside.
	await page.getByRole('button', { name: 'Demo account with public_profile' }).click();
	await page.getByRole('button', { name: 'Put back my credential' }).click();
	await expect(kid(page)).toHaveValue('my-own-kid-55');
	await expect(macKey(page)).toHaveValue('my-own-mac-key-Lq3');
	await expect(clientId(page)).toHaveValue('my-own-client-9');
	await expect(page.getByRole('button', { name: 'Put back my credential' })).toHaveCount(0);

	// The mac_key stayed in memory: not in the URL, nor in storage.
	expect(page.url()).not.toContain('my-own-mac-key-Lq3');
	const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
	expect(stored).not.toContain('my-own-mac-key-Lq3');
});

test('the Chinese page: a preset keeps the credential, put back by its button', async ({
	page
}) => {
	await open(page, './zh-CN/');
	await kid(page).fill('my-own-kid-55');
	await macKey(page).fill('my-own-mac-key-Lq3');
	await page.getByRole('button', { name: '有 public_profile 的演示账号' }).click();
	await page.getByRole('button', { name: '换回我的凭证' }).click();
	await expect(kid(page)).toHaveValue('my-own-kid-55');
	await expect(macKey(page)).toHaveValue('my-own-mac-key-Lq3');
});

test("a pasted SDK login result beside the demo's client_id: said at the field and in the sandbox's answer", async ({
	page
}) => {
	await open(page);
	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	await page
		.getByRole('textbox', { name: 'Paste SDK login result' })
		.fill(JSON.stringify(REAL_LOGIN));
	await expect(kid(page)).toHaveValue('real-kid-7f3a');
	await expect(clientId(page)).toHaveAttribute('aria-invalid', 'true');
	await expect(clientId(page)).toHaveAccessibleDescription(/your application's own client_id/);

	await send(page).click();
	await expect(response(page)).toContainText(
		"client_id is still the demo's (demo-client-0001): your application's own client_id is needed"
	);

	// Its own client_id clears the note.
	await clientId(page).fill('real-client-123');
	await expect(clientId(page)).toHaveAttribute('aria-invalid', 'false');
	await expect(clientId(page)).not.toHaveAccessibleDescription(/own client_id/);
});

test("the Chinese page: the demo's client_id beside a pasted credential", async ({ page }) => {
	await open(page, './zh-CN/');
	await page.getByText('粘贴 SDK 登录结果', { exact: true }).first().click();
	await page.getByRole('textbox', { name: '粘贴 SDK 登录结果' }).fill(JSON.stringify(REAL_LOGIN));
	await expect(clientId(page)).toHaveAttribute('aria-invalid', 'true');
	await expect(clientId(page)).toHaveAccessibleDescription(/应用自己的 client_id/);
});
