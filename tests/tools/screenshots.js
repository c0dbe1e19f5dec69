// Takes screenshots of every page at 360 px and 1280 px, light and dark, for a person to look at.
// Usage: npm run build && npm run preview (under BASE_PATH), then `node tests/tools/screenshots.js [base URL]`.
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { chromiumArgs, chromiumPath } from './chromium.js';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:4173/mac-token-playground/';
const pages = (process.argv[3] ?? '').split(',').filter(Boolean);
const paths =
	pages.length > 0
		? pages
		: [
				'',
				'verify',
				'triage',
				'errors',
				'sandbox',
				'zh-CN/',
				'zh-CN/verify',
				'zh-CN/triage',
				'zh-CN/errors',
				'zh-CN/sandbox'
			];

mkdirSync('screenshots', { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
for (const path of paths) {
	for (const width of [360, 1280]) {
		for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
			const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
			page.on('pageerror', (error) => console.error(`page error on /${path}: ${error.message}`));
			await page.goto(new URL(path, baseUrl).href);
			// Once it has hydrated: its controls are enabled then (src/routes/+layout.svelte).
			await page
				.getByRole('button', { name: /^(?:Clear everything|全部清除)$/ })
				.and(page.locator(':enabled'))
				.waitFor();
			const file = `screenshots/${path.replace(/\/$/, '').replaceAll('/', '_') || 'home'}-${width}-${colorScheme}.png`;
			await page.screenshot({ path: file, fullPage: true });
			console.log(file);
			// A tall narrow page shrinks to nothing when viewed whole: also save it in screen-sized parts.
			const height = await page.evaluate(() => document.documentElement.scrollHeight);
			for (let y = 0, part = 1; width < 800 && y < height; y += 1000, part++) {
				const clip = { x: 0, y, width, height: Math.min(1000, height - y) };
				await page.screenshot({
					path: file.replace('.png', `-part${part}.png`),
					fullPage: true,
					clip
				});
			}
			await page.close();
		}
	}
}
await browser.close();
