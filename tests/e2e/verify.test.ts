import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';

const KEY = 'support-desk-key-7Hq';
const KID = 'kid-of-a-customer-1234';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-app';

function header(base: string, ts: string, nonce: string, key = KEY) {
	const mac = createHmac('sha1', key).update(base).digest('base64');
	return `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
}

const ts = String(Math.floor(Date.now() / 1000));
const nonce = 'bm9uY2Utbm9uY2UtMTY=';
const correctBase = `${ts}\n${nonce}\nGET\n/account/profile/v1?client_id=cust-app\nopen.tapapis.cn\n443\n\n`;
const correct = header(correctBase, ts, nonce);
const withPort = header(
	correctBase.replace('open.tapapis.cn\n', 'open.tapapis.cn:443\n'),
	ts,
	nonce
);

const verdict = (page: Page) =>
	page.getByRole('status').filter({ hasText: /Match|Mismatch|Waiting/ });

test.beforeEach(async ({ page }) => {
	page.on('pageerror', (error) => {
		throw error;
	});
	await page.goto('./verify');
	await expect(page.getByText('Waiting for the signed request')).toBeVisible();
});

test('a pasted header asks for the URL and the key, then matches', async ({ page }) => {
	await page.getByRole('textbox', { name: 'Signed request' }).fill(`Authorization: ${correct}`);
	await expect(page.getByRole('list', { name: 'Understood from the paste' })).toBeVisible();
	await expect(verdict(page)).toContainText('Waiting for the mac_key, the request URL');
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await page.getByRole('textbox', { name: 'Request URL' }).fill(URL);
	await expect(verdict(page)).toContainText('Match');
	await expect(verdict(page)).not.toContainText('Mismatch');
	const customerMac = await page
		.getByRole('status', { name: "Customer's mac", exact: true })
		.textContent();
	await expect(page.getByRole('status', { name: 'Expected mac', exact: true })).toHaveText(
		customerMac ?? ''
	);
	await expect(page.getByText(/Clock:/)).toBeVisible();
});

test('a curl command with the host signed with its port: Mismatch, and the diagnosis names it first', async ({
	page
}) => {
	const curl = `curl -sS '${URL}' \\\n  -H 'Accept: application/json' \\\n  -H 'Authorization: ${withPort}'`;
	await page.getByRole('textbox', { name: 'Signed request' }).fill(curl);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(URL);
	await expect(verdict(page)).toContainText('Mismatch');
	const first = page.getByRole('list', { name: 'Diagnosis' }).getByRole('listitem').first();
	await expect(first).toContainText('Signed the host with its port (open.tapapis.cn:443)');
	await expect(first).toContainText('Fix:');
});

test('a raw HTTP request with the right signature matches', async ({ page }) => {
	const raw = `GET /account/profile/v1?client_id=cust-app HTTP/1.1\r\nHost: open.tapapis.cn\r\nAuthorization: ${correct}\r\nAccept: */*\r\n\r\n`;
	await page.getByRole('textbox', { name: 'Signed request' }).fill(raw);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(verdict(page)).toContainText('Match');
	await expect(page.getByRole('list', { name: 'Understood from the paste' })).toContainText('443');
});

test('a wrong key: nothing in the catalogue reproduces it, and the page says so instead of guessing', async ({
	page
}) => {
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(`curl '${URL}' -H 'Authorization: ${header(correctBase, ts, nonce, 'other-key')}'`);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(verdict(page)).toContainText('Mismatch');
	await expect(page.getByRole('list', { name: 'Diagnosis' })).toContainText(
		'No catalogued mistake reproduces'
	);
});

test("the customer's logged base string is diffed line by line", async ({ page }) => {
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(`curl '${URL}' -H 'Authorization: ${withPort}'`);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const logged = correctBase
		.replace('open.tapapis.cn\n', 'open.tapapis.cn:443\n')
		.replaceAll('\n', '\\n');
	await page.getByRole('textbox', { name: "Base string from the customer's logs" }).fill(logged);
	await page.getByLabel('Read \\n, \\r and \\t as line breaks').check();
	await expect(page.getByText('First difference on line 5.')).toBeVisible();
	const table = page.getByRole('table', { name: 'Base string, line by line' });
	await expect(table.locator('mark')).toHaveText([':443']);
});

test('the report and the share link never carry the mac_key, and the kid only by choice', async ({
	page
}) => {
	await page
		.getByRole('textbox', { name: 'Signed request' })
		.fill(`curl '${URL}' -H 'Authorization: ${withPort}'`);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(verdict(page)).toContainText('Mismatch');

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download report (Markdown)' }).click();
	const report = await readFile(await (await download).path(), 'utf8');
	expect(report).toContain('Signed the host with its port');
	expect(report).not.toContain(KEY);
	expect(report).not.toContain(KID);

	const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
	expect(link).not.toContain(KEY);
	await page.getByLabel('Show the kid in full').check();
	const linkWithKid = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
	expect(linkWithKid).not.toBe(link);

	await page.goto(linkWithKid);
	await page.reload();
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(new RegExp(KID));
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue('');
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(verdict(page)).toContainText('Mismatch');
});

test('the errors page lists all seven codes and explains a pasted body', async ({ page }) => {
	await page.getByRole('link', { name: 'Errors' }).click();
	for (const code of [
		'invalid_request',
		'invalid_time',
		'invalid_client',
		'access_denied',
		'forbidden',
		'not_found',
		'server_error'
	]) {
		await expect(page.getByRole('rowheader', { name: code })).toBeVisible();
	}
	await page
		.getByLabel('Response body')
		.fill(
			'{"data":{"code":0,"error":"forbidden","error_description":"no","msg":"No permission"},"now":1,"success":false}'
		);
	await expect(page.getByRole('region', { name: 'forbidden', exact: true })).toContainText(
		'do not resubmit the request'
	);
	await expect(page.getByRole('region', { name: 'forbidden', exact: true })).toContainText(
		'No permission'
	);
	await page.getByLabel('Response body').fill('<html><title>Bad Gateway</title></html>');
	await expect(page.getByText('The body is an HTML page ("Bad Gateway")')).toBeVisible();
	await page.getByLabel('Response body').fill('{"error":"teapot"}');
	await expect(page.getByText('"teapot" is not one of the seven error codes')).toBeVisible();
});

test("an example fills the desk, and the agent's own case comes back", async ({ page }) => {
	await page.getByRole('textbox', { name: 'Signed request' }).fill(`Authorization: ${correct}`);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	const examples = page.getByRole('group', { name: 'Try an example:' });
	await examples.getByRole('button', { name: 'Query string not signed (curl)' }).click();
	await expect(verdict(page)).toContainText('Mismatch');
	const first = page.getByRole('list', { name: 'Diagnosis' }).getByRole('listitem').first();
	await expect(first).toContainText('Signed the path without its query string');

	await examples.getByRole('button', { name: /^Host signed with its port/ }).click();
	await expect(first).toContainText('Signed the host with its port (open.tapapis.com:443)');
	await expect(page.getByText('First difference on line 5.')).toBeVisible();

	await page.getByRole('button', { name: 'Put back what you had' }).click();
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(
		`Authorization: ${correct}`
	);
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue(KEY);
	await expect(page.getByRole('button', { name: 'Put back what you had' })).toHaveCount(0);
});

test('a HAR file from devtools: the signed entry is found, and the share link leaves its cookies out', async ({
	page
}) => {
	const har = JSON.stringify({
		log: {
			version: '1.2',
			entries: [
				{ request: { method: 'GET', url: 'https://example.com/app.js', headers: [] } },
				{
					request: {
						method: 'GET',
						url: URL,
						headers: [
							{ name: 'cookie', value: 'session=customer-session-cookie' },
							{ name: 'authorization', value: correct }
						]
					},
					response: { status: 200, content: { text: '{"success":true}' } }
				}
			]
		}
	});
	await page.getByRole('textbox', { name: 'Signed request' }).fill(har);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(page.getByText('Read as a HAR file:')).toBeVisible();
	await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(URL);
	await expect(verdict(page)).toContainText('Match');
	const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
	const payload = Buffer.from(link.split('#v1.')[1] ?? '', 'base64url').toString('utf8');
	expect(payload).toContain('Authorization: MAC');
	expect(payload).not.toContain('customer-session-cookie');
});

test("devtools' Copy as PowerShell from a Windows customer matches, backtick escapes and all", async ({
	page
}) => {
	const escaped = correct.replace(/"/g, '`"');
	const powershell = [
		'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession',
		`Invoke-WebRequest -UseBasicParsing -Uri "${URL}" \``,
		'-WebSession $session `',
		'-Headers @{',
		'"accept"="*/*"',
		`  "authorization"="${escaped}"`,
		'}'
	].join('\r\n');
	await page.getByRole('textbox', { name: 'Signed request' }).fill(powershell);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(KEY);
	await expect(page.getByText('Read as a PowerShell command:')).toBeVisible();
	await expect(verdict(page)).toContainText('Match');
	await expect(verdict(page)).not.toContainText('Mismatch');
});
