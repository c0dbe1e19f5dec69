// The browser the suites and the bench measure in runs the page under test and nothing of its own
// beside it. Chromium 156 in headless mode starts the address bar's suggestion popup, a browser-UI
// page with a renderer of its own that spent 1.5 to 2.8 s of CPU after each launch on a 2-core
// machine (tests/tools/chromium.js turns it off). A later Chromium that renames the features turned
// off would bring it back without a word; this fails instead.
import { expect, test, type Browser } from '@playwright/test';
import { Launcher } from 'chrome-launcher';
import { CHROMIUM_FLAGS } from '../bench/measure.js';
import { chromiumPath } from '../tools/chromium.js';

/** The URLs of the browser-UI pages `browser` runs, once a page of ours has loaded. */
async function browserUiPages(browser: Browser, url: string): Promise<string[]> {
	const page = await browser.newPage();
	await page.goto(url);
	const cdp = await browser.newBrowserCDPSession();
	// Chromium makes the popup's page as it starts, before any page of ours has loaded: without the
	// flag, the list held chrome://omnibox-popup.top-chrome/ (twice) at the first look.
	const { targetInfos } = await cdp.send('Target.getTargets');
	expect(targetInfos.some((target) => target.type === 'page')).toBe(true);
	await cdp.detach();
	await page.close();
	return targetInfos
		.filter((target) => target.type === 'browser_ui' || target.url.startsWith('chrome://'))
		.map((target) => target.url);
}

test.beforeEach(({ browserName }) => {
	test.skip(browserName !== 'chromium', 'a Chromium launch flag');
});

test('the tests’ Chromium starts no browser-UI page beside the page under test', async ({
	browser,
	baseURL
}) => {
	expect(await browserUiPages(browser, baseURL ?? '')).toEqual([]);
});

test('nor does the bench’s, after Lighthouse’s launcher puts its own --disable-features first', async ({
	playwright,
	baseURL
}) => {
	// chrome-launcher's defaults, then the bench's flags, in that order (as Lighthouse starts it):
	// Chromium must merge the two lists rather than keep only the last.
	const browser = await playwright.chromium.launch({
		executablePath: chromiumPath,
		args: [...Launcher.defaultFlags(), ...CHROMIUM_FLAGS]
	});
	try {
		expect(await browserUiPages(browser, baseURL ?? '')).toEqual([]);
	} finally {
		await browser.close();
	}
});
