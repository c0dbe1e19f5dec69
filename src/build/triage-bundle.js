// `npm run triage` runs from a bundle of its TypeScript: src/node/triage/cli.ts and the pool's
// worker thread (pool-thread.ts), built by Vite (Rolldown) into
// node_modules/.cache/mac-triage/<key>/ on first use and reused while the sources are unchanged. A
// worker thread cannot load TypeScript through Vite's module runner without paying its start-up in
// every thread, and the command starts in a fraction of the time the runner takes (start-up counts
// in every run of a pipeline). JavaScript, not TypeScript: src/node/triage/run.js loads it under
// plain Node 20.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const LIB = join(SRC, 'lib');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = {
	cli: fileURLToPath(new URL('../node/triage/cli.ts', import.meta.url)),
	'pool-thread': fileURLToPath(new URL('../node/triage/pool-thread.ts', import.meta.url))
};
/** What the bundle is made of: the command's code, what it shares with the page, and this file. */
const SOURCES = [join(SRC, 'node'), LIB, join(SRC, 'build')];

/**
 * What the bundle is made of: every file of SOURCES (name, size and time of change) and the lock
 * file of the packages; a change to any of them makes a new bundle.
 * @returns {Promise<string>}
 */
async function sourcesKey() {
	const hash = createHash('sha256');
	// Synchronous calls: a few hundred of them take a few milliseconds, where awaiting each one in
	// turn took a tenth of a second and more of every run's start on a busy machine.
	/** @param {string} dir */
	const walk = (dir) => {
		const entries = readdirSync(dir, { withFileTypes: true });
		entries.sort((a, b) => (a.name < b.name ? -1 : 1));
		for (const entry of entries) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.isFile()) {
				const stats = statSync(path);
				hash.update(`${relative(SRC, path)}\0${stats.size}\0${stats.mtimeMs}\n`);
			}
		}
	};
	for (const dir of SOURCES) walk(dir);
	for (const file of ['package-lock.json', 'package.json']) {
		const path = join(ROOT, file);
		if (existsSync(path)) {
			const stats = statSync(path);
			hash.update(`${file}\0${stats.size}\0${stats.mtimeMs}\n`);
		}
	}
	hash.update(process.version);
	return hash.digest('hex').slice(0, 16);
}

/**
 * The bundle's two files, built now when the sources changed since the last build.
 * @returns {Promise<{ cli: URL, thread: URL }>}
 */
export async function triageBundle() {
	const cache = join(ROOT, 'node_modules', '.cache', 'mac-triage');
	const dir = join(cache, await sourcesKey());
	const files = () => ({
		cli: pathToFileURL(join(dir, 'cli.mjs')),
		thread: pathToFileURL(join(dir, 'pool-thread.mjs'))
	});
	if (existsSync(join(dir, 'done'))) return files();
	// Built beside its place and renamed into it: a run started meanwhile never loads half a bundle,
	// and two runs building at once both end with a whole one.
	await mkdir(cache, { recursive: true });
	const building = `${dir}.${process.pid}.${Date.now()}`;
	const { build } = await import('vite');
	// The command's standard error is its own: one line for a failure. Rolldown writes some of its
	// warnings there whatever the log level (its plugin timings, on a slow build): what the build
	// writes is held back, and dropped.
	const write = process.stderr.write;
	process.stderr.write = () => true;
	try {
		await buildInto(build, building);
	} finally {
		process.stderr.write = write;
	}
	await writeFile(join(building, 'done'), '');
	try {
		await rename(building, dir);
	} catch {
		// Another run put its bundle there first: the same sources, the same bundle.
		await rm(building, { recursive: true, force: true });
	}
	await prune(cache, dir);
	return files();
}

/**
 * @param {typeof import('vite').build} build
 * @param {string} building
 */
async function buildInto(build, building) {
	await build({
		configFile: false,
		logLevel: 'silent',
		resolve: { alias: { $lib: LIB } },
		ssr: { noExternal: true, target: 'node' },
		build: {
			ssr: true,
			outDir: building,
			emptyOutDir: true,
			minify: false,
			target: 'node20',
			rolldownOptions: {
				input: ENTRIES,
				output: {
					format: 'es',
					entryFileNames: '[name].mjs',
					chunkFileNames: 'chunks/[name]-[hash].mjs'
				},
				checks: { pluginTimings: false },
				onLog: () => undefined
			}
		}
	});
}

/** A bundle of older sources is removed a day after it was built: a run may still be using it. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * @param {string} cache
 * @param {string} current
 */
async function prune(cache, current) {
	for (const name of await readdir(cache).catch(() => [])) {
		const path = join(cache, name);
		if (path === current) continue;
		const stats = await stat(path).catch(() => null);
		if (stats !== null && Date.now() - stats.mtimeMs > KEEP_MS)
			await rm(path, { recursive: true, force: true }).catch(() => undefined);
	}
}
