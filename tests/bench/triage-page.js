// The /triage page of the built site in Chromium, for triage.js's pageTriage hook: the log chosen
// as a file, the keys typed, then the time from the click on Triage to the Summary's final counts, and
// the longest main-thread task meanwhile (Long Tasks API: only tasks over 50 ms are reported).
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from './measure.js';

/**
 * A PageTriage against the site served at `origin` (built with BASE_PATH unset).
 * @param {string} origin
 * @param {string | undefined} executablePath
 * @returns {import('./triage.js').PageTriage}
 */
export function pageTriageAt(origin, executablePath) {
	return async (logPath, keysText) => {
		const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
		try {
			const page = await browser.newPage();
			await page.goto(`${origin}/triage`);
			// A person takes seconds to choose a log and paste the keys: the page uses them to start its
			// pool of workers and warm them up (src/lib/triage/pool/warm-up.ts). Two seconds here.
			await page.waitForTimeout(2000);
			await page.getByLabel('Requests file').setInputFiles(logPath);
			await page.getByRole('textbox', { name: 'Keys', exact: true }).fill(keysText);
			// In the page: the click's time, the Summary's arrival, and every long task between.
			await page.evaluate(() => {
				const run = { clickAt: 0, doneAt: 0, longestTaskMs: 0 };
				/** @type {(value: unknown) => void} */
				let finished = () => undefined;
				const done = new Promise((resolve) => (finished = resolve));
				Object.assign(window, { __triageRun: run, __triageDone: done });
				new PerformanceObserver((list) => {
					for (const entry of list.getEntries())
						if (run.clickAt > 0 && run.doneAt === 0)
							run.longestTaskMs = Math.max(run.longestTaskMs, entry.duration);
				}).observe({ type: 'longtask' });
				const button = [...document.querySelectorAll('button')].find(
					(element) => element.textContent?.trim() === 'Triage'
				);
				button?.addEventListener('click', () => (run.clickAt = performance.now()), {
					capture: true
				});
				new MutationObserver((_, observer) => {
					// The Summary counts during the run (aria-busy) and holds the run's own at the end.
					const summary = document.querySelector('table[aria-labelledby="triage-summary-heading"]');
					if (run.clickAt > 0 && summary?.getAttribute('aria-busy') === 'false') {
						run.doneAt = performance.now();
						observer.disconnect();
						finished(undefined);
					}
				}).observe(document.body, {
					childList: true,
					subtree: true,
					attributes: true,
					attributeFilter: ['aria-busy']
				});
			});
			await page.getByRole('button', { name: 'Triage', exact: true }).click();
			// Awaits the page's own promise: nothing of the harness runs in the page during the run
			// (polling would compile Playwright's script there, on the main thread being measured).
			await page.evaluate(() =>
				Promise.race([
					/** @type {any} */ (window).__triageDone,
					new Promise((_, reject) =>
						setTimeout(() => reject(new Error('no final Summary in 10 minutes')), 600_000)
					)
				])
			);
			// Long tasks are reported after they end: give the last one time to arrive.
			await page.waitForTimeout(200);
			const run = await page.evaluate(
				() =>
					/** @type {{ clickAt: number, doneAt: number, longestTaskMs: number }} */ (
						/** @type {any} */ (window).__triageRun
					)
			);
			// The pool's size, as the page's triage worker chooses it (src/lib/triage/pool/pool.ts).
			const cores = await page.evaluate(() => navigator.hardwareConcurrency);
			return {
				ms: run.doneAt - run.clickAt,
				longestTaskMs: run.longestTaskMs,
				workers: Math.min(8, Math.max(2, cores))
			};
		} finally {
			await browser.close();
		}
	};
}
