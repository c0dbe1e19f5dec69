import { readFile } from 'node:fs/promises';
import { expect, test, type Page, type Request } from '@playwright/test';
import { RELAY_PORT } from '../../playwright.config';

const KEY = 'SECRET-KEY-4b7e1-zq';

/** Every place a page could leave the key behind, read from inside the page. */
async function storedTexts(page: Page): Promise<string> {
	return page.evaluate(async () => {
		const dump = (storage: Storage) =>
			Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`);
		const databases = (await indexedDB.databases?.()) ?? [];
		const caches_ = await caches.keys();
		const cached: string[] = [];
		for (const name of caches_) {
			for (const request of await (await caches.open(name)).keys()) cached.push(request.url);
		}
		return [
			location.href,
			...dump(localStorage),
			...dump(sessionStorage),
			...databases.map((db) => db.name ?? ''),
			document.cookie,
			...cached
		].join('\n');
	});
}

test('the mac_key stays in memory: not in the URL, storage, cookies, requests, console or messages', async ({
	page,
	context
}) => {
	const requests: Request[] = [];
	const consoleLines: string[] = [];
	page.on('request', (request) => requests.push(request));
	page.on('console', (message) => consoleLines.push(message.text()));
	page.on('pageerror', (error) => consoleLines.push(error.message));

	await page.goto('./');
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
	// The SDK paste, the credential, every send target, the code view, copying.
	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	await page.getByRole('textbox', { name: 'Paste SDK login result' }).fill(
		JSON.stringify({
			kid: 'k-trust',
			mac_key: KEY,
			token_type: 'mac',
			mac_algorithm: 'hmac-sha-1',
			scopeSet: ['basic_info']
		})
	);
	await page.getByLabel('mac_key', { exact: true }).fill(KEY);
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('region', { name: 'access_denied', exact: true })).toBeVisible();
	await page.getByLabel('Proxy', { exact: true }).check();
	await page.getByLabel('Relay address').fill(`http://127.0.0.1:${RELAY_PORT}/`);
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('region', { name: 'access_denied', exact: true })).toBeVisible();
	await page.route('https://open.tapapis.cn/**', (route) => route.abort('accessdenied'));
	await page.getByLabel('Direct', { exact: true }).check();
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByText('The service answers no CORS preflight')).toBeVisible();
	await page.getByText('Code: the same signing on your server').click();
	await page.getByRole('tab', { name: 'Python' }).click();
	await page.getByLabel('Use this ts and nonce').check();
	await context.grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.getByRole('button', { name: 'Copy Authorization header' }).click();
	const pageText = await page.locator('body').innerText();
	expect(pageText).not.toContain(KEY);

	// Handed to the verify page in memory: the key comes along, the URL stays clean.
	await page.getByRole('button', { name: 'Check it on the verify page' }).click();
	await expect(page.getByRole('status').filter({ hasText: /Match/ })).toBeVisible();
	expect(page.url()).not.toContain(KEY);

	// The support desk: paste, key, report, share link.
	await page.getByRole('link', { name: 'Verify a signature' }).click();
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(await page.evaluate(() => navigator.clipboard.readText()));
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await page
		.getByRole('textbox', { name: 'Request URL' })
		.fill('https://open.tapapis.cn/account/basic-info/v1?client_id=demo-client-0001');
	await expect(page.getByRole('status').filter({ hasText: /Match/ })).toBeVisible();
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download report (Markdown)' }).click();
	expect(await readFile(await (await download).path(), 'utf8')).not.toContain(KEY);
	const vector = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download test vector (JSON)' }).click();
	expect(await readFile(await (await vector).path(), 'utf8')).not.toContain(KEY);
	expect(await page.getByRole('textbox', { name: 'Share link' }).inputValue()).not.toContain(KEY);
	await page.getByRole('textbox', { name: 'Request URL' }).fill(`https://open.tapapis.cn/${KEY}`);

	expect(await storedTexts(page)).not.toContain(KEY);
	expect((await context.cookies()).map((cookie) => cookie.value).join()).not.toContain(KEY);
	for (const request of requests) {
		const sent = [
			request.url(),
			JSON.stringify(await request.allHeaders()),
			request.postData() ?? ''
		].join('\n');
		expect(sent, `request to ${request.url()}`).not.toContain(KEY);
	}
	expect(consoleLines.join('\n')).not.toContain(KEY);

	// Clear everything forgets what was typed.
	await page.getByRole('button', { name: 'Clear everything' }).click();
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue('');
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue('');
});

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

test('response bodies, pastes and messages render as text; an avatar shows only from an http(s) URL', async ({
	page
}) => {
	await page.goto('./');
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
	await page.route('http://127.0.0.1:9/**', (route) =>
		route.request().method() === 'OPTIONS'
			? route.fulfill({
					status: 204,
					headers: {
						'access-control-allow-origin': '*',
						'access-control-allow-headers': 'authorization'
					}
				})
			: route.fulfill({
					status: 200,
					headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
					body: JSON.stringify({
						data: {
							name: HOSTILE,
							avatar: 'javascript:window.__pwned=1',
							openid: HOSTILE,
							unionid: 'u'
						},
						now: 1,
						success: true
					})
				})
	);
	await page.getByLabel('Proxy', { exact: true }).check();
	await page.getByLabel('Relay address').fill('http://127.0.0.1:9/');
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	const response = page.getByRole('region', { name: 'Response' });
	await expect(response.getByRole('definition').filter({ hasText: 'User name' })).toContainText(
		HOSTILE
	);
	await expect(response.locator('img')).toHaveCount(0);

	// The sandbox's own avatar is an http(s) URL on this site, so it shows.
	await page.getByLabel('Sandbox', { exact: true }).check();
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(response.locator('img.avatar')).toHaveAttribute('src', /\/avatars\/ada\.svg$/);

	await page.getByLabel('kid', { exact: true }).fill(HOSTILE);
	await expect(page.getByLabel('kid', { exact: true })).toHaveAccessibleDescription(/contains "/);
	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	await page.getByRole('textbox', { name: 'Paste SDK login result' }).fill(HOSTILE);

	await page.goto('./verify');
	await page.getByRole('textbox', { name: 'Signed request' }).fill(`MAC id="${HOSTILE}"`);
	await page.getByRole('textbox', { name: "Base string from the customer's logs" }).fill(HOSTILE);
	await page.goto('./errors');
	await page
		.getByLabel('Response body')
		.fill(JSON.stringify({ error: HOSTILE, error_description: HOSTILE }));
	await expect(page.getByText(`is not one of the seven error codes`)).toContainText(HOSTILE);
	expect(
		await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)
	).toBeUndefined();
});

test('after the first visit the site works offline, sandbox included', async ({
	page,
	context
}) => {
	await page.goto('./');
	await page.evaluate(async () => {
		await navigator.serviceWorker.ready;
	});
	await context.setOffline(true);
	await page.reload();
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText('200 OK');
	await page.getByRole('link', { name: 'Verify a signature' }).click();
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toBeVisible();
	await page.goto('./errors');
	await expect(page.getByRole('heading', { name: "The service's errors" })).toBeVisible();
});
