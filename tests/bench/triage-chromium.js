// The triage engine in a Chromium worker, started the way the /triage page starts it
// (createTriageWorker: `new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })`,
// bundled by Vite) and
// driven through startTriage from the main thread: the time from start to summary, and the longest
// main-thread task meanwhile (the Long Tasks API: tasks over 50 ms). Until the page exists this stands in for it; the page's own figure
// (from the click to the last count) replaces it through triage.js's pageTriage hook.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from './measure.js';
import { bundleForBrowser } from './projects.js';
import { serveStatic } from './static-server.js';

/**
 * Bundles a small entry that starts the worker, as the site's build would (Vite, minified).
 * @param {string} project
 * @param {string} dir a temporary directory
 */
async function bundle(project, dir) {
	const lib = join(project, 'src', 'lib');
	const entry = join(dir, 'entry.js');
	await writeFile(
		entry,
		[
			`import { createTriageWorker, startTriage } from ${JSON.stringify(join(lib, 'triage', 'index.ts'))};`,
			'/** @param {Blob} file @param {string} keys @param {"own" | "noble" | "subtle"} hmac */',
			'export async function run(file, keys, hmac) {',
			'	const worker = createTriageWorker();',
			'	let longestTaskMs = 0;',
			'	const observer = new PerformanceObserver((list) => {',
			'		for (const entry of list.getEntries()) longestTaskMs = Math.max(longestTaskMs, entry.duration);',
			'	});',
			"	observer.observe({ type: 'longtask' });",
			'	let verdicts = 0;',
			'	const started = performance.now();',
			'	const summary = await startTriage(worker, file, keys, { onVerdicts: (batch) => { verdicts += batch.length; } }, { hmac }).done;',
			'	const ms = performance.now() - started;',
			'	observer.disconnect();',
			'	worker.terminate();',
			'	return { ms, longestTaskMs, verdicts, groups: summary.groups };',
			'}',
			''
		].join('\n')
	);
	await bundleForBrowser({ root: dir, entry, outDir: join(dir, 'out'), fileName: 'entry.js', lib });
	return join(dir, 'out');
}

/**
 * Each engine runs `rounds[engine]` times (default once) in a fresh page; the fastest run is kept:
 * on a shared machine the minimum is the run least disturbed.
 * @param {{ project: string, dir: string, logPath: string, keysText: string, engines: ('own' | 'noble' | 'subtle')[], rounds?: Partial<Record<'own' | 'noble' | 'subtle', number>> }} options
 * @returns {Promise<Record<string, { ms: number, longestTaskMs: number, verdicts: number, groups: Record<string, number> }>>}
 */
export async function chromiumWorkerTriage({
	project,
	dir,
	logPath,
	keysText,
	engines,
	rounds = {}
}) {
	const out = await bundle(project, dir);
	const blank = join(dir, 'blank.html');
	await writeFile(blank, '<!doctype html><html lang="en"><title>triage bench</title></html>\n');
	const server = await serveStatic(out, { '/__bench/': blank, '/__bench/log.ndjson': logPath });
	const executablePath =
		process.env.CHROMIUM_PATH ??
		(existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
	try {
		/** @type {Record<string, any>} */
		const results = {};
		for (const engine of engines) {
			for (let round = 0; round < (rounds[engine] ?? 1); round++) {
				const page = await browser.newPage();
				await page.goto(`${server.origin}/__bench/`);
				const result = await page.evaluate(
					async ({ keys, hmac }) => {
						// A URL only the page can load: held in a variable so that no checker resolves it here.
						const bundled = '/entry.js';
						const { run } = await import(/* @vite-ignore */ bundled);
						const file = await (await fetch('/__bench/log.ndjson')).blob();
						return run(file, keys, hmac);
					},
					{ keys: keysText, hmac: engine }
				);
				await page.close();
				if (results[engine] === undefined || result.ms < results[engine].ms)
					results[engine] = result;
			}
		}
		return results;
	} finally {
		await browser.close();
		await server.close();
	}
}
