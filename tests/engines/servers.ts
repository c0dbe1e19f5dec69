// The engines suite's global setup: one production build served under the base path, as
// playwright.config.ts serves it (npm run build, npm run preview), the reference relay answering
// with the sandbox service, and the recorder proxy WebKit reads the site through. All on loopback,
// each wait bounded, all stopped at the end. Nothing is built when neither engine is here (each
// engine's file says which is missing: suite.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { findFirefox, findWebKit } from './engines';
import { startRecorderProxy } from './recorder-proxy';

export const BASE_PATH = '/mac-token-playground';
const BUILD_MS = 600_000;
const START_MS = 120_000;

export interface Site {
	/** The site's base URL from the preview server, ending in a slash. */
	base: string;
	/** The same site through the recorder proxy (for WebKit). */
	recordedBase: string;
	/** The relay's address. */
	relay: string;
}

declare module 'vitest' {
	export interface ProvidedContext {
		site: Site;
	}
}

/** ENGINES_<NAME> if set, else a port the system has free now. */
async function port(variable: string): Promise<number> {
	if (process.env[variable]) return Number(process.env[variable]);
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise((resolve) => server.close(resolve));
	if (!address || typeof address === 'string') throw new Error('no free port');
	return address.port;
}

/** Runs `npm run <script>` in its own process group, its output kept for a failure's message. */
function npm(script: string, args: string[], env: NodeJS.ProcessEnv = {}) {
	const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
		env: { ...process.env, ...env },
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	running.add(child);
	child.once('exit', () => running.delete(child));
	let output = '';
	const keep = (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-20_000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	return { child, output: () => output };
}

/**
 * The process groups started here, ended when this process ends however it ends (each runs in a
 * group of its own so that npm's shell and the server under it end together, and so a Ctrl-C or a
 * `timeout` aimed at the test runner does not reach them).
 */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach(stop));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
	process.once(signal, () => {
		running.forEach(stop);
		process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
	});
}

/** Ends a process group started here. */
function stop(child: ChildProcess): void {
	if (child.pid && child.exitCode === null) {
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			// Already gone.
		}
	}
}

async function exited(child: ChildProcess, timeout: number): Promise<number | null> {
	if (child.exitCode !== null) return child.exitCode;
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			stop(child);
			reject(new Error(`timed out after ${timeout} ms`));
		}, timeout);
		child.once('exit', (code) => {
			clearTimeout(timer);
			resolve(code);
		});
	});
}

/** Waits until `url` answers, or the process that should serve it ends, or `timeout` passes. */
async function serving(url: string, child: ChildProcess, output: () => string): Promise<void> {
	const deadline = Date.now() + START_MS;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${url}: its server exited\n${output()}`);
		try {
			await fetch(url, { signal: AbortSignal.timeout(5_000) });
			return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
	throw new Error(`${url} did not answer within ${START_MS} ms\n${output()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const firefox = findFirefox();
	const webkit = findWebKit();
	const empty: Site = { base: '', recordedBase: '', relay: '' };
	if (!firefox.found && !webkit.found) {
		project.provide('site', empty);
		return async () => {};
	}

	const [sitePort, relayPort, proxyPort] = [
		await port('ENGINES_PORT'),
		await port('ENGINES_RELAY_PORT'),
		await port('ENGINES_PROXY_PORT')
	];
	const origin = `http://127.0.0.1:${sitePort}`;
	const recordedOrigin = `http://127.0.0.1:${proxyPort}`;

	// ENGINES_BUILT=1 serves build/ as it is: for rerunning the suite on a build just made.
	if (process.env.ENGINES_BUILT !== '1') {
		const started = Date.now();
		const build = npm('build', [], { BASE_PATH });
		const code = await exited(build.child, BUILD_MS);
		if (code !== 0) throw new Error(`npm run build failed (${code})\n${build.output()}`);
		console.log(`engines: built in ${Math.round((Date.now() - started) / 1000)} s`);
	}

	const children: ChildProcess[] = [];
	const proxy = await startRecorderProxy(origin, proxyPort);
	const teardown = async () => {
		children.forEach(stop);
		await new Promise((resolve) => proxy.close(resolve));
	};
	try {
		const preview = npm(
			'preview',
			['--host', '127.0.0.1', '--port', String(sitePort), '--strictPort'],
			{
				BASE_PATH
			}
		);
		children.push(preview.child);
		const relay = npm('proxy', [
			'--sandbox',
			'--port',
			String(relayPort),
			'--allow-origin',
			origin,
			'--allow-origin',
			recordedOrigin
		]);
		children.push(relay.child);
		await Promise.all([
			serving(`${origin}${BASE_PATH}/`, preview.child, preview.output),
			serving(`http://127.0.0.1:${relayPort}/`, relay.child, relay.output)
		]);
	} catch (error) {
		await teardown();
		throw error;
	}
	project.provide('site', {
		base: `${origin}${BASE_PATH}/`,
		recordedBase: `${recordedOrigin}${BASE_PATH}/`,
		relay: `http://127.0.0.1:${relayPort}/`
	});
	return teardown;
}
