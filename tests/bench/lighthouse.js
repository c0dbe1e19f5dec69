// Lighthouse in Debian's Chromium started by chrome-launcher: the desktop preset's performance,
// accessibility and best-practices scores of one page (lighthouseScores), and the mobile preset's
// performance figures of one page (lighthouseMobile). The mobile preset is Lighthouse's default
// configuration: a Moto G Power's screen, slow 4G (150 ms, 1.6 Mbit/s) and a CPU 4 times slower,
// simulated (Lantern) from a trace of an unthrottled load.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from './measure.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/**
 * @typedef {{ scores: Record<string, number | null>, misses: string[], warnings: string[] }} LighthouseResult
 */

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
 * Lighthouse's desktop preset on one page: its three scores, and the scored audits that cost points.
 * @param {string} url
 * @param {string} chromePath
 * @returns {Promise<LighthouseResult>}
 */
export async function lighthouseScores(url, chromePath) {
	const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
	const lhr = await runLighthouse(url, chromePath, CATEGORIES, desktopConfig);
	/** @type {Record<string, number | null>} */
	const scores = {};
	/** @type {string[]} */
	const misses = [];
	for (const id of CATEGORIES) {
		const category = lhr.categories[id];
		scores[id] = category?.score == null ? null : Math.round(category.score * 100);
		// The scored audits that cost points, so a reader knows where a missing point went.
		for (const reference of category?.auditRefs ?? []) {
			const audit = lhr.audits[reference.id];
			if (reference.weight > 0 && audit && audit.score !== null && audit.score < 1) {
				const value = audit.displayValue ? ` (${audit.displayValue})` : '';
				misses.push(`${id}: ${audit.id} ${Math.round(audit.score * 100)}/100${value}`);
			}
		}
	}
	return { scores, misses, warnings: lhr.runWarnings ?? [] };
}

/**
 * @typedef {object} MobileRun
 * @property {number} performance the score, 0 to 100
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
 * Lighthouse's mobile preset (its default configuration) on one page, performance only.
 * @param {string} url
 * @param {string} chromePath
 * @returns {Promise<MobileRun>}
 */
export async function lighthouseMobile(url, chromePath) {
	const lhr = await runLighthouse(url, chromePath, ['performance']);
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

/** The pages measured with the mobile preset: every page, in both languages. */
export const MOBILE_PAGES = [
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
 * are this machine's floor: on the 2-core host of 2026-11-28, it gave LCP − FCP 0, 127 and 82 ms
 * and TBT 5, 57 and 64 ms (observed, that is unthrottled, FCP and LCP in the same frame: Lantern's
 * pessimistic LCP counts every layout task before the paint, FCP's only the first).
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

/** Issue 27's targets for every page, each a median of the runs. */
export const MOBILE_TARGETS = { performance: 100, lcpAfterFcp: 50, tbt: 50 };

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
 * @typedef {{ page: string, runs: MobileRun[], performance: number, fcp: number, lcp: number,
 *   lcpAfterFcp: number, tbt: number, si: number, cls: number }} MobilePage
 */

/**
 * The mobile preset on every page, `runs` times each, the pages taken in turn (page 1, page 2, …,
 * then again), so that a busy moment of the machine falls on one run of several pages rather than
 * on every run of one page. Prints each run, then each page's medians (each figure the median of
 * its runs; LCP − FCP the median of each run's difference) with the targets.
 * The control page, when given (writeControlPage), is measured in turn with them and printed as
 * the machine's floor, not held to the targets.
 * @param {{ origin: string, basePath: string, chromePath: string, runs?: number,
 *   pages?: string[], control?: string, log: (line: string) => void }} options
 * @returns {Promise<{ pages: MobilePage[], rows: [string, string, string, boolean | null][] }>}
 */
export async function lighthouseMobileSection({
	origin,
	basePath,
	chromePath,
	runs = 3,
	pages: sitePages = MOBILE_PAGES,
	control,
	log
}) {
	const pages = control === undefined ? sitePages : [...sitePages, control];
	log(
		`\n## Lighthouse, mobile preset (slow 4G, 4x CPU, simulated), every page, median of ${runs} runs`
	);
	log(
		`served as GitHub Pages serves it: gzip, under ${basePath}/; load average before: ${loadAverage()}`
	);
	log(chineseFontLine());
	/** @type {Map<string, MobileRun[]>} */
	const byPage = new Map(pages.map((page) => [page, []]));
	for (let round = 1; round <= runs; round += 1) {
		for (const page of pages) {
			const run = await lighthouseMobile(`${origin}${basePath}${page}`, chromePath);
			byPage.get(page)?.push(run);
			log(
				`run ${round}/${runs} ${page.padEnd(15)} performance ${String(run.performance).padStart(3)}, FCP ${msText(run.fcp)}, LCP ${msText(run.lcp)} (LCP − FCP ${msText(run.lcp - run.fcp)}), TBT ${msText(run.tbt)}; unthrottled FCP ${msText(run.observedFcp)}, LCP ${msText(run.observedLcp)}; load ${run.loadAverage}`
			);
			for (const warning of run.warnings) log(`    warning: ${warning}`);
		}
	}
	/** @type {MobilePage[]} */
	const results = pages.map((page) => {
		const pageRuns = byPage.get(page) ?? [];
		/** @param {(run: MobileRun) => number} pick */
		const median = (pick) => middle(pageRuns.map(pick));
		return {
			page,
			runs: pageRuns,
			performance: median((run) => run.performance),
			fcp: median((run) => run.fcp),
			lcp: median((run) => run.lcp),
			lcpAfterFcp: median((run) => run.lcp - run.fcp),
			tbt: median((run) => run.tbt),
			si: median((run) => run.si),
			cls: median((run) => run.cls)
		};
	});
	const targets = MOBILE_TARGETS;
	log(
		`\nmedians of ${runs} runs (targets: performance ${targets.performance}, LCP − FCP ≤ ${targets.lcpAfterFcp} ms, TBT ≤ ${targets.tbt} ms); load average after: ${loadAverage()}`
	);
	log('| page | performance | FCP | LCP | LCP − FCP | TBT | speed index | CLS | LCP element |');
	log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
	for (const result of results) {
		const elements = [...new Set(result.runs.map((run) => run.lcpElement))].join(', ');
		log(
			`| ${result.page} | ${result.performance} | ${msText(result.fcp)} | ${msText(result.lcp)} | ${msText(result.lcpAfterFcp)} | ${msText(result.tbt)} | ${msText(result.si)} | ${result.cls.toFixed(3)} | \`${elements}\` |`
		);
	}
	const benchmark = results.flatMap((result) =>
		result.runs.map((run) => run.benchmarkIndex).filter((index) => index !== null)
	);
	if (benchmark.length > 0)
		log(
			`Lighthouse's benchmark index of this machine (CPU speed): ${Math.round(middle(benchmark))} (median of the runs)`
		);
	/** @param {MobilePage} result */
	const meets = (result) =>
		result.performance >= targets.performance &&
		result.lcpAfterFcp <= targets.lcpAfterFcp &&
		result.tbt <= targets.tbt;
	const floor = results.find((result) => result.page === control);
	if (floor !== undefined)
		log(
			`the control (${control}: plain HTML, no script, no stylesheet) ${meets(floor) ? 'meets' : 'does not meet'} the targets: ${floor.performance} · LCP − FCP ${msText(floor.lcpAfterFcp)} · TBT ${msText(floor.tbt)}${meets(floor) ? '' : ': the targets are below this machine’s floor'}`
		);
	/** @type {[string, string, string, boolean | null][]} */
	const rows = results.map((result) => [
		result === floor
			? `Lighthouse mobile, the control (plain HTML): this machine's floor (median of ${runs})`
			: `Lighthouse mobile ${result.page}: performance · LCP − FCP · TBT (median of ${runs})`,
		`${result.performance} · ${msText(result.lcpAfterFcp)} · ${msText(result.tbt)}`,
		result === floor
			? ''
			: `${targets.performance} · ≤ ${targets.lcpAfterFcp} ms · ≤ ${targets.tbt} ms`,
		result === floor ? null : meets(result)
	]);
	return { pages: results, rows };
}
