// Lighthouse in Debian's Chromium started by chrome-launcher, on every page with both presets:
// performance and accessibility, three runs each, beside a plain HTML control page measured in the
// same run (lighthouseSection). The mobile preset is Lighthouse's default configuration: a Moto G
// Power's screen, slow 4G (150 ms, 1.6 Mbit/s) and a CPU 4 times slower, simulated (Lantern) from a
// trace of an unthrottled load; the desktop preset is Lighthouse's `desktopConfig`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from './measure.js';

const CATEGORIES = ['performance', 'accessibility'];

/**
 * Runs Lighthouse once on `url` in a Chromium of its own.
 * @param {string} url
 * @param {string} chromePath
 * @param {string[]} categories
 * @param {object} [config] a Lighthouse configuration; its default (the mobile preset) when left out
 */
async function runLighthouse(url, chromePath, categories, config) {
	const [{ default: lighthouse }, chromeLauncher] = await Promise.all([
		import('lighthouse'),
		import('chrome-launcher')
	]);
	const chrome = await chromeLauncher.launch({
		chromePath,
		chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
		logLevel: 'silent'
	});
	try {
		const result = await lighthouse(
			url,
			{ port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories },
			config
		);
		if (result === undefined) throw new Error('Lighthouse returned no result');
		const { lhr } = result;
		if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
		return lhr;
	} finally {
		chrome.kill();
	}
}

/**
 * @typedef {'mobile' | 'desktop'} Preset
 * @typedef {object} Run
 * @property {number} performance the score, 0 to 100
 * @property {number} accessibility the score, 0 to 100
 * @property {number} fcp first contentful paint, simulated (ms)
 * @property {number} lcp largest contentful paint, simulated (ms)
 * @property {number} tbt total blocking time, simulated (ms)
 * @property {number} si speed index, simulated (ms)
 * @property {number} cls cumulative layout shift
 * @property {number} observedFcp first contentful paint as the unthrottled load painted it (ms)
 * @property {number} observedLcp largest contentful paint as the unthrottled load painted it (ms)
 * @property {string} lcpElement the largest contentful paint's element (a CSS selector)
 * @property {number | null} benchmarkIndex Lighthouse's measure of this machine's CPU speed
 * @property {string} loadAverage /proc/loadavg's 1, 5 and 15 minute figures as the run ended
 * @property {string[]} warnings
 */

/** The machine's load average (1, 5 and 15 minutes), or '' where there is no /proc. */
export function loadAverage() {
	try {
		return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
	} catch {
		return '';
	}
}

/**
 * Lighthouse on one page with one preset: performance and accessibility.
 * @param {string} url
 * @param {string} chromePath
 * @param {Preset} preset
 * @returns {Promise<Run>}
 */
export async function lighthouseRun(url, chromePath, preset) {
	const config =
		preset === 'desktop'
			? (await import('lighthouse/core/config/desktop-config.js')).default
			: undefined;
	const lhr = await runLighthouse(url, chromePath, CATEGORIES, config);
	const metrics = /** @type {{ items?: Record<string, number>[] } | undefined} */ (
		lhr.audits.metrics?.details
	)?.items?.[0];
	if (metrics === undefined) throw new Error('Lighthouse reported no metrics');
	/** @param {string} name */
	const metric = (name) => {
		const value = metrics[name];
		if (typeof value !== 'number') throw new Error(`Lighthouse reported no ${name}`);
		return value;
	};
	// The element of the largest contentful paint, as the audit names it.
	const element = /** @type {any} */ (lhr.audits['largest-contentful-paint-element']?.details)
		?.items?.[0]?.items?.[0]?.node?.selector;
	return {
		performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
		accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
		fcp: metric('firstContentfulPaint'),
		lcp: metric('largestContentfulPaint'),
		tbt: metric('totalBlockingTime'),
		si: metric('speedIndex'),
		cls: metric('cumulativeLayoutShift'),
		observedFcp: metric('observedFirstContentfulPaint'),
		observedLcp: metric('observedLargestContentfulPaint'),
		lcpElement: typeof element === 'string' ? element : '?',
		benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
		loadAverage: loadAverage(),
		warnings: lhr.runWarnings ?? []
	};
}

/** The pages measured: every page, in both languages. */
export const PAGES = [
	'/',
	'/verify',
	'/triage',
	'/errors',
	'/sandbox',
	'/zh-CN/',
	'/zh-CN/verify',
	'/zh-CN/triage',
	'/zh-CN/errors',
	'/zh-CN/sandbox'
];

/**
 * Which of the machine's fonts has Chinese glyphs, as fontconfig tells Chromium on Linux. Every
 * phone has one; a machine without any looks for each glyph in fallbacks that lack it: /zh-CN/'s
 * median TBT was 592 ms without one and 277 ms with Droid Sans Fallback (Chromium 156, 3 runs each,
 * 2026-11-27), where / was about 200 ms either way.
 */
function chineseFontLine() {
	try {
		const families = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' })
			.split('\n')
			.map((line) => line.split(',')[0]?.trim() ?? '')
			.filter((family) => family !== '');
		if (families.length > 0)
			return `Chinese text in ${[...new Set(families)].sort().join(', ')} (fc-list :lang=zh)`;
		return 'warning: no font with Chinese glyphs (fc-list :lang=zh is empty): the /zh-CN/ pages are slower here than on any phone; install fonts-droid-fallback or fonts-noto-cjk';
	} catch {
		return 'fonts: fc-list did not run (not Linux?)';
	}
}

/**
 * The control: a plain HTML page, a heading and a paragraph, no script, no stylesheet, no font,
 * measured in turn with the pages. It is the least work a page can give the browser, so its figures
 * are this machine's floor, printed beside the pages'.
 */
const CONTROL_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Control</title><meta name="description" content="A plain page: the floor of this machine's Lighthouse figures"></head>
<body><h1>Control</h1><p>A plain page with a heading and this paragraph, no script, no stylesheet and no web font: whatever Lighthouse gives it is this machine's floor, not any page's doing.</p></body></html>
`;

/** Where the control page is served, under the site's base path. */
export const CONTROL_PATH = '/lighthouse-control/';

/**
 * Writes the control page into a built site, at CONTROL_PATH.
 * @param {string} build the site's directory, as it is served
 */
export async function writeControlPage(build) {
	const directory = join(build, ...CONTROL_PATH.split('/').filter(Boolean));
	await mkdir(directory, { recursive: true });
	await writeFile(join(directory, 'index.html'), CONTROL_PAGE);
}

/** Issue 41's budgets for every page, each a median of the runs. */
export const BUDGETS = { mobile: 85, desktop: 100, accessibility: 100 };

/**
 * @param {number[]} values
 * @returns {number}
 */
function middle(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const half = Math.floor(sorted.length / 2);
	if (sorted.length % 2 === 1) return sorted[half] ?? NaN;
	return ((sorted[half - 1] ?? NaN) + (sorted[half] ?? NaN)) / 2;
}

/** @param {number} value */
const msText = (value) => `${Math.round(value)} ms`;

/**
 * @typedef {{ page: string, mobile: Run[], desktop: Run[], performance: Record<Preset, number>,
 *   accessibility: number }} PageResult
 */

/**
 * Both presets on every page, `runs` times each, the pages taken in turn (page 1, page 2, …, then
 * again), so that a busy moment of the machine falls on one run of several pages rather than on
 * every run of one page. Prints each run, then each page's medians beside the budgets. The control
 * page, when given (writeControlPage), is measured in turn with them and printed as the machine's
 * floor, not held to the budgets.
 * @param {{ origin: string, basePath: string, chromePath: string, runs?: number,
 *   pages?: string[], control?: string, log: (line: string) => void }} options
 * @returns {Promise<{ pages: PageResult[], rows: [string, string, string, boolean | null][] }>}
 */
export async function lighthouseSection({
	origin,
	basePath,
	chromePath,
	runs = 3,
	pages: sitePages = PAGES,
	control,
	log
}) {
	const pages = control === undefined ? sitePages : [...sitePages, control];
	/** @type {Preset[]} */
	const presets = ['mobile', 'desktop'];
	log(
		`\n## Lighthouse, mobile preset (slow 4G, 4x CPU, simulated) and desktop preset (desktopConfig), every page, median of ${runs} runs`
	);
	log(
		`served as GitHub Pages serves it: gzip, under ${basePath}/; load average before: ${loadAverage()}`
	);
	log(chineseFontLine());
	/** @type {Map<string, Record<Preset, Run[]>>} */
	const byPage = new Map(pages.map((page) => [page, { mobile: [], desktop: [] }]));
	for (let round = 1; round <= runs; round += 1)
		for (const preset of presets)
			for (const page of pages) {
				const run = await lighthouseRun(`${origin}${basePath}${page}`, chromePath, preset);
				byPage.get(page)?.[preset].push(run);
				log(
					`run ${round}/${runs} ${preset.padEnd(7)} ${page.padEnd(15)} performance ${String(run.performance).padStart(3)}, accessibility ${run.accessibility}, FCP ${msText(run.fcp)}, LCP ${msText(run.lcp)}, TBT ${msText(run.tbt)}; load ${run.loadAverage}`
				);
				for (const warning of run.warnings) log(`    warning: ${warning}`);
			}
	/** @type {PageResult[]} */
	const results = pages.map((page) => {
		const { mobile, desktop } = byPage.get(page) ?? { mobile: [], desktop: [] };
		return {
			page,
			mobile,
			desktop,
			performance: {
				mobile: middle(mobile.map((run) => run.performance)),
				desktop: middle(desktop.map((run) => run.performance))
			},
			accessibility: Math.min(
				middle(mobile.map((run) => run.accessibility)),
				middle(desktop.map((run) => run.accessibility))
			)
		};
	});
	log(
		`\nmedians of ${runs} runs (budgets: mobile performance ≥ ${BUDGETS.mobile}, desktop ${BUDGETS.desktop}, accessibility ${BUDGETS.accessibility}); load average after: ${loadAverage()}`
	);
	log('| page | mobile | desktop | accessibility | mobile TBT | mobile LCP | desktop TBT |');
	log('| --- | --- | --- | --- | --- | --- | --- |');
	for (const result of results) {
		/** @param {Run[]} list @param {(run: Run) => number} pick */
		const median = (list, pick) => msText(middle(list.map(pick)));
		log(
			`| ${result.page} | ${result.performance.mobile} | ${result.performance.desktop} | ${result.accessibility} | ${median(result.mobile, (run) => run.tbt)} | ${median(result.mobile, (run) => run.lcp)} | ${median(result.desktop, (run) => run.tbt)} |`
		);
	}
	const benchmark = results.flatMap((result) =>
		result.mobile.map((run) => run.benchmarkIndex).filter((index) => index !== null)
	);
	if (benchmark.length > 0)
		log(
			`Lighthouse's benchmark index of this machine (CPU speed): ${Math.round(middle(benchmark))} (median of the runs)`
		);
	/** @param {PageResult} result */
	const meets = (result) =>
		result.performance.mobile >= BUDGETS.mobile &&
		result.performance.desktop >= BUDGETS.desktop &&
		result.accessibility >= BUDGETS.accessibility;
	const floor = results.find((result) => result.page === control);
	/** @param {PageResult} result */
	const value = (result) =>
		`${result.performance.mobile} · ${result.performance.desktop} · ${result.accessibility}`;
	/** @type {[string, string, string, boolean | null][]} */
	const rows = results
		.filter((result) => result !== floor)
		.map((result) => [
			`Lighthouse ${result.page}: mobile · desktop performance · accessibility (median of ${runs})${floor ? ` [control: ${value(floor)}]` : ''}`,
			value(result),
			`≥ ${BUDGETS.mobile} · ${BUDGETS.desktop} · ${BUDGETS.accessibility}`,
			meets(result)
		]);
	if (floor !== undefined)
		rows.push([
			`Lighthouse, the control (plain HTML, same run): mobile · desktop performance · accessibility`,
			value(floor),
			'',
			null
		]);
	return { pages: results, rows };
}
