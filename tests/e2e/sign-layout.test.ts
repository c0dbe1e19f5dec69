// The signing page answers in its first screen (issue 43 §1): positions read from the bounding boxes
// once the page has hydrated (the header is rendered only then), never after a wait.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors';

/** The header's output, in either language. */
const header = (page: Page) =>
	page.getByRole('status', { name: /^Authorization (header|请求头)$/ });
const send = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
const explainer = (page: Page, code: string) =>
	page.getByRole('region', { name: code, exact: true });

async function box(locator: Locator) {
	const found = await locator.boundingBox();
	if (!found) throw new Error(`${locator} has no box`);
	return found;
}

async function open(page: Page, width: number, height: number, path = './') {
	failOnPageErrors(page);
	await page.setViewportSize({ width, height });
	await page.goto(path);
	await expect(header(page)).toBeVisible();
}

for (const [width, height] of [
	[1280, 800],
	[1366, 768]
] as const) {
	for (const [path, sendName] of [
		['./', 'Send'],
		['./zh-CN/', '发送']
	] as const) {
		test(`${path} at ${width}×${height}: the header, its Copy and Send are in the first screen, beside the inputs`, async ({
			page
		}) => {
			await open(page, width, height, path);
			const inputs = await box(page.getByLabel('kid', { exact: true }));
			const sendButton = page.getByRole('button', { name: sendName, exact: true });
			for (const output of [
				header(page),
				page.getByRole('button', {
					name: /^(Copy Authorization header|复制 ?Authorization 请求头)$/
				}),
				sendButton
			]) {
				const { x, y, height: h } = await box(output);
				expect(y + h).toBeLessThanOrEqual(height);
				expect(x).toBeGreaterThan(inputs.x + inputs.width);
			}
			// The base string's steps come after the answer, never between the inputs and it.
			const steps = await box(
				page.getByRole('list', { name: /^(Base string lines|待签名字符串)/ })
			);
			expect(steps.y).toBeGreaterThan((await box(sendButton)).y);
		});
	}
}

test('at 1280×800 the header and Send stay in view while the inputs below are edited', async ({
	page
}) => {
	await open(page, 1280, 800);
	const nonce = page.getByLabel('nonce', { exact: true });
	await nonce.scrollIntoViewIfNeeded();
	await nonce.fill('edited-far-below');
	await expect(header(page)).toContainText('nonce="edited-far-below"');
	for (const output of [header(page), send(page)]) {
		const { y, height } = await box(output);
		expect(y).toBeGreaterThanOrEqual(0);
		expect(y + height).toBeLessThanOrEqual(800);
	}
});

test('at 360×740 the header is within two screens of the top', async ({ page }) => {
	await open(page, 360, 740);
	const { y } = await box(header(page));
	expect(y).toBeLessThanOrEqual(2 * 740);
});

test('at 360×740 in Chinese the header is within two screens of the top', async ({ page }) => {
	await open(page, 360, 740, './zh-CN/');
	const { y } = await box(page.getByRole('status', { name: 'Authorization 请求头', exact: true }));
	expect(y).toBeLessThanOrEqual(2 * 740);
});

/** Each of the seven errors made in the sandbox, as a visitor makes it (send.test.ts says more). */
const ERRORS: [string, (page: Page) => Promise<void>][] = [
	['invalid_request', (page) => page.getByLabel('Send without the Authorization header').check()],
	['invalid_time', (page) => page.getByLabel('ts', { exact: true }).fill('1000000000')],
	['invalid_client', (page) => page.getByLabel('client_id').fill('someone-elses-app')],
	['access_denied', (page) => page.getByLabel('mac_key', { exact: true }).fill('not-the-key')],
	[
		'forbidden',
		async (page) => {
			await page.getByRole('button', { name: 'Demo account with basic_info only' }).click();
			await page.getByRole('radio', { name: 'Detailed profile (§4.2)' }).check();
		}
	],
	[
		'not_found',
		(page) =>
			page
				.getByLabel('Request URL')
				.fill('https://open.tapapis.cn/account/nothing/v1?client_id=demo-client-0001')
	],
	[
		'server_error',
		async (page) => {
			await page.getByText('Sandbox settings and token lifecycle').click();
			await page.getByLabel('Fail the next N requests').fill('5');
		}
	]
];

for (const [code, make] of ERRORS) {
	test(`at 1280×800 the ${code} card fits one screen, in the output column at its width`, async ({
		page
	}) => {
		await open(page, 1280, 800);
		await make(page);
		await send(page).click();
		const card = explainer(page, code);
		await expect(card).toBeVisible();
		const { x, width, height } = await box(card);
		const inputs = await box(page.getByLabel('kid', { exact: true }));
		expect(height).toBeLessThanOrEqual(800);
		expect(x).toBeGreaterThan(inputs.x + inputs.width);
		expect(width).toBeGreaterThanOrEqual(560);
	});
}
