// The visitor's own credential, end to end (issue 43 §2): registered with the in-page sandbox it
// gets the 200 and every error; a preset never costs what the visitor had; /errors sets each error up.
import { expect, test, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const httpStatus = (page: Page) => page.getByRole('status', { name: 'HTTP status', exact: true });
const explainer = (page: Page, code: string) =>
	page.getByRole('region', { name: code, exact: true });
const field = (page: Page, name: string) => page.getByLabel(name, { exact: true });

const OWN = { kid: 'my-own-kid-77', macKey: 'my-own-key-77', clientId: 'my-client-77' };

async function open(page: Page, path = './') {
	failOnPageErrors(page);
	await page.goto(path);
	// The header is rendered only once the page has hydrated: typing before that would be lost.
	await expect(page.getByRole('status', { name: /^Authorization (header|请求头)$/ })).toBeVisible();
}

/** Types the visitor's own credential, with basic_info only when `basicOnly`. */
async function typeOwn(page: Page, basicOnly = false) {
	await field(page, 'kid').fill(OWN.kid);
	await field(page, 'mac_key').fill(OWN.macKey);
	await field(page, 'client_id').fill(OWN.clientId);
	if (basicOnly) await page.getByRole('checkbox', { name: 'public_profile' }).uncheck();
}

async function register(page: Page) {
	await expect(page.getByText('The sandbox never issued this kid')).toBeVisible();
	await page.getByRole('button', { name: 'Register this credential with the sandbox' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'The sandbox knows this credential' })
	).toContainText(`client_id ${OWN.clientId}`);
}

test('an own credential, registered with the sandbox, gets the 200 with openid and unionid', async ({
	page
}) => {
	await open(page);
	await typeOwn(page);
	await register(page);
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
	const fields = page.getByLabel('Response fields');
	await expect(fields.getByText('openid', { exact: true })).toBeVisible();
	await expect(fields.getByText('unionid', { exact: true })).toBeVisible();
	// The key stays in the tab: nothing typed went to the URL or to storage.
	expect(page.url()).not.toContain(OWN.macKey);
	expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(OWN.macKey);
});

test('an unknown kid is offered the registration in the answer too, and the next Send gets 200', async ({
	page
}) => {
	await open(page);
	await typeOwn(page);
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('401 Unauthorized');
	await page
		.getByRole('region', { name: 'Response' })
		.getByRole('button', { name: 'Register this credential with the sandbox' })
		.click();
	await send(page).click();
	await expect(httpStatus(page)).toHaveText('200 OK');
});

/** Each error made with the own credential, as a visitor makes it. */
const ERRORS: [string, boolean, (page: Page) => Promise<void>][] = [
	[
		'invalid_request',
		false,
		(page) => page.getByLabel('Send without the Authorization header').check()
	],
	['invalid_time', false, (page) => field(page, 'ts').fill('1000000000')],
	['invalid_client', false, (page) => field(page, 'client_id').fill('someone-elses-app')],
	['access_denied', false, (page) => field(page, 'mac_key').fill('not-my-key')],
	[
		'forbidden',
		true,
		(page) => page.getByRole('radio', { name: 'Detailed profile (§4.2)' }).check()
	],
	[
		'not_found',
		false,
		(page) =>
			page
				.getByLabel('Request URL')
				.fill(`https://open.tapapis.cn/account/nothing/v1?client_id=${OWN.clientId}`)
	],
	[
		'server_error',
		false,
		async (page) => {
			await page.getByText('Sandbox settings and token lifecycle').click();
			await page.getByLabel('Fail the next N requests').fill('5');
		}
	]
];

for (const [code, basicOnly, make] of ERRORS) {
	test(`an own credential, registered, gets ${code} when the request calls for it`, async ({
		page
	}) => {
		await open(page);
		await typeOwn(page, basicOnly);
		await register(page);
		await make(page);
		await send(page).click();
		await expect(explainer(page, code)).toBeVisible();
	});
}

for (const preset of [
	'Demo account with public_profile',
	'Demo account with basic_info only',
	/^Worked example of the IETF HTTP MAC draft/
]) {
	test(`"Put back my credential" after ${preset} restores the credential, region, operation, request URL, ts and nonce`, async ({
		page
	}) => {
		await open(page);
		await typeOwn(page);
		await page.getByRole('radio', { name: 'Overseas', exact: true }).check();
		await page.getByRole('radio', { name: 'Basic information (§4.1)' }).check();
		await field(page, 'ts').fill('1700000000');
		await field(page, 'nonce').fill('my-typed-nonce');
		const url = await page.getByLabel('Request URL').inputValue();
		expect(url).toContain('open.tapapis.com/account/basic-info/v1');

		await page.getByRole('button', { name: preset }).click();
		await expect(field(page, 'kid')).not.toHaveValue(OWN.kid);
		await page.getByRole('button', { name: 'Put back my credential' }).click();

		await expect(field(page, 'kid')).toHaveValue(OWN.kid);
		await expect(field(page, 'mac_key')).toHaveValue(OWN.macKey);
		await expect(field(page, 'client_id')).toHaveValue(OWN.clientId);
		await expect(page.getByRole('radio', { name: 'Overseas', exact: true })).toBeChecked();
		await expect(page.getByRole('radio', { name: 'Basic information (§4.1)' })).toBeChecked();
		await expect(page.getByLabel('Request URL')).toHaveValue(url);
		await expect(field(page, 'ts')).toHaveValue('1700000000');
		await expect(field(page, 'nonce')).toHaveValue('my-typed-nonce');
		await expect(page.getByRole('status', { name: 'Authorization header' })).toContainText(
			`id="${OWN.kid}",ts="1700000000",nonce="my-typed-nonce"`
		);
	});
}

for (const code of [
	'invalid_request',
	'invalid_time',
	'invalid_client',
	'access_denied',
	'forbidden',
	'not_found',
	'server_error'
]) {
	test(`/errors: "Set up ${code} on the signing page" sets it up, and Send gets it`, async ({
		page
	}) => {
		failOnPageErrors(page);
		await page.goto('./errors');
		await page.getByRole('link', { name: `Set up ${code} on the signing page` }).click();
		await expect(page.getByRole('status').filter({ hasText: `Set up for ${code}` })).toBeVisible();
		await send(page).click();
		await expect(explainer(page, code)).toBeVisible();
	});
}

test('/zh-CN/errors: a link sets the error up on the Chinese signing page', async ({ page }) => {
	failOnPageErrors(page);
	await page.goto('./zh-CN/errors');
	await page.getByRole('link', { name: '在签算页设置 invalid_time' }).click();
	await expect(page.getByRole('status').filter({ hasText: '已设置好 invalid_time' })).toBeVisible();
	await page.getByRole('button', { name: '发送', exact: true }).click();
	await expect(explainer(page, 'invalid_time')).toBeVisible();
});
