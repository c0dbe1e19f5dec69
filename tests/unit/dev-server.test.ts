// `npm run dev` as a new user runs it on a fresh clone: Vite's dev server with no dependency cache
// yet, so that it scans the routes for the packages to pre-bundle. It must print no error and serve
// the pages. A real `vite dev` process on loopback, its cache in a folder of its own.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');

/** A port no one listens on now, from the system (the server below takes it with --strictPort). */
function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() =>
				typeof address === 'object' && address ? resolve(address.port) : reject(new Error())
			);
		});
	});
}

/** Resolves when `ready()` holds, checking as the process prints; rejects after `ms` or on exit. */
function until(ready: () => boolean, what: string, ms: number, output: () => string) {
	return new Promise<void>((resolve, reject) => {
		const check = setInterval(() => {
			if (!ready()) return;
			clearInterval(check);
			clearTimeout(limit);
			resolve();
		}, 100);
		const limit = setTimeout(() => {
			clearInterval(check);
			reject(new Error(`${what} not within ${ms / 1000} s; the server printed:\n${output()}`));
		}, ms);
	});
}

let dir = '';
let output = '';
let exited = false;
let stop = () => {};
let origin = '';

beforeAll(async () => {
	const script = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts.dev;
	expect(script).toBe('vite dev');
	dir = await mkdtemp(join(tmpdir(), 'dev-server-'));
	// The project's own config with the dependency cache in a new folder: what a fresh clone has.
	// (Loaded by Vite's module runner, since a bundled config outside the checkout could not
	// resolve the packages the project's config imports.)
	const config = join(dir, 'vite.config.ts');
	await writeFile(
		config,
		[
			`import config from ${JSON.stringify(join(ROOT, 'vite.config.ts'))};`,
			`export default { ...config, cacheDir: ${JSON.stringify(join(dir, 'cache'))} };`
		].join('\n')
	);
	const port = await freePort();
	origin = `http://127.0.0.1:${port}`;
	const child = spawn(
		process.execPath,
		[VITE, 'dev', '--config', config, '--configLoader', 'runner'].concat([
			'--host',
			'127.0.0.1',
			'--port',
			String(port),
			'--strictPort'
		]),
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } }
	);
	const read = (chunk: Buffer) => (output += stripVTControlCharacters(chunk.toString()));
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	child.once('exit', () => (exited = true));
	stop = () => {
		if (!exited) child.kill('SIGTERM');
	};
	await until(
		() => exited || output.includes(`Local:   ${origin}/`),
		'ready',
		180_000,
		() => output
	);
	expect(exited, output).toBe(false);
	// The optimizer writes its metadata once it has scanned the routes and bundled what it found,
	// so by then anything the scan had to say has been printed.
	await until(
		() => exited || existsSync(join(dir, 'cache/deps/_metadata.json')),
		'the dependency optimizer',
		120_000,
		() => output
	);
}, 320_000);

afterAll(async () => {
	stop();
	await rm(dir, { recursive: true, force: true });
});

describe('npm run dev on a fresh clone', { timeout: 120_000 }, () => {
	it.each([
		['/', 'MAC token playground · sign a request step by step'],
		['/triage', 'Triage · MAC token playground'],
		['/zh-CN/triage', '批量排查 · Mac Token 调试工具']
	])('serves %s', async (path, title) => {
		const response = await fetch(`${origin}${path}`);
		expect(response.status).toBe(200);
		expect(await response.text()).toContain(`<title>${title}</title>`);
	});

	it('prints no error, and the dependency scan finds the packages', async () => {
		// After the pages were served: what rendering them printed counts too.
		expect(output).not.toMatch(/error|fail/i);
		const metadata = JSON.parse(await readFile(join(dir, 'cache/deps/_metadata.json'), 'utf8'));
		expect(Object.keys(metadata.optimized)).toContain('svelte');
	});
});
