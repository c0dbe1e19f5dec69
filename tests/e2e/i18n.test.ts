// The site frame in both languages: <html lang>, the alternates, the switch (which keeps every value
// typed, and stores nothing but the choice), the 404 page, the offer to a Chinese browser, and axe.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { BASE_PATH } from '../../playwright.config';
import { serveStatic } from '../bench/static-server.js';
import { violations } from './axe';
import { failOnPageErrors } from './page-errors';
import { expectNoEnglishProse } from './english-prose';

/** Each page in English and in Chinese, as paths under the base path. */
const PAGES = [
	{ en: '/', zh: '/zh-CN/' },
	{ en: '/verify', zh: '/zh-CN/verify' },
	{ en: '/errors', zh: '/zh-CN/errors' }
];
const SWITCH = { en: '简体中文', zh: 'English' };

const relative = (path: string) => `.${path}`;
const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** Waits until the page has hydrated (its controls are enabled then: routes/+layout.svelte), then
 * marks the document, so that the next check can tell a client-side navigation (the mark stays)
 * from a load (it is gone). */
async function hydrated(page: Page) {
	await expect(page.getByRole('button', { name: /^(?:Clear everything|全部清除)$/ })).toBeEnabled();
	await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
const sameDocument = (page: Page) =>
	page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

/**
 * Only the language chosen is stored, in the whole of the tab's storage. SvelteKit keeps scroll
 * positions and component snapshots (none here: `{}`) in sessionStorage when a page unloads;
 * neither holds anything typed.
 */
async function expectOnlyTheLanguage(page: Page, locale: 'en' | 'zh-CN') {
	const { local, session } = await page.evaluate(() => ({
		local: Object.entries(localStorage),
		session: Object.entries(sessionStorage)
	}));
	expect(local).toEqual([['mac-playground:language', locale]]);
	for (const [key, value] of session) {
		expect(['sveltekit:scroll', 'sveltekit:snapshot']).toContain(key);
		if (key === 'sveltekit:snapshot') expect(value).toBe('{}');
		else expect(value).toMatch(/^\{("\d+":\{"x":\d+,"y":\d+\},?)*\}$/);
	}
}

for (const { en, zh } of PAGES) {
	test(`${en} and ${zh}: <html lang> as prerendered and after a switch, alternates and the switch link`, async ({
		page,
		request
	}) => {
		failOnPageErrors(page);
		for (const [path, locale] of [
			[en, 'en'],
			[zh, 'zh-CN']
		] as const) {
			const html = await (await request.get(relative(path))).text();
			expect(html, path).toMatch(new RegExp(`<html lang="${locale}">`));
			for (const [other, href] of [
				['en', en],
				['zh-CN', zh],
				['x-default', en]
			])
				expect(html, `${path} names ${other}`).toContain(
					`<link rel="alternate" hreflang="${other}" href="${BASE_PATH}${href}"/>`
				);
		}

		await page.goto(relative(en));
		await hydrated(page);
		expect(await lang(page)).toBe('en');
		await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]')).toHaveAttribute(
			'href',
			`${BASE_PATH}${zh}`
		);
		await page.getByRole('link', { name: SWITCH.en, exact: true }).click();
		await expect(page).toHaveURL(new RegExp(`${BASE_PATH}${zh}$`));
		expect(await sameDocument(page)).toBe(true);
		await expect.poll(() => lang(page)).toBe('zh-CN');
		await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
			'href',
			`${BASE_PATH}${en}`
		);
		await expect(page.getByRole('link', { name: SWITCH.en, exact: true })).toHaveCount(0);

		await page.getByRole('link', { name: SWITCH.zh, exact: true }).click();
		await expect(page).toHaveURL(new RegExp(`${BASE_PATH}${en}$`));
		expect(await sameDocument(page)).toBe(true);
		await expect.poll(() => lang(page)).toBe('en');
		await expect(page.getByRole('link', { name: SWITCH.en, exact: true })).toBeVisible();
	});
}

test('switching keeps everything typed on the signing page, and nothing typed goes to the URL or storage', async ({
	page
}) => {
	failOnPageErrors(page);
	// ts and nonce typed too: the header then stays the same while the clock runs.
	const typed = {
		kid: 'kid-typed-i18n-7',
		mac_key: 'MAC-KEY-typed-i18n-Zq42',
		client_id: 'app-i18n',
		ts: '1700000000',
		nonce: 'bm9uY2UtaTE4bg=='
	};
	await page.goto('./');
	const header = page.getByRole('status', { name: 'Authorization header', exact: true });
	await expect(header).toBeVisible();
	await hydrated(page);
	for (const [name, value] of Object.entries(typed))
		await page.getByLabel(name, { exact: true }).fill(value);
	await expect(header).toContainText(`id="${typed.kid}"`);
	const signed = (await header.textContent()) ?? '';

	await page.getByRole('link', { name: SWITCH.en, exact: true }).click();
	await expect(page).toHaveURL(/\/zh-CN\/$/);
	expect(await sameDocument(page)).toBe(true);
	// The identifier-named fields keep their names in Chinese.
	for (const [name, value] of Object.entries(typed))
		await expect(page.getByLabel(name, { exact: true })).toHaveValue(value);
	// The same header, in the output whatever its Chinese name.
	await expect(page.getByRole('status').filter({ hasText: /^MAC id="/ })).toHaveText(signed);

	await page.getByRole('link', { name: SWITCH.zh, exact: true }).click();
	await expect(page).toHaveURL(/\/mac-token-playground\/$/);
	for (const [name, value] of Object.entries(typed))
		await expect(page.getByLabel(name, { exact: true })).toHaveValue(value);
	await expect(header).toHaveText(signed);

	for (const value of Object.values(typed)) expect(page.url()).not.toContain(value);
	// The language chosen is all the site stored.
	await expectOnlyTheLanguage(page, 'en');
});

test('switching keeps everything typed on the verify page, and stores only the language', async ({
	page
}) => {
	failOnPageErrors(page);
	const key = 'verify-key-typed-i18n-9Hq';
	const url = 'https://open.tapapis.cn/account/profile/v1?client_id=cust-i18n';
	const paste = `curl '${url}' -H 'Authorization: MAC id="kid-i18n",ts="1700000000",nonce="bm9uY2U=",mac="AAAAAAAAAAAAAAAAAAAAAAAAAAA="'`;
	await page.goto('./verify');
	await hydrated(page);
	await page.getByRole('textbox', { name: 'Signed request' }).fill(paste);
	await page.getByRole('textbox', { name: 'mac_key' }).fill(key);
	await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(url);
	const verdict = page.getByRole('status').filter({ hasText: /Match|Mismatch/ });
	await expect(verdict).toContainText('Mismatch');

	await page.getByRole('link', { name: SWITCH.en, exact: true }).click();
	await expect(page).toHaveURL(/\/zh-CN\/verify$/);
	expect(await sameDocument(page)).toBe(true);
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue(key);
	// The other boxes have Chinese names: what they hold is what was typed.
	const values = await page
		.getByRole('textbox')
		.evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
	expect(values).toEqual(expect.arrayContaining([paste, url, key]));
	await expectOnlyTheLanguage(page, 'zh-CN');

	await page.getByRole('link', { name: SWITCH.zh, exact: true }).click();
	await expect(page).toHaveURL(/\/mac-token-playground\/verify$/);
	await expect(page.getByRole('textbox', { name: 'Signed request' })).toHaveValue(paste);
	await expect(page.getByRole('textbox', { name: 'mac_key' })).toHaveValue(key);
	await expect(page.getByRole('textbox', { name: 'Request URL' })).toHaveValue(url);
	await expect(verdict).toContainText('Mismatch');
	for (const value of [key, 'kid-i18n', 'cust-i18n']) expect(page.url()).not.toContain(value);
	await expectOnlyTheLanguage(page, 'en');
});

test.describe('the 404 page in both languages', () => {
	// GitHub Pages answers an unknown path under the site with the site's 404.html; so does this
	// server (tests/bench/static-server.js), with the build under the same base path. `vite preview`
	// renders unknown paths on its server instead, so the fallback file itself is tested here.
	let pages: Awaited<ReturnType<typeof serveStatic>>;
	let root = '';
	test.beforeAll(async () => {
		root = mkdtempSync(join(tmpdir(), 'i18n-pages-'));
		const build = fileURLToPath(new URL('../../build', import.meta.url));
		symlinkSync(build, join(root, BASE_PATH.slice(1)), 'dir');
		symlinkSync(join(build, '404.html'), join(root, '404.html'));
		pages = await serveStatic(root);
	});
	test.afterAll(async () => {
		await pages?.close();
		rmSync(root, { recursive: true, force: true });
	});

	const cases = [
		{
			path: '/nope',
			locale: 'en',
			heading: 'Page not found',
			text: `Nothing lives at ${BASE_PATH}/nope.`
		},
		{
			path: '/zh-CN/nope',
			locale: 'zh-CN',
			heading: '页面不存在',
			text: `${BASE_PATH}/zh-CN/nope 下没有页面。`
		}
	];
	for (const { path, locale, heading, text } of cases) {
		test(`${path}: the ${locale} 404 page, from 404.html and from the preview`, async ({
			page
		}) => {
			page.on('pageerror', (error) => {
				throw error;
			});
			// SvelteKit's router logs the path it has no route for, as it renders the error page.
			page.on('console', (message) => {
				const text = message.text();
				if (message.type() === 'error' && !/^Failed to load resource|Not found: /.test(text))
					throw new Error(`console error: ${text}`);
			});
			for (const url of [`${pages.origin}${BASE_PATH}${path}`, relative(path)]) {
				const response = await page.goto(url);
				expect(response?.status(), url).toBe(404);
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
				await expect(page.getByText(text, { exact: true })).toBeVisible();
				await expect.poll(() => lang(page)).toBe(locale);
				await expect(
					page.getByRole('link', { name: SWITCH[locale === 'en' ? 'en' : 'zh'] })
				).toBeVisible();
			}
		});
	}
});

test.describe('a browser whose language is Chinese', () => {
	test.use({ locale: 'zh-CN' });
	const offer = (page: Page) => page.getByText('本站有简体中文版。');

	test('is offered the Chinese page on English pages, never redirected, and not on Chinese pages', async ({
		page
	}) => {
		failOnPageErrors(page);
		for (const { en } of PAGES) {
			await page.goto(relative(en));
			await expect(offer(page)).toBeVisible();
			await page.waitForLoadState('networkidle');
			await expect(page).toHaveURL(new RegExp(`${BASE_PATH}${en}$`));
			expect(await lang(page)).toBe('en');
		}
		for (const { zh } of PAGES) {
			await page.goto(relative(zh));
			await hydrated(page);
			await expect(offer(page)).toHaveCount(0);
		}
	});

	test('who keeps English is not offered again', async ({ page }) => {
		failOnPageErrors(page);
		await page.goto('./verify');
		await page.getByRole('button', { name: '保持英文' }).click();
		await expect(offer(page)).toHaveCount(0);
		await page.reload();
		await hydrated(page);
		await expect(offer(page)).toHaveCount(0);
		await page.goto('./');
		await hydrated(page);
		await expect(offer(page)).toHaveCount(0);
		await expectOnlyTheLanguage(page, 'en');
	});

	test('who takes the offer gets the same page in Chinese, and is not offered it on English pages', async ({
		page
	}) => {
		failOnPageErrors(page);
		await page.goto('./errors');
		await page.getByRole('link', { name: '切换到简体中文' }).click();
		await expect(page).toHaveURL(new RegExp(`${BASE_PATH}/zh-CN/errors$`));
		await expect.poll(() => lang(page)).toBe('zh-CN');
		await page.getByRole('link', { name: SWITCH.zh, exact: true }).click();
		await expect(page).toHaveURL(new RegExp(`${BASE_PATH}/errors$`));
		await expect(offer(page)).toHaveCount(0);
		await page.goto('./');
		await hydrated(page);
		await expect(offer(page)).toHaveCount(0);
	});
});

// Every Chinese page, those without an English twin in PAGES' tests too.
for (const zh of [...PAGES.map((pair) => pair.zh), '/zh-CN/sandbox', '/zh-CN/triage']) {
	test(`no axe violations and no English prose on ${zh}`, async ({ page }) => {
		await page.goto(relative(zh));
		await hydrated(page);
		expect(await violations(page)).toEqual([]);
		await expectNoEnglishProse(page);
	});
}
