// The sandbox server against two well-known mock servers (issue: `npm run bench -- --sandbox`): the
// built sandbox-server.mjs run with plain `node`, WireMock (the `wiremock` npm package's JAR, run
// with `java -jar` as its bin does) and Prism (`prism mock` of the service's openapi.json), all
// answering GET /account/profile/v1?client_id=demo-client-0001 on 127.0.0.1, measured in one run:
//   - start-up: spawn to the first 200 answer of a GET polled every 10 ms, best of 3 starts;
//   - throughput: 16 requests in flight on 16 keep-alive connections, 5 s after 1 s to warm up;
//   - ours again, freshly started: 1 s to warm up, then six consecutive 5-second windows (30 s),
//     with its RSS (VmRSS of /proc/PID/status) at the end of each.
// Targets (each missed one makes the bench exit 1, through process.exitCode): start-up at most a
// quarter of the faster peer's; throughput at least WireMock's with every request signed afresh,
// verified and answered 2xx; the last window at least 0.9 × the first; RSS at the end at most
// 1.15 × RSS after 15 s, with a nonce cap the run reaches early (our reading of "memory bounded at
// any rate": once every cap is reached, load at full rate must not keep growing the process). A peer that cannot be installed or started is
// "not measured", and a target that needs it is not judged (n/a, not a failure).
//
// The peers are installed on first use into node_modules/.cache/bench-peers/ (npm install --prefix,
// never into the project's dependencies) and reused after. Each is given its quickest settings:
// WireMock without its request journal and request logging, Prism logging errors only.
//
// The load generator is the same for all three and runs in a child process of its own (this file,
// `load` mode), so that neither the bench process nor the peers' output handling is in its way:
// node:net sockets, one request at a time on each connection, answers parsed by Content-Length or
// chunked encoding. Every request carries a fresh nonce and a valid signature for the server it is
// sent to (ts = now), all signed before the first connection opens (25,000 a second of the run,
// more than any of the three serves here; any signed during the windows would be counted and
// printed). The peers get the same requests. Only 2xx answers count as requests served.
//
//   node tests/bench/sandbox.js              the section alone (as `npm run bench -- --sandbox`)
//   node tests/bench/sandbox.js load PLAN    (child) the load generator; PLAN is JSON
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLib } from './load-lib.js';

const SELF = fileURLToPath(import.meta.url);
const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const PEERS_DIR = join(PROJECT, 'node_modules', '.cache', 'bench-peers');
const PEER_PACKAGES = ['wiremock@3', '@stoplight/prism-cli@5'];

/** The demo account of the sandbox that may read the profile, and the path all three answer. */
const ACCOUNT = { kid: 'demo-kid-profile-4f1c', macKey: 'demo-mac-key-profile-Q9sLx2' };
const PATH = '/account/profile/v1?client_id=demo-client-0001';
/** WireMock's answer: the body our server gives the demo account, as it gives it. */
const BODY = {
	data: {
		name: 'Ada Demo',
		avatar: 'https://example.com/avatars/ada.svg',
		openid: 'oid-fe2a369f8588cec9',
		unionid: 'uid-c5c62bf128d523b7'
	},
	now: 1795719700,
	success: true
};

export const SANDBOX_LOAD = {
	concurrency: 16,
	warmUpSeconds: 1,
	seconds: 5,
	/** Ours, the second time: this many consecutive windows of `seconds`. */
	windows: 6,
	startUps: 3,
	pollMs: 10
};
export const SANDBOX_TARGETS = {
	/** Our start-up at most this fraction of the faster peer's. */
	startUpFraction: 0.25,
	/** The last window's rate at least this fraction of the first's. */
	lastWindow: 0.9,
	/**
	 * RSS at the end of the 30 s at most this multiple of RSS half-way (after window 3). The windowed
	 * run starts ours with --max-nonces NONCE_CAP, reached within its first windows at these rates,
	 * so that the second half shows whether memory still grows once every cap is reached; with the
	 * default cap (1,000,000) the nonces alone would grow for 100 s at 10,000 requests a second, as
	 * the ts window (300 s) asks, before the cap holds them.
	 */
	rssGrowth: 1.15
};
/** The nonce cap of the windowed run (see rssGrowth). */
const NONCE_CAP = 100_000;
const START_TIMEOUT_MS = 120_000;
/** The requests signed ahead: this many a second of the run (well over what any of the three
 * serves here), at most POOL_MOST (about 210 bytes each); past them they are signed as they go. */
const POOL_RPS = 25_000;
const POOL_MOST = 3_000_000;

// ---------------------------------------------------------------------------------------------
// Signing, shared by the poller (bench process) and the load generator (child).

/**
 * The Authorization header for one GET of PATH on 127.0.0.1:port.
 * @param {number} port
 * @param {string} ts
 * @param {string} nonce
 */
function authorization(port, ts, nonce) {
	const mac = createHmac('sha1', ACCOUNT.macKey)
		.update(`${ts}\n${nonce}\nGET\n${PATH}\n127.0.0.1\n${port}\n\n`)
		.digest('base64');
	return `MAC id="${ACCOUNT.kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
}

const now = () => String(Math.floor(Date.now() / 1000));

// ---------------------------------------------------------------------------------------------
// The load generator (child process).

/**
 * @typedef {{ port: number, pid: number, concurrency: number, warmUpSeconds: number, seconds: number, windows: number }} LoadPlan
 * @typedef {{ window: number, seconds: number, ok: number, rps: number, failed: number, socketErrors: number, rss: number | null }} WindowFigures
 * @typedef {{ presigned: number, signedDuring: number, signSeconds: number, warmUpRps: number, firstFailure: string | null }} LoadDone
 */

/** @param {number} pid @returns {number | null} bytes */
function rssNow(pid) {
	try {
		const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kib === undefined ? null : Number(kib) * 1024;
	} catch {
		return null;
	}
}

/**
 * Requests of one length each (ts, a 16-character nonce, a 28-character mac), signed in advance
 * into one buffer; past its end they are signed as they are sent, and counted.
 * @param {number} port
 */
function requestSource(port) {
	const run = randomBytes(8).readBigUInt64BE().toString(36).padStart(6, '0').slice(-6);
	const head = `GET ${PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: `;
	let issued = 0;
	const one = () => {
		const nonce = `${run}${(issued++).toString(36).padStart(10, '0')}`;
		return `${head}${authorization(port, now(), nonce)}\r\n\r\n`;
	};
	const length = Buffer.byteLength(one());
	let pool = Buffer.alloc(0);
	let count = 0;
	let next = 0;
	return {
		/** Signs `n` requests ahead (replacing what is left), and returns the seconds it took. */
		presign(/** @type {number} */ n) {
			const started = performance.now();
			pool = Buffer.allocUnsafe(n * length);
			for (let i = 0; i < n; i++) pool.write(one(), i * length, 'latin1');
			count = n;
			next = 0;
			return (performance.now() - started) / 1000;
		},
		/** The next request, and whether it had to be signed now. */
		take() {
			if (next < count) {
				const at = next++ * length;
				return { bytes: pool.subarray(at, at + length), live: false };
			}
			return { bytes: Buffer.from(one(), 'latin1'), live: true };
		}
	};
}

/**
 * Where a chunked body that starts at `from` ends (after its last chunk and trailers), or -1 when
 * the buffer does not hold all of it yet.
 * @param {Buffer} buffer
 * @param {number} from
 */
function chunkedEnd(buffer, from) {
	let at = from;
	for (;;) {
		const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
		if (lineEnd < 0) return -1;
		const size = Number.parseInt(buffer.toString('latin1', at, lineEnd).split(';')[0] ?? '', 16);
		if (Number.isNaN(size)) throw new Error('bad chunk size');
		if (size === 0) {
			// Trailers, if any, then an empty line.
			if (buffer.length < lineEnd + 4) return -1;
			if (buffer[lineEnd + 2] === 13 && buffer[lineEnd + 3] === 10) return lineEnd + 4;
			const end = buffer.indexOf('\r\n\r\n', lineEnd + 2, 'latin1');
			return end < 0 ? -1 : end + 4;
		}
		at = lineEnd + 2 + size + 2;
		if (at > buffer.length) return -1;
	}
}

/**
 * The child: connects `concurrency` sockets, warms up, signs the pool, then runs the windows and
 * prints one JSON line per window and one at the end.
 * @param {LoadPlan} plan
 */
async function loadChild(plan) {
	const source = requestSource(plan.port);
	// Every request of the run signed before the first connection opens.
	const presigned = Math.min(
		Math.ceil(POOL_RPS * (plan.warmUpSeconds + plan.seconds * plan.windows)),
		POOL_MOST
	);
	const signSeconds = source.presign(presigned);
	let running = false;
	let ok = 0;
	let failed = 0;
	let socketErrors = 0;
	let signedDuring = 0;
	let counting = false;
	/** @type {string | null} */
	let firstFailure = null;
	/** @type {(() => void) | null} */
	let onIdle = null;

	/** @type {{ inFlight: boolean, send: () => void }[]} */
	const connections = [];
	const checkIdle = () => {
		if (onIdle !== null && connections.every((connection) => !connection.inFlight)) onIdle();
	};

	const open = () => {
		/** @type {{ inFlight: boolean, send: () => void }} */
		const state = { inFlight: false, send: () => {} };
		let socket = connect({ host: '127.0.0.1', port: plan.port });
		/** @type {Buffer | null} */
		let pending = null;
		let ready = false;
		let closing = false;

		const send = () => {
			if (!running || !ready || state.inFlight) return;
			const { bytes, live } = source.take();
			if (live && counting) signedDuring += 1;
			state.inFlight = true;
			socket.write(bytes);
		};
		state.send = send;

		/** @param {number} status @param {string} head @param {Buffer} body */
		const answered = (status, head, body) => {
			state.inFlight = false;
			if (status >= 200 && status < 300) ok += 1;
			else {
				failed += 1;
				firstFailure ??= `${head}\r\n\r\n${body.toString('utf8', 0, 300)}`;
			}
		};

		const parse = () => {
			while (pending !== null) {
				const headEnd = pending.indexOf('\r\n\r\n', 0, 'latin1');
				if (headEnd < 0) return;
				const head = pending.toString('latin1', 0, headEnd);
				const lower = head.toLowerCase();
				const status = Number(head.slice(9, 12));
				const lengthAt = lower.indexOf('\r\ncontent-length:');
				const codingAt = lower.indexOf('\r\ntransfer-encoding:');
				let end = headEnd + 4;
				if (lengthAt >= 0) {
					const lineEnd = lower.indexOf('\r\n', lengthAt + 2);
					end += Number(lower.slice(lengthAt + 17, lineEnd < 0 ? undefined : lineEnd).trim());
				} else if (codingAt >= 0) {
					end = chunkedEnd(pending, headEnd + 4);
					if (end < 0) return;
				}
				if (pending.length < end) return;
				answered(status, head, pending.subarray(headEnd + 4, end));
				pending = pending.length > end ? pending.subarray(end) : null;
				if (/\r\nconnection:\s*close/.test(lower)) {
					closing = true;
					socket.destroy();
					return;
				}
				send();
				checkIdle();
			}
		};

		const wire = () => {
			socket.setNoDelay(true);
			socket.on('connect', () => {
				ready = true;
				send();
			});
			socket.on('data', (chunk) => {
				pending = pending === null ? chunk : Buffer.concat([pending, chunk]);
				parse();
			});
			socket.on('error', () => {});
			socket.on('close', () => {
				ready = false;
				pending = null;
				if (state.inFlight && !closing) socketErrors += 1;
				state.inFlight = false;
				closing = false;
				checkIdle();
				if (connections.includes(state)) {
					socket = connect({ host: '127.0.0.1', port: plan.port });
					wire();
				}
			});
		};
		wire();
		connections.push(state);
		return { state, end: () => socket.destroy() };
	};

	const opened = Array.from({ length: plan.concurrency }, open);
	/** Lets every connection send its next request. */
	const go = () => {
		running = true;
		for (const connection of connections) connection.send();
	};
	/** Stops sending, and resolves once nothing is in flight (or after 10 s). */
	const pause = () =>
		new Promise((resolve) => {
			running = false;
			const timer = setTimeout(() => resolve(undefined), 10_000);
			onIdle = () => {
				clearTimeout(timer);
				onIdle = null;
				resolve(undefined);
			};
			checkIdle();
		});
	/** @param {number} ms */
	const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
	/** @param {string} text */
	const out = (text) => new Promise((resolve) => process.stdout.write(`${text}\n`, resolve));

	// Warm-up, then the windows straight after it, with no pause between them.
	let started = performance.now();
	go();
	await sleep(plan.warmUpSeconds * 1000);
	const warmUpRps = (ok + failed) / ((performance.now() - started) / 1000);
	ok = 0;
	failed = 0;
	socketErrors = 0;
	firstFailure = null;
	counting = true;
	started = performance.now();
	let last = { at: started, ok: 0, failed: 0, socketErrors: 0 };
	for (let window = 1; window <= plan.windows; window++) {
		await sleep(started + window * plan.seconds * 1000 - performance.now());
		const at = performance.now();
		const rss = rssNow(plan.pid);
		const seconds = (at - last.at) / 1000;
		/** @type {WindowFigures} */
		const figures = {
			window,
			seconds,
			ok: ok - last.ok,
			rps: (ok - last.ok) / seconds,
			failed: failed - last.failed,
			socketErrors: socketErrors - last.socketErrors,
			rss
		};
		last = { at, ok, failed, socketErrors };
		await out(JSON.stringify({ type: 'window', ...figures }));
	}
	await pause();
	for (const connection of opened) {
		connections.splice(connections.indexOf(connection.state), 1);
		connection.end();
	}
	/** @type {LoadDone} */
	const done = { presigned, signedDuring, signSeconds, warmUpRps, firstFailure };
	await out(JSON.stringify({ type: 'done', ...done }));
}

/**
 * Runs the load generator in a child process and collects what it prints.
 * @param {LoadPlan} plan
 * @param {(figures: WindowFigures) => void} [onWindow]
 * @returns {Promise<{ windows: WindowFigures[], done: LoadDone }>}
 */
function runLoad(plan, onWindow) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [SELF, 'load', JSON.stringify(plan)], {
			stdio: ['ignore', 'pipe', 'pipe']
		});
		live.add(child);
		/** @type {WindowFigures[]} */
		const windows = [];
		/** @type {LoadDone | null} */
		let done = null;
		let buffered = '';
		let errors = '';
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (/** @type {string} */ chunk) => {
			buffered += chunk;
			let newline;
			while ((newline = buffered.indexOf('\n')) >= 0) {
				const line = buffered.slice(0, newline);
				buffered = buffered.slice(newline + 1);
				const message = JSON.parse(line);
				if (message.type === 'window') {
					windows.push(message);
					onWindow?.(message);
				} else if (message.type === 'done') done = message;
			}
		});
		child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-2000)));
		child.on('error', reject);
		child.on('close', (code) => {
			live.delete(child);
			if (code === 0 && done !== null) resolve({ windows, done });
			else reject(new Error(`the load generator exited ${code}: ${errors.trim()}`));
		});
	});
}

// ---------------------------------------------------------------------------------------------
// The servers (bench process).

/** Children still running, ended if the bench exits before it stops them. */
/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();
const killLive = () => {
	for (const child of live) child.kill('SIGKILL');
};

/** A free port on 127.0.0.1 (listened on and closed again). @returns {Promise<number>} */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address !== null ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * One GET of PATH on a new connection, signed afresh; its status, 0 when it could not connect.
 * @param {number} port
 * @returns {Promise<number>}
 */
function poll(port) {
	return new Promise((resolve) => {
		const nonce = randomBytes(12).toString('base64url');
		const outgoing = request(
			{
				host: '127.0.0.1',
				port,
				path: PATH,
				agent: false,
				timeout: 2000,
				headers: { authorization: authorization(port, now(), nonce) }
			},
			(incoming) => {
				incoming.resume();
				incoming.on('end', () => resolve(incoming.statusCode ?? 0));
				incoming.on('error', () => resolve(0));
			}
		);
		outgoing.on('timeout', () => outgoing.destroy());
		outgoing.on('error', () => resolve(0));
		outgoing.end();
	});
}

/**
 * @typedef {{ name: string, command: string, args: (port: number) => string[] }} ServerSpec
 * @typedef {{ pid: number, port: number, startUpMs: number, stop: () => Promise<void> }} Running
 */

/**
 * Spawns a server on a free port and polls it every 10 ms until it answers 200.
 * @param {ServerSpec} spec
 * @returns {Promise<Running>}
 */
async function start(spec) {
	const port = await freePort();
	const began = performance.now();
	const child = spawn(spec.command, spec.args(port), { stdio: ['ignore', 'pipe', 'pipe'] });
	live.add(child);
	let output = '';
	/** @param {Buffer} chunk */
	const keep = (chunk) => (output = (output + chunk.toString()).slice(-3000));
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	/** @type {string | null} */
	let exited = null;
	const gone = new Promise((resolve) => {
		child.once('error', (error) => {
			exited = `could not spawn ${spec.command}: ${error.message}`;
			live.delete(child);
			resolve(undefined);
		});
		child.once('exit', (code, signal) => {
			exited ??= `exited with ${code ?? signal}`;
			live.delete(child);
			resolve(undefined);
		});
	});
	const stop = async () => {
		if (exited !== null) return;
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
		await gone;
		clearTimeout(timer);
	};
	for (;;) {
		const attempt = performance.now();
		const status = await poll(port);
		if (status === 200) {
			return { pid: child.pid ?? 0, port, startUpMs: performance.now() - began, stop };
		}
		if (exited !== null || performance.now() - began > START_TIMEOUT_MS) {
			await stop();
			const why = exited ?? `no 200 within ${START_TIMEOUT_MS / 1000} s (last status ${status})`;
			const tail = output.trim().split('\n').slice(-3).join(' | ');
			throw new Error(`${why}${tail ? `: ${tail}` : ''}`);
		}
		const wait = SANDBOX_LOAD.pollMs - (performance.now() - attempt);
		if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
	}
}

/**
 * WireMock and Prism from node_modules/.cache/bench-peers/, installed there on first use.
 * @param {(text: string) => void} log
 * @returns {Promise<{ wiremock: { jar: string, version: string } | { error: string }, prism: { cli: string, version: string } | { error: string } }>}
 */
async function peers(log) {
	const modules = join(PEERS_DIR, 'node_modules');
	const wiremockDir = join(modules, 'wiremock');
	const prismDir = join(modules, '@stoplight', 'prism-cli');
	const installed = () =>
		existsSync(join(wiremockDir, 'package.json')) && existsSync(join(prismDir, 'package.json'));
	if (!installed()) {
		log(`installing ${PEER_PACKAGES.join(' and ')} into ${PEERS_DIR} (first use)`);
		await mkdir(PEERS_DIR, { recursive: true });
		const began = performance.now();
		const npm = spawnSync(
			'npm',
			['install', '--prefix', PEERS_DIR, '--no-audit', '--no-fund', '--no-save', ...PEER_PACKAGES],
			{ cwd: PEERS_DIR, encoding: 'utf8', timeout: 600_000 }
		);
		const why =
			npm.error?.message ??
			(npm.status === 0
				? null
				: `npm install exited ${npm.status}: ${(npm.stderr ?? '').trim().split('\n').slice(-2).join(' | ')}`);
		if (why !== null && !installed()) return { wiremock: { error: why }, prism: { error: why } };
		log(`installed in ${((performance.now() - began) / 1000).toFixed(1)} s`);
	}
	/** @param {string} dir */
	const manifest = async (dir) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
	/** @type {{ jar: string, version: string } | { error: string }} */
	let wiremock;
	try {
		// As its bin (npm-java-runner) finds it: the one file under the package that matches
		// "runnable-jar-regexp"; run with `java -jar` straight, so that its pid is the JVM's.
		const pkg = await manifest(wiremockDir);
		const pattern = new RegExp(pkg['runnable-jar-regexp'] ?? String.raw`build/.*\.jar`);
		const jars = readdirSync(join(wiremockDir, 'build'))
			.map((name) => `build/${name}`)
			.filter((name) => pattern.test(name));
		if (jars.length !== 1) throw new Error(`expected one JAR in ${wiremockDir}, found ${jars}`);
		wiremock = { jar: join(wiremockDir, jars[0] ?? ''), version: pkg.version };
	} catch (error) {
		wiremock = { error: error instanceof Error ? error.message : String(error) };
	}
	/** @type {{ cli: string, version: string } | { error: string }} */
	let prism;
	try {
		const pkg = await manifest(prismDir);
		const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.prism;
		prism = { cli: join(prismDir, bin), version: pkg.version };
	} catch (error) {
		prism = { error: error instanceof Error ? error.message : String(error) };
	}
	return { wiremock, prism };
}

/** The first line of `java -version`, or null. */
function javaVersion() {
	const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
	return java.status === 0 ? (java.stderr.split('\n')[0] ?? '').trim() : null;
}

/** @param {number | null} bytes */
function MiB(bytes) {
	return bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** @param {number} value */
const fixed0 = (value) => value.toFixed(0);

/** @param {number[]} values */
function loadAverage(values) {
	return `${values.map((value) => value.toFixed(2)).join(' ')} (1, 5, 15 min) on ${cpus().length} CPUs`;
}

/**
 * @typedef {{ name: string, spec: ServerSpec | null, why: string | null, startUps: number[], rps: number | null, failed: number, socketErrors: number, rss: number | null, note: string }} Measured
 */

/**
 * The section: prints its figures and returns the summary's rows. Sets process.exitCode to 1 when
 * a target is missed.
 * @param {{ log?: (text: string) => void, serverFile?: string, openApiFile?: string }} [options]
 *   the built sandbox-server.mjs and openapi.json (the whole bench's site build); made here from
 *   src/ when left out or absent, as the build makes them
 * @returns {Promise<[string, string, string, boolean | null][]>}
 */
export async function sandboxSection(options = {}) {
	const log = options.log ?? console.log;
	log(
		`\n## Sandbox server against WireMock and Prism (GET ${PATH}, ${SANDBOX_LOAD.concurrency} in flight, keep-alive)`
	);
	log(`load average at the start: ${loadAverage(loadavg())}`);
	const root = await mkdtemp(join(tmpdir(), 'mac-bench-sandbox-'));
	process.on('exit', killLive);
	try {
		return await measureAll(root, options, log);
	} finally {
		killLive();
		process.off('exit', killLive);
		await rm(root, { recursive: true, force: true });
	}
}

/**
 * @param {string} root a temporary directory
 * @param {{ serverFile?: string, openApiFile?: string }} options
 * @param {(text: string) => void} log
 * @returns {Promise<[string, string, string, boolean | null][]>}
 */
async function measureAll(root, options, log) {
	// Ours: the built file, or the same bundle made now by the build's own function.
	let serverFile = options.serverFile;
	if (serverFile === undefined || !existsSync(serverFile)) {
		const { bundleSandboxServer, FILE_NAME } = await import(
			pathToFileURL(join(PROJECT, 'src/build/sandbox-server-bundle.js')).href
		);
		serverFile = join(root, FILE_NAME);
		await writeFile(serverFile, await bundleSandboxServer());
		log(`ours: ${serverFile}, bundled from src/ by bundleSandboxServer() (as the build makes it)`);
	} else log(`ours: ${serverFile} (the site's build)`);
	let openApiFile = options.openApiFile;
	if (openApiFile === undefined || !existsSync(openApiFile)) {
		const { openApiDocument } = await loadLib('account-api/openapi.ts');
		openApiFile = join(root, 'openapi.json');
		await writeFile(openApiFile, `${JSON.stringify(openApiDocument(), null, '\t')}\n`);
	}

	// WireMock's one mapping, in a root directory of its own.
	const wiremockRoot = join(root, 'wiremock');
	await mkdir(join(wiremockRoot, 'mappings'), { recursive: true });
	await mkdir(join(wiremockRoot, '__files'), { recursive: true });
	await writeFile(
		join(wiremockRoot, 'mappings', 'profile.json'),
		JSON.stringify({
			request: { method: 'GET', url: PATH },
			response: {
				status: 200,
				headers: {
					'Content-Type': 'application/json; charset=utf-8',
					'Cache-Control': 'no-store'
				},
				body: JSON.stringify(BODY)
			}
		})
	);

	const installed = await peers(log);
	const java = javaVersion();
	/** @type {Measured[]} */
	const measured = [
		{
			name: 'ours',
			spec: {
				name: 'ours',
				command: process.execPath,
				args: (port) => [/** @type {string} */ (serverFile), '--port', String(port)]
			},
			why: null,
			startUps: [],
			rps: null,
			failed: 0,
			socketErrors: 0,
			rss: null,
			note: `node ${process.version}, default options`
		}
	];
	const { wiremock, prism } = installed;
	if ('error' in wiremock || java === null) {
		const why = 'error' in wiremock ? wiremock.error : 'no java on PATH';
		measured.push(notMeasured('WireMock', why));
	} else {
		measured.push({
			...notMeasured(`WireMock ${wiremock.version}`, null),
			spec: {
				name: 'WireMock',
				command: 'java',
				args: (port) => [
					'-jar',
					wiremock.jar,
					'--port',
					String(port),
					'--bind-address',
					'127.0.0.1',
					'--root-dir',
					wiremockRoot,
					'--disable-banner',
					'--no-request-journal',
					'--disable-request-logging'
				]
			},
			note: `${java}, java -jar, --no-request-journal --disable-request-logging`
		});
	}
	if ('error' in prism) measured.push(notMeasured('Prism', prism.error));
	else {
		const document = /** @type {string} */ (openApiFile);
		measured.push({
			...notMeasured(`Prism ${prism.version}`, null),
			spec: {
				name: 'Prism',
				command: process.execPath,
				args: (port) => [
					prism.cli,
					'mock',
					document,
					'--port',
					String(port),
					'--host',
					'127.0.0.1',
					'--verboseLevel',
					'error'
				]
			},
			note: `node ${process.version}, prism mock openapi.json, --verboseLevel error`
		});
	}
	log(
		`load generator: a child process (node:net, ${SANDBOX_LOAD.concurrency} keep-alive connections, one request at a time on each, every request with a fresh nonce and its signature, all signed before the first connection opens); only 2xx answers are counted`
	);

	// Start-up, best of 3, then 5 s of load on the last instance (after 1 s to warm up).
	for (const server of measured) {
		if (server.spec === null) continue;
		log(`\n${server.name} (${server.note})`);
		/** @type {Running | null} */
		let running = null;
		try {
			for (let round = 0; round < SANDBOX_LOAD.startUps; round++) {
				await running?.stop();
				running = await start(server.spec);
				server.startUps.push(running.startUpMs);
			}
			log(`    start-up (spawn -> first 200): ${server.startUps.map(fixed0).join(', ')} ms`);
			const { windows, done } = await runLoad({
				port: /** @type {Running} */ (running).port,
				pid: /** @type {Running} */ (running).pid,
				concurrency: SANDBOX_LOAD.concurrency,
				warmUpSeconds: SANDBOX_LOAD.warmUpSeconds,
				seconds: SANDBOX_LOAD.seconds,
				windows: 1
			});
			const window = windows[0];
			if (window !== undefined) {
				server.rps = window.rps;
				server.failed = window.failed;
				server.socketErrors = window.socketErrors;
				server.rss = window.rss;
			}
			log(
				`    ${fixed0(server.rps ?? 0)} req/s over ${window?.seconds.toFixed(2)} s (warm-up ${fixed0(done.warmUpRps)} req/s), ${server.failed} non-2xx, ${server.socketErrors} connection errors, RSS ${MiB(server.rss)}${signing(done)}`
			);
			if (done.firstFailure !== null)
				log(`    first non-2xx answer: ${JSON.stringify(done.firstFailure.slice(0, 400))}`);
		} catch (error) {
			server.why ??= error instanceof Error ? error.message : String(error);
			log(`    not measured: ${server.why}`);
		} finally {
			await running?.stop();
		}
	}

	// Ours over 30 s, freshly started.
	const ours = /** @type {Measured} */ (measured[0]);
	log(
		`\nours (--max-nonces ${NONCE_CAP}), freshly started, ${SANDBOX_LOAD.windows} consecutive ${SANDBOX_LOAD.seconds}-second windows after ${SANDBOX_LOAD.warmUpSeconds} s to warm up:`
	);
	/** @type {WindowFigures[]} */
	let windows = [];
	/** @type {string | null} */
	let windowsWhy = null;
	{
		/** @type {Running | null} */
		let running = null;
		try {
			const spec = /** @type {ServerSpec} */ (ours.spec);
			running = await start({
				...spec,
				args: (port) => [...spec.args(port), '--max-nonces', String(NONCE_CAP)]
			});
			const started = running;
			const rssBefore = rssNow(started.pid);
			log(`    RSS before the load: ${MiB(rssBefore)}`);
			const result = await runLoad(
				{
					port: started.port,
					pid: started.pid,
					concurrency: SANDBOX_LOAD.concurrency,
					warmUpSeconds: SANDBOX_LOAD.warmUpSeconds,
					seconds: SANDBOX_LOAD.seconds,
					windows: SANDBOX_LOAD.windows
				},
				(figures) =>
					log(
						`    window ${figures.window} (${(figures.window - 1) * SANDBOX_LOAD.seconds}-${figures.window * SANDBOX_LOAD.seconds} s): ${fixed0(figures.rps).padStart(6)} req/s, ${figures.failed} non-2xx, ${figures.socketErrors} connection errors, RSS ${MiB(figures.rss)}`
					)
			);
			windows = result.windows;
			log(`    ${signing(result.done).replace(/^; /, '')}`);
			if (result.done.firstFailure !== null)
				log(`    first non-2xx answer: ${JSON.stringify(result.done.firstFailure.slice(0, 400))}`);
		} catch (error) {
			windowsWhy = error instanceof Error ? error.message : String(error);
			log(`    not measured: ${windowsWhy}`);
		} finally {
			await running?.stop();
		}
	}

	// The table and the targets.
	log('\n| server | start-up, best of 3 | requests/s (5 s) | non-2xx | RSS after the 5 s |');
	log('| --- | --- | --- | --- | --- |');
	for (const server of measured) {
		if (server.why !== null && server.rps === null) {
			log(`| ${server.name} | not measured: ${server.why} | | | |`);
			continue;
		}
		const best = server.startUps.length > 0 ? `${fixed0(Math.min(...server.startUps))} ms` : '—';
		log(
			`| ${server.name} | ${best} | ${server.rps === null ? '—' : fixed0(server.rps)} | ${server.failed + server.socketErrors} | ${MiB(server.rss)} |`
		);
	}

	const peersMeasured = measured.slice(1);
	const peerStartUps = peersMeasured
		.filter((server) => server.startUps.length === SANDBOX_LOAD.startUps)
		.map((server) => ({ name: server.name, ms: Math.min(...server.startUps) }));
	const fastestPeer = peerStartUps.sort((a, b) => a.ms - b.ms)[0];
	const ourStartUp = ours.startUps.length > 0 ? Math.min(...ours.startUps) : null;
	const wiremockMeasured = peersMeasured.find((server) => server.name.startsWith('WireMock'));
	const first = windows[0];
	const lastWindow = windows.at(-1);
	const complete = windows.length === SANDBOX_LOAD.windows;
	const windowErrors = windows.reduce(
		(sum, window) => sum + window.failed + window.socketErrors,
		0
	);

	/** @type {{ figure: string, value: string, target: string, met: boolean | null }[]} */
	const targets = [];
	const startUpLimit =
		fastestPeer === undefined ? null : SANDBOX_TARGETS.startUpFraction * fastestPeer.ms;
	targets.push({
		figure: 'Sandbox start-up, spawn -> first 200 (best of 3)',
		value: ourStartUp === null ? 'not measured' : `${fixed0(ourStartUp)} ms`,
		target:
			startUpLimit === null || fastestPeer === undefined
				? `≤ ${SANDBOX_TARGETS.startUpFraction} × the faster peer's (no peer measured)`
				: `≤ ${SANDBOX_TARGETS.startUpFraction} × ${fastestPeer.name}'s ${fixed0(fastestPeer.ms)} ms = ${fixed0(startUpLimit)} ms`,
		met: ourStartUp === null ? false : startUpLimit === null ? null : ourStartUp <= startUpLimit
	});
	const wiremockRps = wiremockMeasured?.rps ?? null;
	const ourErrors = ours.failed + ours.socketErrors;
	targets.push({
		figure: 'Sandbox throughput, 16 in flight, every signature verified (req/s)',
		value:
			ours.rps === null ? 'not measured' : `${fixed0(ours.rps)} (${ourErrors} not answered 2xx)`,
		target:
			wiremockRps === null
				? `≥ WireMock's (WireMock not measured)`
				: `≥ WireMock's ${fixed0(wiremockRps)}, all 2xx`,
		met:
			ours.rps === null
				? false
				: wiremockRps === null
					? null
					: ours.rps >= wiremockRps && ourErrors === 0
	});
	targets.push({
		figure: `Sandbox last ${SANDBOX_LOAD.seconds}-s window ÷ first (req/s)`,
		value:
			complete && first !== undefined && lastWindow !== undefined
				? `${fixed0(lastWindow.rps)} ÷ ${fixed0(first.rps)} = ${(lastWindow.rps / first.rps).toFixed(2)} (${windowErrors} not answered 2xx)`
				: `not measured${windowsWhy ? `: ${windowsWhy}` : ''}`,
		target: `≥ ${SANDBOX_TARGETS.lastWindow}, all 2xx`,
		met:
			complete && first !== undefined && lastWindow !== undefined
				? lastWindow.rps >= SANDBOX_TARGETS.lastWindow * first.rps && windowErrors === 0
				: false
	});
	const rssFirst = windows[2]?.rss ?? null;
	const rssLast = lastWindow?.rss ?? null;
	targets.push({
		figure: `Sandbox RSS (--max-nonces ${NONCE_CAP}), end of the 30 s ÷ after 15 s`,
		value:
			complete && rssFirst !== null && rssLast !== null
				? `${MiB(rssLast)} ÷ ${MiB(rssFirst)} = ${(rssLast / rssFirst).toFixed(2)}`
				: 'not measured',
		target: `≤ ${SANDBOX_TARGETS.rssGrowth}`,
		met:
			complete && rssFirst !== null && rssLast !== null
				? rssLast <= SANDBOX_TARGETS.rssGrowth * rssFirst
				: false
	});

	log('\ntargets:');
	for (const { figure, value, target, met } of targets)
		log(
			`    ${figure}: ${value}; target ${target}: ${met === null ? 'n/a (not judged)' : met ? 'PASS' : 'FAIL'}`
		);
	log(`load average at the end: ${loadAverage(loadavg())}`);
	if (targets.some((target) => target.met === false)) process.exitCode = 1;

	/** @type {[string, string, string, boolean | null][]} */
	const rows = targets.map(({ figure, value, target, met }) => [figure, value, target, met]);
	for (const peer of peersMeasured)
		rows.push([
			`${peer.name}: start-up (best of 3), req/s`,
			peer.rps === null
				? `not measured: ${peer.why ?? ''}`
				: `${fixed0(Math.min(...peer.startUps))} ms, ${fixed0(peer.rps)} req/s`,
			'',
			null
		]);
	return rows;
}

/** @param {string} name @param {string | null} why @returns {Measured} */
function notMeasured(name, why) {
	return {
		name,
		spec: null,
		why,
		startUps: [],
		rps: null,
		failed: 0,
		socketErrors: 0,
		rss: null,
		note: ''
	};
}

/** @param {LoadDone} done */
function signing(done) {
	return `; ${done.presigned} requests signed ahead in ${done.signSeconds.toFixed(2)} s, ${done.signedDuring} signed during the windows`;
}

const [mode, plan] = process.argv.slice(2);
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	if (mode === 'load' && plan !== undefined) {
		await loadChild(JSON.parse(plan));
		process.exit(0);
	} else if (mode === undefined) {
		const rows = await sandboxSection();
		for (const [figure, value, target, met] of rows)
			console.log(
				`| ${figure} | ${value} | ${target || '—'} | ${met === null ? '—' : met ? 'yes' : '**no**'} |`
			);
	} else {
		console.error('Usage: node tests/bench/sandbox.js [load PLAN]');
		process.exit(2);
	}
}
