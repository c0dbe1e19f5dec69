// What the benchmark measures in Chromium: the bytes a page loads, the delay from a keystroke to the
// updated header, and the time a diagnosis takes in the browser.
import { gzipSync } from 'node:zlib';
import { chromiumArgs } from '../tools/chromium.js';

/** Flags for every Chromium the bench starts: those of every tool here (no sandbox, no GPU, no
 * traffic of its own, no hidden address-bar popup), and a resolver that refuses every name, so that
 * nothing can leave the loopback address. */
export const CHROMIUM_FLAGS = [
	...chromiumArgs,
	'--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'
];

const WEIGHED_TYPES = new Set(['document', 'script', 'stylesheet']);

/**
 * @typedef {{ url: string, type: string, bytes: number, gzip: number }} WeighedFile
 * @typedef {{ files: WeighedFile[], bytes: number, gzip: number }} Weight
 */

/**
 * Loads `url` in a fresh context and weighs every same-origin document, script and stylesheet it
 * loads: the bytes as served, gzip-compressed at level 9 one file at a time.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @param {(page: import('@playwright/test').Page) => Promise<void>} ready resolves once the page is up
 * @returns {Promise<Weight>}
 */
export async function pageWeight(browser, url, ready) {
	// No service worker: its install would fetch every asset of the site, which the page does not load.
	const context = await browser.newContext({ serviceWorkers: 'block' });
	try {
		const page = await context.newPage();
		const origin = new URL(url).origin;
		/** @type {Promise<WeighedFile | null>[]} */
		const pending = [];
		page.on('response', (response) => {
			const type = response.request().resourceType();
			if (!WEIGHED_TYPES.has(type) || new URL(response.url()).origin !== origin) return;
			pending.push(
				response
					.body()
					.then((body) => ({
						url: response.url().slice(origin.length),
						type,
						bytes: body.length,
						gzip: gzipSync(body, { level: 9 }).length
					}))
					.catch(() => null)
			);
		});
		await page.goto(url, { waitUntil: 'load' });
		await ready(page);
		await page.waitForLoadState('networkidle');
		const seen = new Set();
		/** @type {WeighedFile[]} */
		const files = [];
		for (const file of await Promise.all(pending)) {
			if (file === null || seen.has(file.url)) continue;
			seen.add(file.url);
			files.push(file);
		}
		return {
			files,
			bytes: files.reduce((sum, file) => sum + file.bytes, 0),
			gzip: files.reduce((sum, file) => sum + file.gzip, 0)
		};
	} finally {
		await context.close();
	}
}

/**
 * Types `count` characters into the kid field, one at a time, and times each from its keydown to
 * the moment the Authorization header shows the new kid.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url the playground
 * @param {number} count
 * @returns {Promise<number[]>} milliseconds, one per keystroke
 */
export async function keystrokeLatency(browser, url, count) {
	const context = await browser.newContext({ serviceWorkers: 'block' });
	try {
		const page = await context.newPage();
		/** @type {Error[]} */
		const errors = [];
		page.on('pageerror', (error) => errors.push(error));
		await page.goto(url);
		const header = page.getByRole('status', { name: 'Authorization header', exact: true });
		// The header is rendered only once the page has hydrated.
		await header.waitFor({ state: 'visible' });
		const kid = page.getByLabel('kid', { exact: true });
		await kid.focus();
		await kid.press('End');
		const headerElement = await header.elementHandle();
		await kid.evaluate((input, output) => {
			const field = /** @type {HTMLInputElement} */ (input);
			/** @type {{ start: number, expected: string } | null} */
			let pending = null;
			/** @type {number[]} */
			const samples = [];
			Object.assign(window, { __keystrokeSamples: samples });
			const check = () => {
				if (pending !== null && (output.textContent ?? '').includes(`id="${pending.expected}"`)) {
					samples.push(performance.now() - pending.start);
					pending = null;
				}
			};
			window.addEventListener(
				'keydown',
				(event) => {
					if (event.target !== field || event.key.length !== 1) return;
					const start = performance.now();
					const at = field.selectionStart ?? field.value.length;
					const expected = field.value.slice(0, at) + event.key + field.value.slice(at);
					pending = { start, expected };
				},
				true
			);
			new MutationObserver(check).observe(output, {
				childList: true,
				subtree: true,
				characterData: true
			});
		}, headerElement);

		const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
		for (let index = 0; index < count; index += 1) {
			await page.keyboard.press(alphabet.charAt(index % alphabet.length));
			await page.waitForFunction(
				(expected) =>
					/** @type {{ __keystrokeSamples: number[] }} */ (/** @type {unknown} */ (window))
						.__keystrokeSamples.length >= expected,
				index + 1,
				{ timeout: 10_000 }
			);
		}
		if (errors.length > 0)
			throw new Error(`page errors while typing: ${errors.map(String).join('; ')}`);
		return await page.evaluate(
			() =>
				/** @type {{ __keystrokeSamples: number[] }} */ (/** @type {unknown} */ (window))
					.__keystrokeSamples
		);
	} finally {
		await context.close();
	}
}

/**
 * @typedef {{ name: string, input: import('../../src/lib/diagnosis').DiagnoseInput, expect: string }} DiagnoseCase
 * @typedef {{ name: string, verdict: string, explanation: string, variantsTried: number, samples: number[] }} DiagnoseTiming
 */

/**
 * Times `diagnose` in Chromium: the verify module bundled by Vite, imported into a blank page on
 * the same loopback origin (a secure context, so SubtleCrypto is there).
 * @param {import('@playwright/test').Browser} browser
 * @param {string} pageUrl a blank page
 * @param {string} moduleUrl the bundle
 * @param {DiagnoseCase[]} cases
 * @param {{ warmUp: number, runs: number }} counts
 * @returns {Promise<DiagnoseTiming[]>}
 */
export async function diagnoseTimes(browser, pageUrl, moduleUrl, cases, counts) {
	const context = await browser.newContext({ serviceWorkers: 'block' });
	try {
		const page = await context.newPage();
		await page.goto(pageUrl);
		return await page.evaluate(
			async ({ moduleUrl, cases, counts }) => {
				/** @type {typeof import('../../src/lib/diagnosis')} */
				const verify = await import(moduleUrl);
				const results = [];
				for (const { name, input } of cases) {
					for (let run = 0; run < counts.warmUp; run += 1) await verify.diagnose(input);
					const samples = [];
					let last = await verify.diagnose(input);
					for (let run = 0; run < counts.runs; run += 1) {
						const start = performance.now();
						last = await verify.diagnose(input);
						samples.push(performance.now() - start);
					}
					results.push({
						name,
						verdict: last.verdict,
						explanation: last.explanations.map((explanation) => explanation.id).join(', '),
						variantsTried: last.variantsTried,
						samples
					});
				}
				return results;
			},
			{ moduleUrl, cases, counts }
		);
	} finally {
		await context.close();
	}
}

/**
 * @param {number[]} values
 * @param {number} fraction 0.5 for the median, 0.95 for p95 (nearest rank)
 */
export function percentile(values, fraction) {
	const sorted = [...values].sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const rank = Math.max(1, Math.ceil(fraction * sorted.length));
	return sorted[Math.min(rank, sorted.length) - 1] ?? NaN;
}

/**
 * The median: the middle value, or the mean of the two middle ones.
 * @param {number[]} values
 */
export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	if (sorted.length === 0) return NaN;
	if (sorted.length % 2 === 1) return sorted[middle] ?? NaN;
	return ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}
