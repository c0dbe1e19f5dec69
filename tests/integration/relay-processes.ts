// Real relay and sandbox processes for the network tests, and a raw-socket client to talk to them.
// Every process loads the loopback guard, so none of them can reach past this machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { authorizationHeader, baseString, requestTarget, sign } from '$lib/mac';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import './relay-loopback-guard.js';

const GUARD = fileURLToPath(new URL('./relay-loopback-guard.js', import.meta.url));

export interface Started {
	url: string;
	port: number;
	child: ChildProcess;
	/** Everything the process printed. */
	output: () => string;
}

/** Starts `npm run proxy -- <args>` as its own process and waits for its "listening" line. */
export function startRelay(args: string[]): Promise<Started> {
	const child = spawn(process.execPath, ['src/node/relay/run.js', ...args], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, NODE_OPTIONS: `--import=${GUARD}` }
	});
	let output = '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`no "listening" line within 20 s:\n${output}`));
		}, 20_000);
		const read = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
			if (match?.[1]) {
				clearTimeout(timer);
				resolve({
					url: match[1],
					port: Number(new URL(match[1]).port),
					child,
					output: () => output
				});
			}
		};
		child.stdout?.on('data', read);
		child.stderr?.on('data', read);
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`exited with ${code}:\n${output}`));
		});
	});
}

/** Whether the process is still running (it has not exited and answers signal 0). */
export function alive(started: Started): boolean {
	if (started.child.exitCode !== null || started.child.signalCode !== null) return false;
	try {
		return process.kill(started.child.pid!, 0);
	} catch {
		return false;
	}
}

/** The resident set size of a process in bytes, from /proc; null where there is no /proc. */
export async function rss(started: Started): Promise<number | null> {
	try {
		const status = await readFile(`/proc/${started.child.pid}/status`, 'utf8');
		const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
		return kib === undefined ? null : Number(kib) * 1024;
	} catch {
		return null;
	}
}

export interface RawAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * Sends bytes as they are over a new TCP connection to 127.0.0.1 and reads one HTTP answer
 * (by Content-Length, else to the end of the connection), within `timeoutMs`.
 */
export function rawRequest(
	port: number,
	bytes: string | Buffer,
	timeoutMs = 10_000
): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		let received = Buffer.alloc(0);
		const timer = setTimeout(() => {
			socket.destroy();
			reject(
				new Error(
					`no complete answer within ${timeoutMs} ms: ${JSON.stringify(received.toString('latin1'))}`
				)
			);
		}, timeoutMs);
		const parse = (final: boolean) => {
			const text = received.toString('latin1');
			const end = text.indexOf('\r\n\r\n');
			if (end === -1) {
				if (final) finish(new Error(`no answer: ${JSON.stringify(text)}`));
				return;
			}
			const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
			const headers: Record<string, string> = {};
			for (const line of lines) {
				const colon = line.indexOf(':');
				headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
			}
			const length = headers['content-length'];
			const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
			if (length !== undefined ? body.byteLength >= Number(length) : final) {
				finish(null, {
					status: Number(statusLine.split(' ')[1]),
					headers,
					body: body.subarray(0, length === undefined ? undefined : Number(length)).toString()
				});
			}
		};
		let done = false;
		const finish = (error: Error | null, answer?: RawAnswer) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			socket.destroy();
			if (error) reject(error);
			else resolve(answer!);
		};
		socket.on('data', (chunk) => {
			received = Buffer.concat([received, chunk]);
			parse(false);
		});
		socket.on('end', () => parse(true));
		socket.on('close', () => parse(true));
		socket.on('error', (error) => (received.byteLength > 0 ? parse(true) : finish(error)));
		socket.write(bytes);
	});
}

/** The first demo account, whose requests the network tests sign. */
export const account = DEMO_ACCOUNTS[0]!;

/** An Authorization header for a GET of `url`, signed now with a fresh nonce. */
export async function signedHeader(url: string, macKey = account.macKey): Promise<string> {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = `n-${Math.random().toString(36).slice(2)}`;
	const mac = await sign(macKey, baseString({ ts, nonce, method: 'GET', ...requestTarget(url) }));
	return authorizationHeader({ id: account.kid, ts, nonce, mac });
}
