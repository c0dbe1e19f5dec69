import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

// Support scripts and other tests drive the playground by these roles and names: renaming one is a
// breaking change, and this file is where it shows.
const FIELDS = [
	['textbox', 'kid'],
	['textbox', 'mac_key'],
	['textbox', 'client_id'],
	['textbox', 'ts'],
	['textbox', 'nonce'],
	['textbox', 'Domestic base URL'],
	['textbox', 'Overseas base URL'],
	['textbox', 'Paste SDK login result'],
	['radio', 'Domestic'],
	['radio', 'Overseas'],
	['checkbox', 'basic_info'],
	['checkbox', 'public_profile']
] as const;

const OUTPUTS = [
	'Authorization header',
	'curl command',
	'Base string (escaped)',
	'Signature (base64)',
	'Signature (hex)'
] as const;

const output = (page: Page, name: (typeof OUTPUTS)[number]) =>
	page.getByRole('status', { name, exact: true });
const field = (page: Page, [role, name]: (typeof FIELDS)[number]) =>
	page.getByRole(role, { name, exact: true });

/** The element's text is exactly the value: no words around it, no white space changed. */
async function expectExactly(page: Page, name: (typeof OUTPUTS)[number], value: string) {
	await expect.poll(() => output(page, name).textContent()).toBe(value);
}

test.beforeEach(async ({ page }) => {
	page.on('pageerror', (error) => {
		throw error;
	});
	await page.goto('./');
	// The outputs are rendered only once the page has hydrated: typing before that would be lost.
	await expect(output(page, 'Authorization header')).toBeVisible();
});

test('every name of the contract is on the page, once, with its role', async ({ page }) => {
	// The SDK paste box sits in a closed disclosure until asked for.
	await page.getByText('Paste SDK login result', { exact: true }).first().click();
	for (const entry of FIELDS) await expect(field(page, entry)).toBeVisible();
	for (const name of OUTPUTS) await expect(output(page, name)).toBeVisible();
});

test('the outputs carry exactly the values for typed inputs, computed here independently', async ({
	page
}) => {
	await page.getByRole('textbox', { name: 'kid', exact: true }).fill('contract-kid');
	await page.getByRole('textbox', { name: 'mac_key', exact: true }).fill('contract key ✓');
	await page.getByRole('radio', { name: 'Domestic', exact: true }).check();
	await page
		.getByRole('textbox', { name: 'Domestic base URL', exact: true })
		.fill('https://api.example.test');
	await page.getByRole('textbox', { name: 'client_id', exact: true }).fill('client-7');
	await page.getByRole('checkbox', { name: 'basic_info', exact: true }).check();
	await page.getByRole('checkbox', { name: 'public_profile', exact: true }).uncheck();
	await page.getByRole('textbox', { name: 'ts', exact: true }).fill('1700000000');
	await page.getByRole('textbox', { name: 'nonce', exact: true }).fill('Nonce+/=42');

	const base =
		'1700000000\nNonce+/=42\nGET\n/account/basic-info/v1?client_id=client-7\napi.example.test\n443\n\n';
	const digest = createHmac('sha1', 'contract key ✓').update(base).digest();
	const header = `MAC id="contract-kid",ts="1700000000",nonce="Nonce+/=42",mac="${digest.toString('base64')}"`;

	await expectExactly(page, 'Authorization header', header);
	await expectExactly(
		page,
		'curl command',
		`curl --globoff --path-as-is 'https://api.example.test/account/basic-info/v1?client_id=client-7' -H 'Authorization: ${header}'`
	);
	await expectExactly(
		page,
		'Base string (escaped)',
		String.raw`1700000000\nNonce+/=42\nGET\n/account/basic-info/v1?client_id=client-7\napi.example.test\n443\n\n`
	);
	await expectExactly(page, 'Signature (base64)', digest.toString('base64'));
	await expectExactly(page, 'Signature (hex)', digest.toString('hex'));
});

test('the escaped base string doubles a backslash the URL carries, on the overseas host', async ({
	page
}) => {
	await page.getByRole('textbox', { name: 'kid', exact: true }).fill('k');
	await page.getByRole('textbox', { name: 'mac_key', exact: true }).fill('key');
	await page.getByRole('radio', { name: 'Overseas', exact: true }).check();
	await page
		.getByRole('textbox', { name: 'Overseas base URL', exact: true })
		.fill('https://overseas.example.test');
	await page.getByRole('textbox', { name: 'ts', exact: true }).fill('1700000001');
	await page.getByRole('textbox', { name: 'nonce', exact: true }).fill('n');
	// A backslash in a query is sent as it is typed.
	await page
		.getByRole('textbox', { name: 'Request URL', exact: true })
		.fill(String.raw`https://overseas.example.test/account/basic-info/v1?client_id=a\b`);

	const base =
		'1700000001\nn\nGET\n/account/basic-info/v1?client_id=a\\b\noverseas.example.test\n443\n\n';
	const mac = createHmac('sha1', 'key').update(base).digest('base64');
	await expectExactly(
		page,
		'Base string (escaped)',
		String.raw`1700000001\nn\nGET\n/account/basic-info/v1?client_id=a\\b\noverseas.example.test\n443\n\n`
	);
	await expectExactly(
		page,
		'Authorization header',
		`MAC id="k",ts="1700000001",nonce="n",mac="${mac}"`
	);
});
