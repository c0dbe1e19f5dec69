// The HMAC-SHA-1 candidates (hmac-candidates.js) timed in Chromium: the bundle Vite makes of them
// and of the app's own signers (src/lib/triage/hmac), loaded in a blank page of a headless Chromium.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS } from './measure.js';
import { LIB, bundleForBrowser } from './projects.js';
import { serveStatic } from './static-server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/**
 * @param {{ dir: string, executablePath: string | undefined, count?: number }} options
 * @returns {Promise<Record<string, number | boolean>>}
 */
export async function chromiumHmacs({ dir, executablePath, count = 100_000 }) {
	const entry = join(dir, 'hmac-entry.js');
	await writeFile(
		entry,
		[
			`import { nobleSigner, ownCheck } from ${JSON.stringify(join(LIB, 'triage', 'hmac', 'index.ts'))};`,
			`import { timeCandidates } from ${JSON.stringify(join(HERE, 'hmac-candidates.js'))};`,
			'export const run = (count) => timeCandidates({ nobleSigner, ownCheck }, count);',
			''
		].join('\n')
	);
	const out = join(dir, 'hmac-out');
	await bundleForBrowser({ root: dir, entry, outDir: out, fileName: 'entry.js' });
	const blank = join(dir, 'hmac-blank.html');
	await writeFile(blank, '<!doctype html><html lang="en"><title>hmac bench</title></html>\n');
	const server = await serveStatic(out, { '/__bench/': blank });
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage();
		await page.goto(`${server.origin}/__bench/`);
		return await page.evaluate(async (n) => {
			// A URL only the page can load: held in a variable so that no checker resolves it here.
			const bundled = '/entry.js';
			const { run } = await import(/* @vite-ignore */ bundled);
			return run(n);
		}, count);
	} finally {
		await browser.close();
		await server.close();
	}
}
