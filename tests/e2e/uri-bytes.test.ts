// The request URI is the bytes sent. A query holding ' (state=it's): curl and a raw request send
// the quote as it is, a browser sends %27. /verify signs what each sent; the playground signs the
// one URL that both its Send button and its curl command send, and says why it changed.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { RELAY_PORT } from '../../playwright.config';

const KEY = 'support-desk-key-7Hq';
const KID = 'kid-of-a-customer-1234';
const SENT = "/account/profile/v1?client_id=cust-app&state=it's";

/** Signed over the bytes curl and a raw request send, by node:crypto, apart from the app. */
function header(): string {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = 'bm9uY2UtdXJpLWJ5dGVz';
	const base = `${ts}\n${nonce}\nGET\n${SENT}\nopen.tapapis.cn\n443\n\n`;
	const mac = createHmac('sha1', KEY).update(base).digest('base64');
	return `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
}

const verdict = (page: Page) =>
	page.getByRole('status').filter({ hasText: /Match|Mismatch|Waiting/ });
const requestUrl = (page: Page) => page.getByRole('textbox', { name: 'Request URL' });

test.beforeEach(async ({ page }) => {
	page.on('pageerror', (error) => {
		throw error;
	});
});

test.describe('/verify', () => {
	test.beforeEach(async ({ page }) => {
		await page.goto('./verify');
		await expect(page.getByText('Waiting for the signed request')).toBeVisible();
	});

	test("a curl command with it's in the query, signed over the bytes curl sends, matches", async ({
		page
	}) => {
		const curl = `curl 'https://open.tapapis.cn${SENT.replace("'", "'\\''")}' -H 'Authorization: ${header()}'`;
		await page.getByRole('textbox', { name: 'Signed request' }).fill(curl);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(verdict(page)).toContainText('Match');
		await expect(verdict(page)).not.toContainText('Mismatch');
		await expect(page.getByRole('list', { name: 'Understood from the paste' })).toContainText(
			"curl sends it as it is, where a browser would rewrite it (' is sent as %27)"
		);
	});

	test("a raw request with it's in its request line matches", async ({ page }) => {
		const raw = `GET ${SENT} HTTP/1.1\r\nHost: open.tapapis.cn\r\nAuthorization: ${header()}\r\n\r\n`;
		await page.getByRole('textbox', { name: 'Signed request' }).fill(raw);
		await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
		await expect(verdict(page)).toContainText('Match');
		await expect(verdict(page)).not.toContainText('Mismatch');
	});
});

test.describe('the playground', () => {
	test.beforeEach(async ({ page }) => {
		await page.goto('./');
		// The header is rendered only once the page has hydrated: typing before that would be lost.
		await expect(
			page.getByRole('status', { name: 'Authorization header', exact: true })
		).toBeVisible();
	});

	test("client_id it's: the Request URL shows %27 and says why; the sandbox checks the mac and gets to client_id", async ({
		page
	}) => {
		await page.getByLabel('client_id').fill("it's");
		await expect(requestUrl(page)).toHaveValue(/\?client_id=it%27s$/);
		await expect(requestUrl(page)).toHaveAccessibleDescription(
			/' is sent as %27\. A browser rewrites the URL so before sending it, and the curl command carries the rewritten URL/
		);
		await expect(page.getByRole('status', { name: 'curl command', exact: true })).toContainText(
			'?client_id=it%27s'
		);
		await page.getByRole('button', { name: 'Send', exact: true }).click();
		// The sandbox rebuilds the base string before it looks at client_id: invalid_client, not a mac mismatch.
		await expect(page.getByRole('region', { name: 'invalid_client', exact: true })).toBeVisible();
		await expect(page.getByRole('region', { name: 'Response' })).toContainText(`client_id "it's"`);
		await expect(page.getByRole('region', { name: 'Response' })).not.toContainText(
			'mac does not match'
		);
	});

	test("a URL typed with state=it's stays as typed, goes out as %27, and both Send and curl get a 200", async ({
		page
	}) => {
		const composed = await requestUrl(page).inputValue();
		await requestUrl(page).fill(`${composed}&state=it's`);
		await expect(requestUrl(page)).toHaveValue(`${composed}&state=it's`);
		await expect(requestUrl(page)).toHaveAccessibleDescription(
			new RegExp(`Goes out as ${escape(composed)}&state=it%27s: ' is sent as %27`)
		);
		const curl =
			(await page.getByRole('status', { name: 'curl command', exact: true }).textContent()) ?? '';
		await page.getByRole('button', { name: 'Send', exact: true }).click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'200 OK'
		);

		// The curl command as shown, through the reference relay to its own sandbox: curl sends the
		// URL's bytes as they are, so they must be the bytes the page signed.
		test.skip(!existsSync('/usr/bin/curl'), 'curl is not installed');
		const viaRelay = curl.replace("'https://", `'http://127.0.0.1:${RELAY_PORT}/https://`);
		expect(viaRelay).not.toBe(curl);
		const run = spawnSync('bash', ['-c', `${viaRelay} -sS`], { encoding: 'utf8', timeout: 20_000 });
		expect(run.stderr).toBe('');
		expect(JSON.parse(run.stdout)).toMatchObject({ success: true });
	});
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
