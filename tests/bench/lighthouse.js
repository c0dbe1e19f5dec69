// Lighthouse's performance, accessibility and best-practices scores of one page, with Lighthouse's
// desktop preset, in Debian's Chromium started by chrome-launcher.
import { CHROMIUM_FLAGS } from './measure.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/**
 * @typedef {{ scores: Record<string, number | null>, misses: string[], warnings: string[] }} LighthouseResult
 */

/**
 * @param {string} url
 * @param {string} chromePath
 * @returns {Promise<LighthouseResult>}
 */
export async function lighthouseScores(url, chromePath) {
	const [{ default: lighthouse }, { default: desktopConfig }, chromeLauncher] = await Promise.all([
		import('lighthouse'),
		import('lighthouse/core/config/desktop-config.js'),
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
			{ port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
			desktopConfig
		);
		if (result === undefined) throw new Error('Lighthouse returned no result');
		const { lhr } = result;
		if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
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
	} finally {
		chrome.kill();
	}
}
