// What the signing page loads on first use rather than with the page: the first view fetches none of
// it, and each part, asked for, appears and does what it says, in English and in Chinese.
import { expect, test, type Page } from '@playwright/test';
import { expectNoEnglishProse } from './english-prose';
import { failOnPageErrors } from './page-errors';

/** Stylesheets named after the parts that only load when asked for (Vite names CSS after them). */
const LAZY_STYLES =
	/\/(?:ResponseView|ErrorExplainer|HexView|WindowsCommand|ReplacedNotice)\.[\w-]+\.css$/;

/** Every URL the page requests from now on. */
function requests(page: Page): string[] {
	const urls: string[] = [];
	page.on('request', (request) => urls.push(request.url()));
	return urls;
}

async function open(page: Page, path: './' | './zh-CN/', header: string) {
	failOnPageErrors(page);
	await page.goto(path);
	await expect(page.getByRole('status', { name: header, exact: true })).toBeVisible();
}

test('the first view loads no styles of a part it does not show; each part brings its own', async ({
	page
}) => {
	const urls = requests(page);
	await open(page, './', 'Authorization header');
	await page.waitForLoadState('networkidle');
	expect(urls.filter((url) => LAZY_STYLES.test(url))).toEqual([]);

	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText('200 OK');
	expect(urls.some((url) => /\/ResponseView\.[\w-]+\.css$/.test(url))).toBe(true);

	await page.getByText('Hex view', { exact: true }).click();
	await expect(page.getByRole('region', { name: 'Base string bytes in hex' })).toContainText(
		'0000  '
	);

	await page.getByRole('radio', { name: 'cmd', exact: true }).check();
	await expect(page.getByRole('heading', { name: 'curl for Windows cmd' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Copy cmd command' })).toBeVisible();
	expect(urls.some((url) => /\/WindowsCommand\.[\w-]+\.css$/.test(url))).toBe(true);
});

test('the Chinese page reads a pasted login result, says what it did and notes a rewritten URL, in Chinese', async ({
	page
}) => {
	await open(page, './zh-CN/', 'Authorization 请求头');
	await page.getByText('粘贴 SDK 登录结果', { exact: true }).first().click();
	const box = page.getByRole('textbox', { name: '粘贴 SDK 登录结果' });
	await box.fill(
		'I/TapLogin: onLoginSuccess: {"kid": "zh-kid-1", "mac_key": "zh-key-1", "token_type": "mac", "mac_algorithm": "hmac-sha-1", "scopeSet": ["basic_info"]}'
	);
	await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue('zh-key-1');
	await expect(box).toHaveValue('');
	await expect(box).toHaveAccessibleDescription(/^已填入 kid、mac_key、.*输入框已清空/);
	await expect(
		page.getByRole('status', { name: 'Authorization 请求头', exact: true })
	).toContainText('id="zh-kid-1"');

	await page.getByLabel('client_id', { exact: true }).fill("it's");
	await expect(
		page.getByRole('textbox', { name: '请求 URL', exact: true })
	).toHaveAccessibleDescription(/' 以 %27 发出/);
	await expectNoEnglishProse(page);
});

test.describe('with no service worker (it would answer from its cache)', () => {
	test.use({ serviceWorkers: 'block' });

	/**
	 * The signing page, loaded, and from then on offline or replaced by a new deployment: no further
	 * script arrives until the returned function is called.
	 */
	async function scriptsCutOff(page: Page): Promise<() => Promise<void>> {
		await open(page, './', 'Authorization header');
		await page.waitForLoadState('networkidle');
		const chunks = '**/_app/immutable/chunks/*.js';
		await page.route(chunks, (route) => route.abort());
		return () => page.unroute(chunks);
	}

	test('a disclosure opened before the page has hydrated stays open, and its part loads', async ({
		page
	}) => {
		failOnPageErrors(page);
		// The scripts held back until the visitor has opened the disclosure on the painted page.
		let release: () => void = () => undefined;
		const released = new Promise<void>((resolve) => (release = resolve));
		await page.route('**/_app/immutable/**/*.js', async (route) => {
			await released;
			await route.continue();
		});
		await page.goto('./', { waitUntil: 'domcontentloaded' });
		const summary = page.getByText('Use it in your API client');
		await summary.click();
		release();
		// Hydrating the disclosure's bind:open closed it once: the visitor's opening is kept.
		await expect(page.getByRole('button', { name: /^Download / })).toHaveCount(6);
		await expect(page.locator('details', { has: summary })).toHaveAttribute('open', '');
	});

	test('a paste reader that cannot be fetched is said at the box, the paste kept, and the next try reads it', async ({
		page
	}) => {
		const restore = await scriptsCutOff(page);
		await page.getByText('Paste SDK login result', { exact: true }).first().click();
		const box = page.getByRole('textbox', { name: 'Paste SDK login result' });
		const login = '{"kid": "k-offline", "mac_key": "key-offline", "token_type": "mac"}';
		await box.fill(login);
		await expect(box).toHaveAccessibleDescription(
			'This part of the page could not be loaded. Reload to try again.'
		);
		await expect(box).toHaveValue(login);
		await expect(page.getByLabel('kid', { exact: true })).not.toHaveValue('k-offline');

		await restore();
		await box.fill(`${login} `);
		await expect(page.getByLabel('kid', { exact: true })).toHaveValue('k-offline');
		await expect(page.getByLabel('mac_key', { exact: true })).toHaveValue('key-offline');
	});

	test('a Send whose code cannot be fetched says so in the Send panel, and the next Send goes', async ({
		page
	}) => {
		const restore = await scriptsCutOff(page);
		const send = page.getByRole('button', { name: 'Send', exact: true });
		await send.click();
		await expect(
			page
				.getByRole('region', { name: 'Send the request' })
				.getByRole('alert')
				.filter({ hasText: 'This part of the page could not be loaded. Reload to try again.' })
		).toBeVisible();

		await restore();
		await send.click();
		await expect(page.getByRole('status', { name: 'HTTP status', exact: true })).toHaveText(
			'200 OK'
		);
		await expect(
			page.getByRole('region', { name: 'Send the request' }).getByRole('alert')
		).toHaveCount(0);
	});
});

test('the words for a problem with an input come with the first one, in the language of the page', async ({
	page
}) => {
	await open(page, './zh-CN/', 'Authorization 请求头');
	const kid = page.getByLabel('kid', { exact: true });
	await kid.fill('');
	await expect(kid).toHaveAttribute('aria-invalid', 'true');
	// "Loading…" for the moment the words take, then the note itself.
	await expect(kid).toHaveAccessibleDescription(/kid 为空/);
	await expectNoEnglishProse(page);
});

test('a browser without URLPattern loads the polyfill before the page reads its URL, and works in its language', async ({
	page
}) => {
	// As in a browser that predates URLPattern (Safari before 26, say).
	await page.addInitScript(() => {
		delete (globalThis as { URLPattern?: unknown }).URLPattern;
	});
	await open(page, './zh-CN/', 'Authorization 请求头');
	expect(await page.evaluate(() => 'URLPattern' in globalThis)).toBe(true);
	await page.getByRole('button', { name: '发送', exact: true }).click();
	await expect(page.getByRole('status', { name: 'HTTP 状态码', exact: true })).toHaveText('200 OK');
	await page.getByRole('link', { name: 'English', exact: true }).click();
	await expect(
		page.getByRole('status', { name: 'Authorization header', exact: true })
	).toBeVisible();
});
