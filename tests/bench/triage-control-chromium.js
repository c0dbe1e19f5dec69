// A control for the page's triage ratio: the reference's own work (triage-reference-line.js) in
// Chromium's Web Workers, as many as the page's pool, each reading its own line-aligned range of
// the same File the page is given (triage-control-worker.js). Started 2 seconds before the run, as
// the page's pool is; timed from the post to the last count, once as they start (cold), and once
// more on the same workers (warm: their code compiled, as the page's warm-up compiles the pool's).
// It shows what this browser on this machine gives a plain script that does nothing more than the
// reference does: the page, which also diagnoses, groups, tells nonces and draws its verdicts,
// cannot be expected to beat it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from './measure.js';
import { bundleForBrowser } from './projects.js';
import { lineCuts } from './triage-control-threads.js';
import { serveStatic } from './static-server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** The control's page: a file input, and the functions the harness calls. */
const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>triage control</title>
<label>Log <input type="file"></label>
<script type="module">
window.startWorkers = (count) => {
	window.workers = Array.from({ length: count }, () => new Worker('/control-worker.js', { type: 'module' }));
};
// The cuts come from the harness (lineCuts, on the same file): byte offsets just after line feeds.
window.runControl = async (keysText, at) => {
	const file = document.querySelector('input').files[0];
	const started = performance.now();
	const parts = await Promise.all(window.workers.map((worker, index) => new Promise((resolve) => {
		worker.onmessage = (event) => resolve(event.data);
		worker.postMessage({ file, start: at[index], end: at[index + 1], keysText });
	})));
	const ms = performance.now() - started;
	const counts = { match: 0, mismatch: 0, noKey: 0, unreadable: 0 };
	for (const part of parts) for (const name in counts) counts[name] += part[name];
	return { ms, counts };
};
</script>
</html>
`;

/**
 * @typedef {import('./triage-reference-line.js').ReferenceCounts} ReferenceCounts
 * @param {{ dir: string, executablePath: string | undefined, logPath: string, keysText: string, workers: number, rounds: number }} options
 * @returns {Promise<{ coldMs: number, warmMs: number, counts: ReferenceCounts }>} the fastest of
 *   the rounds, cold and warm, each round in a fresh browser
 */
export async function chromiumControl({ dir, executablePath, logPath, keysText, workers, rounds }) {
	const out = join(dir, 'control-out');
	await bundleForBrowser({
		root: dir,
		entry: join(HERE, 'triage-control-worker.js'),
		outDir: out,
		fileName: 'control-worker.js'
	});
	const page = join(dir, 'control.html');
	await writeFile(page, PAGE);
	const server = await serveStatic(out, { '/__control/': page });
	// Each worker's range of the log, cut as the thread control cuts it.
	const cuts = lineCuts(logPath, workers);
	let coldMs = Number.POSITIVE_INFINITY;
	let warmMs = Number.POSITIVE_INFINITY;
	/** @type {ReferenceCounts | undefined} */
	let counts;
	try {
		for (let round = 0; round < rounds; round++) {
			const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
			try {
				const tab = await browser.newPage();
				await tab.goto(`${server.origin}/__control/`);
				await tab.evaluate((count) => /** @type {any} */ (window).startWorkers(count), workers);
				// As the page's pool: started while a person chooses the log and pastes the keys.
				await tab.waitForTimeout(2000);
				await tab.getByLabel('Log').setInputFiles(logPath);
				/** @returns {Promise<{ ms: number, counts: ReferenceCounts }>} */
				const run = () =>
					tab.evaluate(
						([keys, at]) => /** @type {any} */ (window).runControl(keys, at),
						/** @type {const} */ ([keysText, cuts])
					);
				const cold = await run();
				await tab.waitForTimeout(1000);
				const warm = await run();
				coldMs = Math.min(coldMs, cold.ms);
				warmMs = Math.min(warmMs, warm.ms);
				counts = warm.counts;
			} finally {
				await browser.close();
			}
		}
	} finally {
		await server.close();
	}
	if (counts === undefined) throw new Error('the Chromium control ran no round');
	return { coldMs, warmMs, counts };
}
