import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

const DRAFT_HEADER =
	'MAC id="h480djs93hd8",ts="1336363200",nonce="dj83hs9s",mac="6T3zZzy2Emppni6bzL7kdRxUWL4="';

const header = (page: Page) =>
	page.getByRole('status', { name: 'Authorization header', exact: true });
const curl = (page: Page) => page.getByRole('status', { name: 'curl command', exact: true });
const wholeBase = (page: Page) => page.getByLabel('Base string with line feeds shown');

test.beforeEach(async ({ page }) => {
	page.on('pageerror', (error) => {
		throw error;
	});
	await page.goto('./');
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(header(page)).toBeVisible();
});

test("the worked example preset gives the draft's correct mac, header, curl and escaped base string", async ({
	page
}) => {
	await page
		.getByRole('button', {
			name: /^Worked example of the IETF HTTP MAC draft \(draft-ietf-oauth-v2-http-mac §1\.1; its host, port and key are not this service's\)$/
		})
		.click();
	await expect(header(page)).toHaveText(DRAFT_HEADER);
	await expect(curl(page)).toHaveText(
		`curl --globoff --path-as-is 'http://example.com/resource/1?b=1&a=2' -H 'Authorization: ${DRAFT_HEADER}'`
	);
	await expect(wholeBase(page)).toHaveText(
		'1336363200↵\ndj83hs9s↵\nGET↵\n/resource/1?b=1&a=2↵\nexample.com↵\n80↵\n↵\n'
	);
	await expect(page.getByRole('status', { name: 'Base string (escaped)', exact: true })).toHaveText(
		String.raw`1336363200\ndj83hs9s\nGET\n/resource/1?b=1&a=2\nexample.com\n80\n\n`
	);
	await expect(page.getByText('60 bytes in UTF-8')).toBeVisible();
	await expect(page.getByRole('status', { name: 'Signature (base64)', exact: true })).toHaveText(
		'6T3zZzy2Emppni6bzL7kdRxUWL4='
	);
	await expect(page.getByRole('status', { name: 'Signature (hex)', exact: true })).toHaveText(
		Buffer.from('6T3zZzy2Emppni6bzL7kdRxUWL4=', 'base64').toString('hex')
	);
});

test('typed values are signed exactly, with the overseas host and port 443', async ({ page }) => {
	await page.getByLabel('kid', { exact: true }).fill('kid-typed');
	await page.getByLabel('mac_key', { exact: true }).fill('kéy with spaces ');
	await page.getByLabel('Overseas', { exact: true }).check();
	await page.getByLabel('client_id').fill('app 42');
	await page.getByLabel('public_profile').uncheck();
	await page.getByLabel('ts', { exact: true }).fill('0123456789');
	await page.getByLabel('nonce', { exact: true }).fill('n0nce+/=');

	const base =
		'0123456789\nn0nce+/=\nGET\n/account/basic-info/v1?client_id=app%2042\nopen.tapapis.com\n443\n\n';
	const mac = createHmac('sha1', 'kéy with spaces ').update(base).digest('base64');
	const expected = `MAC id="kid-typed",ts="0123456789",nonce="n0nce+/=",mac="${mac}"`;
	await expect(header(page)).toHaveText(expected);
	await expect(curl(page)).toHaveText(
		`curl --globoff --path-as-is 'https://open.tapapis.com/account/basic-info/v1?client_id=app%2042' -H 'Authorization: ${expected}'`
	);
	await expect(wholeBase(page)).toHaveText(base.replaceAll('\n', '↵\n'));
	await expect(page.getByText('Only basic_info was granted')).toBeVisible();

	await page.getByLabel('Space after commas').check();
	await expect(header(page)).toHaveText(expected.replaceAll('",', '", '));
});

test('the signed request goes to the verify page with its key, and matches there', async ({
	page
}) => {
	await page
		.getByRole('button', {
			name: /^Worked example of the IETF HTTP MAC draft \(draft-ietf-oauth-v2-http-mac §1\.1; its host, port and key are not this service's\)$/
		})
		.click();
	await expect(header(page)).toHaveText(DRAFT_HEADER);
	await page.getByRole('button', { name: 'Check it on the verify page' }).click();
	await expect(page).toHaveURL(/\/verify$/);
	await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(
		'http://example.com/resource/1?b=1&a=2'
	);
	await expect(page.getByRole('textbox', { name: 'mac_key' })).not.toHaveValue('');
	await expect(page.getByRole('status').filter({ hasText: /Match/ })).toContainText('Match');
	await expect(page.getByRole('status').filter({ hasText: /Match/ })).not.toContainText('Mismatch');
});

test('going to another page and back keeps everything typed, the answer and the verify desk', async ({
	page
}) => {
	await page.getByLabel('kid', { exact: true }).fill('kid-typed-before-leaving');
	await page.getByLabel('mac_key', { exact: true }).fill('key-typed-before-leaving');
	await page.getByLabel('ts', { exact: true }).fill('1700000000');
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toBeVisible();
	const headerBefore = await header(page).textContent();

	await page.getByRole('link', { name: 'Verify a signature' }).click();
	await page.getByRole('textbox', { name: 'Signed request' }).fill('curl https://example.com/');
	await page.getByRole('link', { name: 'Errors' }).click();
	await page.getByRole('link', { name: 'Sign a request' }).click();

	await expect(page.getByLabel('kid', { exact: true })).toHaveValue('kid-typed-before-leaving');
	await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue('key-typed-before-leaving');
	await expect(header(page)).toHaveText(headerBefore ?? '');
	await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toBeVisible();
	await page.getByRole('link', { name: 'Verify a signature' }).click();
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(
		'curl https://example.com/'
	);
});

test('a pasted SDK login result fills the credential and is signed', async ({ page }) => {
	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	const result = {
		kid: 'sdk-kid',
		access_token: 'sdk-kid',
		token_type: 'mac',
		mac_key: 'sdk-key',
		mac_algorithm: 'hmac-sha-1',
		scopeSet: ['basic_info']
	};
	await page.getByRole('textbox', { name: 'Paste SDK login result' }).fill(JSON.stringify(result));
	await expect(page.getByLabel('kid', { exact: true })).toHaveValue('sdk-kid');
	await expect(page.getByLabel('access_token')).toHaveValue('sdk-kid');
	await expect(page.getByLabel('public_profile')).not.toBeChecked();
	await page.getByLabel('ts', { exact: true }).fill('1700000000');
	await page.getByLabel('nonce', { exact: true }).fill('abc');
	const base = `1700000000\nabc\nGET\n/account/basic-info/v1?client_id=demo-client-0001\nopen.tapapis.cn\n443\n\n`;
	const mac = createHmac('sha1', 'sdk-key').update(base).digest('base64');
	await expect(header(page)).toHaveText(
		`MAC id="sdk-kid",ts="1700000000",nonce="abc",mac="${mac}"`
	);
});

test('bad input gets a message at its field and nothing typed is lost', async ({ page }) => {
	await page.getByLabel('client_id').fill('my-client');
	await page.getByLabel('kid', { exact: true }).fill('');
	await expect(page.getByLabel('kid', { exact: true })).toHaveAccessibleDescription(/kid is empty/);
	await expect(page.getByText('No header yet: fix kid first.')).toBeVisible();

	await page.getByLabel('kid', { exact: true }).fill('k');
	await page.getByLabel('mac_algorithm').fill('hmac-sha-256');
	await expect(page.getByLabel('mac_algorithm')).toHaveAccessibleDescription(/not supported/);
	await page.getByLabel('mac_key', { exact: true }).fill('');
	await expect(page.getByLabel('mac_key', { exact: true })).toHaveAccessibleDescription(
		/mac_key is empty/
	);

	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	await page.getByRole('textbox', { name: 'Paste SDK login result' }).fill('{"kid": "half');
	await expect(
		page.getByRole('textbox', { name: 'Paste SDK login result' })
	).toHaveAccessibleDescription(/not JSON/);

	await page.getByLabel('Request URL').fill('open.tapapis.cn/account');
	await expect(page.getByLabel('Request URL')).toHaveAccessibleDescription(/no scheme/);

	await expect(page.getByLabel('client_id')).toHaveValue('my-client');
	await expect(page.getByLabel('kid', { exact: true })).toHaveValue('k');
	await expect(page.getByLabel('mac_algorithm')).toHaveValue('hmac-sha-256');
	await expect(page.getByRole('textbox', { name: 'Paste SDK login result' })).toHaveValue(
		'{"kid": "half'
	);
});

test('the live ts ticks, and typing one fixes it exactly as typed', async ({ page }) => {
	const ts = page.getByLabel('ts', { exact: true });
	const first = Number(await ts.inputValue());
	expect(Math.abs(first - Date.now() / 1000)).toBeLessThan(30);
	await expect(ts).not.toHaveValue(String(first), { timeout: 3000 });
	await ts.fill('1700000000000');
	await expect(ts).toHaveAccessibleDescription(/milliseconds/);
	await expect(header(page)).toContainText('ts="1700000000000"');
	await page.getByRole('button', { name: 'Use live ts' }).click();
	await expect(page.getByText('Live', { exact: true })).toBeVisible();
});

test('the page works under the base path, and unknown pages get the 404 page', async ({ page }) => {
	expect(new URL(page.url()).pathname).toBe('/mac-token-playground/');
	await page.goto('./no-such-page');
	await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
	await page.getByRole('link', { name: 'Go to the signing playground' }).click();
	await expect(page).toHaveURL(/\/mac-token-playground\/$/);
	await expect(
		page.getByRole('heading', { name: 'Sign a request with a MAC token' })
	).toBeVisible();
});
