// A fresh clone, run as the README says: `npm run dev` with no dependency cache yet, and the
// end-to-end suite on a machine where its usual ports are taken. Real processes on loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { suitePorts } from '../tools/ports.js';

const ROOT = join(import.meta.dirname, '../..');

/** A process of this test: its output (colours taken out), whether it ended, how to end it. */
function run(args: string[], env: NodeJS.ProcessEnv) {
	const child: ChildProcess = spawn(process.execPath, args, {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own process group, so that ending it ends what it started (Playwright's web servers).
		detached: true,
		env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }
	});
	const state = { output: '', code: null as number | null, exited: false };
	const read = (chunk: Buffer) => (state.output += stripVTControlCharacters(chunk.toString()));
	child.stdout?.on('data', read);
	child.stderr?.on('data', read);
	const exit = new Promise<void>((resolve) =>
		child.once('exit', (code) => {
			Object.assign(state, { code, exited: true });
			resolve();
		})
	);
	const stop = () => {
		if (!state.exited && child.pid) process.kill(-child.pid, 'SIGTERM');
	};
	return { state, exit, stop };
}

/** Resolves once `ready()` holds; rejects after `ms` with what the process printed. */
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
			reject(new Error(`${what} not within ${ms / 1000} s; the process printed:\n${output()}`));
		}, ms);
	});
}

/** Listens on 127.0.0.1:port; null when something else already does (the port is taken either way). */
function occupy(port: number): Promise<Server | null> {
	return new Promise((resolve, reject) => {
		const server = createServer((socket) => socket.end('HTTP/1.1 418 Not the suite\r\n\r\n'));
		server.once('error', (error: NodeJS.ErrnoException) =>
			error.code === 'EADDRINUSE' ? resolve(null) : reject(error)
		);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});
}

const close = (server: Server | null) =>
	new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

describe('npm run dev on a fresh clone', () => {
	let dir = '';
	let dev: ReturnType<typeof run> | undefined;
	let origin = '';

	beforeAll(async () => {
		const script = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts.dev;
		expect(script).toBe('vite dev');
		dir = await mkdtemp(join(tmpdir(), 'dev-server-'));
		// The project's own config with the dependency cache in a new folder, as a fresh clone has
		// none. (Loaded by Vite's module runner: a config bundled outside the checkout could not
		// resolve the packages the project's config imports.)
		const config = join(dir, 'vite.config.ts');
		await writeFile(
			config,
			[
				`import config from ${JSON.stringify(join(ROOT, 'vite.config.ts'))};`,
				`export default { ...config, cacheDir: ${JSON.stringify(join(dir, 'cache'))} };`
			].join('\n')
		);
		// A port the system gives (the server takes it with --strictPort).
		const probe = await occupy(0);
		const address = probe?.address();
		const port = typeof address === 'object' && address ? address.port : 0;
		await close(probe);
		origin = `http://127.0.0.1:${port}`;
		const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
		dev = run(
			[vite, 'dev', '--config', config, '--configLoader', 'runner', '--host', '127.0.0.1'].concat([
				'--port',
				String(port),
				'--strictPort'
			]),
			process.env
		);
		const { state } = dev;
		await until(
			() => state.exited || state.output.includes(`Local:   ${origin}/`),
			'ready',
			240_000,
			() => state.output
		);
		expect(state.exited, state.output).toBe(false);
		// The optimizer writes its metadata once it has scanned the routes and bundled what it found,
		// so by then anything the scan had to say has been printed.
		await until(
			() => state.exited || existsSync(join(dir, 'cache/deps/_metadata.json')),
			'the dependency optimizer',
			120_000,
			() => state.output
		);
	});

	afterAll(async () => {
		dev?.stop();
		await dev?.exit;
		await rm(dir, { recursive: true, force: true });
	});

	it.each([
		['/', 'MAC token playground · sign a request step by step'],
		['/triage', 'Triage · MAC token playground'],
		['/zh-CN/triage', '批量排查 · Mac Token 调试工具']
	])('serves %s', async (path, title) => {
		const response = await fetch(`${origin}${path}`);
		expect(response.status).toBe(200);
		expect(await response.text()).toContain(`<title>${title}</title>`);
	});

	it('prints no error, and its dependency scan finds the packages', async () => {
		// After the pages were served: what rendering them printed counts too.
		expect(dev?.state.output).not.toMatch(/error|fail/i);
		const metadata = JSON.parse(await readFile(join(dir, 'cache/deps/_metadata.json'), 'utf8'));
		expect(Object.keys(metadata.optimized)).toContain('svelte');
	});
});

describe('the ports of the end-to-end suite', () => {
	const saved = { ...process.env };
	afterEach(() => {
		for (const variable of ['E2E_PORT', 'E2E_RELAY_PORT'])
			if (saved[variable] === undefined) delete process.env[variable];
			else process.env[variable] = saved[variable];
	});

	it('are the ones E2E_PORT and E2E_RELAY_PORT name', async () => {
		Object.assign(process.env, { E2E_PORT: '4655', E2E_RELAY_PORT: '4656' });
		expect(await suitePorts({ E2E_PORT: 4173, E2E_RELAY_PORT: 8788 })).toEqual({
			E2E_PORT: 4655,
			E2E_RELAY_PORT: 4656
		});
	});

	it('are free ones, written to the variables, when the preferred ones are taken', async () => {
		delete process.env.E2E_PORT;
		delete process.env.E2E_RELAY_PORT;
		const taken = [await occupy(4657), await occupy(4658)];
		try {
			const ports = await suitePorts({ E2E_PORT: 4657, E2E_RELAY_PORT: 4658 });
			expect([ports.E2E_PORT, ports.E2E_RELAY_PORT]).not.toContain(4657);
			expect([ports.E2E_PORT, ports.E2E_RELAY_PORT]).not.toContain(4658);
			expect(ports.E2E_PORT).not.toBe(ports.E2E_RELAY_PORT);
			// What a worker, evaluating the config again with the runner's environment, gets.
			expect(process.env).toMatchObject({
				E2E_PORT: String(ports.E2E_PORT),
				E2E_RELAY_PORT: String(ports.E2E_RELAY_PORT)
			});
			expect(await suitePorts({ E2E_PORT: 4657, E2E_RELAY_PORT: 4658 })).toEqual(ports);
		} finally {
			await Promise.all(taken.map(close));
		}
	});

	it('refuses a value that is no port, naming the variable', async () => {
		process.env.E2E_PORT = '41 73';
		await expect(suitePorts({ E2E_PORT: 4173 })).rejects.toThrow(
			'E2E_PORT must be a port number from 1 to 65535; it is "41 73".'
		);
	});

	it('let the suite run while 4173 and 8788 are taken', async () => {
		const taken = [await occupy(4173), await occupy(8788)];
		const env = { ...process.env };
		delete env.E2E_PORT;
		delete env.E2E_RELAY_PORT;
		// The relay test: the page in a worker sends through the relay the runner started, with the
		// page's origin allowed, so runner and worker must agree on both ports.
		const playwright = run(
			[join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', 'tests/e2e/send.test.ts'].concat(
				['-g', 'proxy: browser', '--reporter=line', '--workers=1']
			),
			env
		);
		try {
			// A build on a busy machine takes minutes; the config waits up to 10 for its servers.
			await until(
				() => playwright.state.exited,
				'the end of the run',
				840_000,
				() => playwright.state.output
			);
			expect(playwright.state.output).toMatch(/\b1 passed\b/);
			expect(playwright.state.code, playwright.state.output).toBe(0);
		} finally {
			playwright.stop();
			await Promise.all(taken.map(close));
		}
	});
});
