// The browser the suites and the bench measure in runs the page under test and nothing of its own
// beside it. Chromium 156 in headless mode starts the address bar's suggestion popup, a browser-UI
// page with a renderer of its own that spent 1.5 to 2.8 s of CPU after each launch on a 2-core
// machine (tests/tools/chromium.js turns it off). A later Chromium that renames the features turned
// off would bring it back without a word; this fails instead.
import { expect, test } from '@playwright/test';

test('the tests’ Chromium starts no browser-UI page beside the page under test', async ({
	browser,
	browserName
}) => {
	test.skip(browserName !== 'chromium', 'a Chromium launch flag');
	const page = await browser.newPage();
	await page.goto('./');
	const cdp = await browser.newBrowserCDPSession();
	// Chromium makes the popup's page as it starts, before any page of ours has loaded: without the
	// flag, the list held chrome://omnibox-popup.top-chrome/ (twice) at the first look.
	const { targetInfos } = await cdp.send('Target.getTargets');
	const browserUi = targetInfos.filter(
		(target) => target.type === 'browser_ui' || target.url.startsWith('chrome://')
	);
	expect(browserUi.map((target) => target.url)).toEqual([]);
	expect(targetInfos.some((target) => target.type === 'page')).toBe(true);
	await cdp.detach();
	await page.close();
});
