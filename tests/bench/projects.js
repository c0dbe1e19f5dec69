// The sites the benchmark measures: the playground built from a snapshot of the working tree, and a
// bare SvelteKit page built with the same packages, both in temporary directories, so that the
// bench never writes into the project (its build/ and .svelte-kit/ stay as they were).
import { spawn } from 'node:child_process';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's src/lib, what `$lib` names. */
export const LIB = fileURLToPath(new URL('../../src/lib', import.meta.url));

/** What a snapshot leaves out: installed packages, outputs, and files no build reads. */
const NOT_COPIED = new Set([
	'node_modules',
	'build',
	'.svelte-kit',
	'.git',
	'test-results',
	'playwright-report',
	'screenshots',
	'bench-out'
]);

/**
 * Copies the project's sources (not its outputs) to `into`, with node_modules linked, not copied.
 * @param {string} project
 * @param {string} into
 */
export async function snapshotProject(project, into) {
	await cp(project, into, {
		recursive: true,
		filter: (source) => {
			const top = relative(project, source).split(/[\\/]/)[0] ?? '';
			return !NOT_COPIED.has(top) && !top.startsWith('vite.config.ts.timestamp-');
		}
	});
	await symlink(join(project, 'node_modules'), join(into, 'node_modules'), 'dir');
}

/**
 * Writes the smallest prerendered SvelteKit site: one page with one heading, adapter-static.
 * @param {string} project the project whose node_modules it uses
 * @param {string} into
 */
export async function writeBareProject(project, into) {
	await mkdir(join(into, 'src', 'routes'), { recursive: true });
	/** @type {Record<string, string>} */
	const files = {
		'package.json': `${JSON.stringify({ name: 'bare-sveltekit', private: true, type: 'module' }, null, '\t')}\n`,
		'svelte.config.js': [
			"import adapter from '@sveltejs/adapter-static';",
			'',
			'export default { kit: { adapter: adapter() } };',
			''
		].join('\n'),
		'vite.config.js': [
			"import { sveltekit } from '@sveltejs/kit/vite';",
			"import { defineConfig } from 'vite';",
			'',
			'export default defineConfig({ plugins: [sveltekit()] });',
			''
		].join('\n'),
		'src/app.html': [
			'<!doctype html>',
			'<html lang="en">',
			'\t<head>',
			'\t\t<meta charset="utf-8" />',
			'\t\t<meta name="viewport" content="width=device-width, initial-scale=1" />',
			'\t\t%sveltekit.head%',
			'\t</head>',
			'\t<body data-sveltekit-preload-data="hover">',
			'\t\t<div style="display: contents">%sveltekit.body%</div>',
			'\t</body>',
			'</html>',
			''
		].join('\n'),
		'src/routes/+layout.ts': 'export const prerender = true;\n',
		'src/routes/+page.svelte': '<h1>Hello</h1>\n'
	};
	for (const [name, text] of Object.entries(files)) await writeFile(join(into, name), text);
	await symlink(join(project, 'node_modules'), join(into, 'node_modules'), 'dir');
}

/**
 * Runs `vite build` in `cwd` with the project's vite, BASE_PATH unset unless `basePath` is given.
 * @param {string} project where vite is installed
 * @param {string} cwd
 * @param {string[]} [args] more arguments for `vite build`
 * @param {string} [basePath] the build's BASE_PATH (the path the site is served under), if any
 * @returns {Promise<number>} milliseconds taken
 */
export async function viteBuild(project, cwd, args = [], basePath) {
	const env = { ...process.env };
	delete env.BASE_PATH;
	if (basePath !== undefined) env.BASE_PATH = basePath;
	const started = performance.now();
	const vite = join(project, 'node_modules', 'vite', 'bin', 'vite.js');
	/** @type {Buffer[]} */
	const output = [];
	const code = await new Promise((done, fail) => {
		const child = spawn(process.execPath, [vite, 'build', ...args], { cwd, env, stdio: 'pipe' });
		child.stdout.on('data', (chunk) => output.push(chunk));
		child.stderr.on('data', (chunk) => output.push(chunk));
		child.once('error', fail);
		child.once('exit', (exitCode) => done(exitCode));
	});
	if (code !== 0) {
		throw new Error(`vite build in ${cwd} failed (${code}):\n${Buffer.concat(output).toString()}`);
	}
	return performance.now() - started;
}

/**
 * Bundles src/lib/diagnosis into one ES module a page can import, as the site's own build would
 * compile it (Vite, minified, $lib resolved, the same compile-time constants).
 * @param {string} project the snapshot to bundle from
 * @param {string} outDir
 * @returns {Promise<string>} the bundle's path
 */
export async function bundleVerify(project, outDir) {
	const { build, loadConfigFromFile } = await import('vite');
	// The compile-time constants (`define`) the site's build uses, read from its own config.
	const loaded = await loadConfigFromFile(
		{ command: 'build', mode: 'production' },
		join(project, 'vite.config.ts'),
		project,
		'silent'
	);
	await build({
		configFile: false,
		logLevel: 'silent',
		root: project,
		// Not Kit's plugins: this is a library build. The messages are Paraglide's compiled modules
		// in src/lib/paraglide (npm run i18n).
		resolve: { alias: { $lib: join(project, 'src', 'lib') } },
		define: loaded?.config.define ?? {},
		build: {
			outDir,
			emptyOutDir: true,
			minify: true,
			target: 'es2022',
			lib: {
				entry: join(project, 'src', 'lib', 'diagnosis', 'index.ts'),
				formats: ['es'],
				fileName: () => 'verify.js'
			}
		}
	});
	return join(outDir, 'verify.js');
}

/**
 * Bundles `entry` and what it imports (src/lib through `$lib`) into one minified ES module,
 * `outDir/fileName`, that a page or a module Web Worker loads: how the bench's measurements in
 * Chromium load the app's code, as the site's own build would compile it (Vite, minified).
 * @param {{ root: string, entry: string, outDir: string, fileName: string, lib?: string }} options
 *   root: a temporary directory Vite works in; lib: the src/lib to bundle from (this checkout's)
 */
export async function bundleForBrowser({ root, entry, outDir, fileName, lib = LIB }) {
	const { build } = await import('vite');
	await build({
		configFile: false,
		logLevel: 'silent',
		root,
		resolve: { alias: { $lib: lib } },
		build: {
			outDir,
			emptyOutDir: true,
			minify: true,
			target: 'es2022',
			lib: { entry, formats: ['es'], fileName: () => fileName }
		}
	});
}
