// The sandbox server as real processes, started both ways an integrator starts it: `npm run sandbox
// -- …` (start.js, which bundles the server and runs the bundle) and plain `node sandbox-server.mjs`
// in an empty folder (the file the site ships). Every process loads the loopback guard, as the
// relay's do, so none of them can reach past this machine; requests go over raw sockets
// (relay-processes.ts) and are signed here with the real clock.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authorizationHeader, baseString, requestTarget, sign } from '$lib/mac';
import { bundleSandboxServer, FILE_NAME } from '../../src/build/sandbox-server-bundle.js';
import { rawRequest, type RawAnswer, type Started } from './relay-processes';

export const ROOT = resolve(import.meta.dirname, '../..');
const START = resolve(ROOT, 'src/node/sandbox-server/start.js');
const GUARD = fileURLToPath(new URL('./relay-loopback-guard.js', import.meta.url));

/** The two ways to start the sandbox server. */
export const LAUNCHES = ['npm run sandbox', 'node sandbox-server.mjs'] as const;
export type Launch = (typeof LAUNCHES)[number];

let bundled: Promise<string> | null = null;

/**
 * A fresh temporary folder holding nothing but sandbox-server.mjs, as bundleSandboxServer() writes
 * it; bundled once per test file.
 */
export function bundleFolder(): Promise<string> {
	bundled ??= (async () => {
		const code = await bundleSandboxServer();
		const dir = await mkdtemp(join(tmpdir(), 'sandbox-bundle-'));
		await writeFile(join(dir, FILE_NAME), code);
		return dir;
	})();
	return bundled;
}

/** Removes the bundle's folder, if one was made. */
export async function removeBundleFolder(): Promise<void> {
	if (bundled === null) return;
	const dir = await bundled.catch(() => null);
	bundled = null;
	if (dir !== null) await rm(dir, { recursive: true, force: true });
}

/** The command, its arguments and its folder for `launch` with the server's `args`. */
async function commandFor(
	launch: Launch,
	args: readonly string[]
): Promise<{ argv: string[]; cwd: string }> {
	if (launch === 'npm run sandbox') return { argv: [START, ...args], cwd: ROOT };
	return { argv: [FILE_NAME, ...args], cwd: await bundleFolder() };
}

export interface Exited {
	code: number | null;
	signal: NodeJS.Signals | null;
}

export interface SandboxProcess extends Started {
	/** The first line the process wrote on stdout, without its line feed. */
	firstLine: string;
	stdout: () => string;
	stderr: () => string;
	/** Settles when the process has ended. */
	exited: Promise<Exited>;
}

/** Every process started here and not yet ended, for stopAll. */
const running = new Set<SandboxProcess>();

function spawnSandbox(argv: string[], cwd: string) {
	const child = spawn(process.execPath, argv, {
		cwd,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, NODE_OPTIONS: `--import=${GUARD}` }
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
	const exited = new Promise<Exited>((done, fail) => {
		child.once('error', fail);
		child.once('close', (code, signal) => done({ code, signal }));
	});
	return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Starts the sandbox server with `args` and waits for its first line on stdout, which must be
 * `listening http://127.0.0.1:PORT`; fails (and ends the process) on another line, an exit first, or
 * no line within `timeoutMs` (npm run sandbox bundles first: seconds on a busy machine).
 */
export async function startSandbox(
	launch: Launch,
	args: readonly string[],
	timeoutMs = 90_000
): Promise<SandboxProcess> {
	const { argv, cwd } = await commandFor(launch, args);
	const { child, exited, stdout, stderr } = spawnSandbox(argv, cwd);
	const output = () => `stdout: ${JSON.stringify(stdout())}\nstderr: ${JSON.stringify(stderr())}`;
	const firstLine = await new Promise<string>((resolveLine, reject) => {
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`${launch}: no first line within ${timeoutMs} ms\n${output()}`));
		}, timeoutMs);
		const read = () => {
			const end = stdout().indexOf('\n');
			if (end < 0) return;
			clearTimeout(timer);
			child.stdout.off('data', read);
			resolveLine(stdout().slice(0, end));
		};
		child.stdout.on('data', read);
		exited.then(({ code, signal }) => {
			clearTimeout(timer);
			reject(new Error(`${launch}: ended (${code ?? signal}) before its first line\n${output()}`));
		}, reject);
	});
	const address = /^listening (http:\/\/127\.0\.0\.1:(\d+))$/.exec(firstLine);
	if (!address) {
		child.kill();
		throw new Error(`${launch}: the first line is not "listening <url>"\n${output()}`);
	}
	const started: SandboxProcess = {
		url: address[1]!,
		port: Number(address[2]),
		child,
		output: () => stdout() + stderr(),
		firstLine,
		stdout,
		stderr,
		exited
	};
	running.add(started);
	exited.finally(() => running.delete(started)).catch(() => undefined);
	return started;
}

/** Runs the sandbox server with `args` to its end (--help, a usage error), within `timeoutMs`. */
export async function runSandbox(
	launch: Launch,
	args: readonly string[],
	timeoutMs = 90_000
): Promise<Exited & { stdout: string; stderr: string }> {
	const { argv, cwd } = await commandFor(launch, args);
	const { child, exited, stdout, stderr } = spawnSandbox(argv, cwd);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timedOut = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			child.kill();
			reject(new Error(`${launch} ${args.join(' ')}: still running after ${timeoutMs} ms`));
		}, timeoutMs);
	});
	try {
		const ended = await Promise.race([exited, timedOut]);
		return { ...ended, stdout: stdout(), stderr: stderr() };
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Sends `signal` and waits for the end, at most `guardMs` by the test's own timer (a guard only,
 * never a measure of speed): the exit, or 'still running'.
 */
export async function stopSandbox(
	sandbox: SandboxProcess,
	signal: NodeJS.Signals = 'SIGTERM',
	guardMs = 5_000
): Promise<Exited | 'still running'> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const guard = new Promise<'still running'>((done) => {
		timer = setTimeout(() => done('still running'), guardMs);
	});
	sandbox.child.kill(signal);
	try {
		return await Promise.race([sandbox.exited, guard]);
	} finally {
		clearTimeout(timer);
	}
}

/** Ends every sandbox process this file started that is still running. */
export async function stopAll(): Promise<void> {
	await Promise.all(
		[...running].map(async (sandbox) => {
			if ((await stopSandbox(sandbox, 'SIGTERM')) === 'still running')
				sandbox.child.kill('SIGKILL');
		})
	);
}

export interface Signed {
	authorization: string;
	/** The base string the mac signs, with its line feeds. */
	baseString: string;
	ts: string;
	nonce: string;
}

/**
 * An Authorization header for `method` of `url` (its scheme, host and port are what is signed),
 * signed with `macKey` now (or at `ts`) and a fresh nonce (or `nonce`).
 */
export async function signRequest(
	url: string,
	credential: { kid: string; macKey: string },
	options: { ts?: string; nonce?: string; method?: string } = {}
): Promise<Signed> {
	const ts = options.ts ?? String(Math.floor(Date.now() / 1000));
	const nonce = options.nonce ?? `n${Math.random().toString(36).slice(2)}${Date.now() % 100_000}`;
	const text = baseString({ ts, nonce, method: options.method ?? 'GET', ...requestTarget(url) });
	const mac = await sign(credential.macKey, text);
	return {
		authorization: authorizationHeader({ id: credential.kid, ts, nonce, mac }),
		baseString: text,
		ts,
		nonce
	};
}

/**
 * Sends one request over a new connection to 127.0.0.1:`port`, its Host header as given (the port
 * is always the sandbox's), and reads the answer; the connection closes after it.
 */
export function send(
	port: number,
	request: {
		method?: string;
		target: string;
		host: string;
		headers?: Record<string, string>;
	}
): Promise<RawAnswer> {
	const lines = [`${request.method ?? 'GET'} ${request.target} HTTP/1.1`, `Host: ${request.host}`];
	for (const [name, value] of Object.entries(request.headers ?? {}))
		lines.push(`${name}: ${value}`);
	lines.push('Connection: close', '', '');
	return rawRequest(port, lines.join('\r\n'), 30_000);
}

export interface ServerSentEvent {
	id: string | null;
	event: string | null;
	data: string;
}

export interface EventStream {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** The next event (comments skipped), within `timeoutMs`. */
	next: (timeoutMs?: number) => Promise<ServerSentEvent>;
	close: () => void;
}

/**
 * Opens GET `path` on 127.0.0.1:`port` as a Server-Sent Events stream; settles once the answer's
 * head and its first bytes (the stream's opening comment) have arrived, so the stream is listening.
 */
export function openEvents(port: number, path = '/__sandbox/events'): Promise<EventStream> {
	return new Promise((resolveStream, reject) => {
		let buffer = '';
		const events: ServerSentEvent[] = [];
		const waiting: (() => void)[] = [];
		const outgoing = request(
			{ host: '127.0.0.1', port, path, method: 'GET', agent: false },
			(incoming) => {
				incoming.setEncoding('utf8');
				// Closing the stream from this side aborts it: not an error of the test.
				incoming.on('error', () => undefined);
				let opened = false;
				incoming.on('data', (chunk: string) => {
					buffer += chunk;
					for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
						const block = buffer.slice(0, end);
						buffer = buffer.slice(end + 2);
						const event: ServerSentEvent = { id: null, event: null, data: '' };
						let fields = 0;
						for (const line of block.split('\n')) {
							if (line.startsWith(':')) continue;
							const colon = line.indexOf(':');
							const name = colon < 0 ? line : line.slice(0, colon);
							const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
							fields += 1;
							if (name === 'id') event.id = value;
							else if (name === 'event') event.event = value;
							else if (name === 'data') event.data += event.data === '' ? value : `\n${value}`;
						}
						if (fields > 0 && (event.event !== null || event.data !== '')) events.push(event);
					}
					for (const wake of waiting.splice(0)) wake();
					if (!opened) {
						opened = true;
						resolveStream({
							status: incoming.statusCode ?? 0,
							headers: incoming.headers,
							next: (timeoutMs = 20_000) =>
								new Promise((resolveEvent, rejectEvent) => {
									const timer = setTimeout(
										() => rejectEvent(new Error(`no event within ${timeoutMs} ms: ${buffer}`)),
										timeoutMs
									);
									const take = () => {
										const event = events.shift();
										if (event === undefined) return waiting.push(take);
										clearTimeout(timer);
										resolveEvent(event);
									};
									take();
								}),
							close: () => outgoing.destroy()
						});
					}
				});
			}
		);
		outgoing.setTimeout(30_000, () => outgoing.destroy(new Error('the event stream timed out')));
		outgoing.on('error', reject);
		outgoing.end();
	});
}
