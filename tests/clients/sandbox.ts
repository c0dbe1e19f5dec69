// The sandbox service the zoo's requests go to, and the raw HTTP/1.1 they go over.
//
// The server is the sandbox server of `npm run sandbox` (src/node/sandbox-server/server.ts),
// started here in the test process for two reasons: its clock is the zoo's (each request is
// answered at the instant its client read the clock, so no answer depends on how long the run
// takes), and it knows one credential more than the demo accounts, a mac_key with non-ASCII
// characters, which an accounts file could hold too but the zoo makes at run time.
import net from 'node:net';
import { startSandboxServer } from '../../src/node/sandbox-server/server';
import { demoTokens } from '../../src/lib/sandbox/state';
import type { Account } from './matrix';

export interface ZooSandbox {
	url: string;
	/** Sets the server's clock for the next request. */
	setNow: (ms: number) => void;
	close: () => Promise<void>;
}

/** The sandbox service with the zoo's clock and the extra credentials, listening on 127.0.0.1. */
export async function startSandbox(extra: readonly Account[]): Promise<ZooSandbox> {
	let now = 0;
	const tokens = demoTokens();
	const profile = tokens[0]!;
	for (const account of extra) {
		if (tokens.some((token) => token.kid === account.kid)) continue;
		tokens.push({
			...profile,
			kid: account.kid,
			macKey: account.macKey,
			clientId: account.clientId,
			scopes: ['basic_info', 'public_profile']
		});
	}
	const server = await startSandboxServer({ host: '127.0.0.1', port: 0, tokens, now: () => now });
	return { url: server.url, setNow: (ms) => (now = ms), close: server.close };
}

/** Whether an address is loopback: 127.0.0.0/8 or ::1. Nothing else is ever connected to. */
export function isLoopbackAddress(address: string): boolean {
	const text = address.replace(/^\[|\]$/g, '');
	if (net.isIPv4(text)) return text.split('.')[0] === '127';
	return net.isIPv6(text) && /^(?:0{0,4}:){2,7}0{0,3}1$/.test(text);
}

export interface RawRequest {
	method: string;
	/** The request-target as the client puts it on the wire (sent as UTF-8 bytes, raw). */
	target: string;
	host: string;
	authorization: string;
	https: boolean;
}

export interface Answer {
	status: number;
	/** The service's `error`, from the body's data (or the body itself). */
	error: string | null;
	description: string | null;
	/** The base string the sandbox signed, which it returns with a mac mismatch. */
	sandboxBaseString: string | null;
}

const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Sends one request as raw HTTP/1.1 over a socket to a loopback server and reads its answer: the
 * target's bytes go out exactly as given, spaces and all. Refuses any address but loopback.
 */
export function sendRaw(serverUrl: string, request: RawRequest, timeoutMs = 5000): Promise<Answer> {
	const { hostname, port } = new URL(serverUrl);
	if (!isLoopbackAddress(hostname))
		throw new Error(`the zoo sends to loopback only, not ${hostname}`);
	const head = [
		`${request.method} ${request.target} HTTP/1.1`,
		`Host: ${request.host}`,
		`Authorization: ${request.authorization}`,
		...(request.https ? ['X-Forwarded-Proto: https'] : []),
		'Connection: close',
		'',
		''
	].join('\r\n');
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
		socket.setTimeout(timeoutMs, () =>
			socket.destroy(new Error(`no answer within ${timeoutMs} ms`))
		);
		// Written, not ended: a half-closed socket would lose the answer to a request the server refuses.
		socket.on('connect', () => socket.write(Buffer.from(head, 'utf8')));
		socket.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_ANSWER_BYTES) socket.destroy(new Error('answer larger than 1 MiB'));
			else chunks.push(chunk);
		});
		socket.on('error', reject);
		socket.on('close', () => {
			try {
				resolve(readAnswer(Buffer.concat(chunks).toString('utf8')));
			} catch (error) {
				reject(error);
			}
		});
	});
}

function readAnswer(text: string): Answer {
	const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
	if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(text.slice(0, 80))}`);
	const body = text.slice(text.indexOf('\r\n\r\n') + 4);
	let data: Record<string, unknown> = {};
	try {
		const parsed = JSON.parse(body) as Record<string, unknown>;
		data = (parsed.data ?? parsed) as Record<string, unknown>;
	} catch {
		// not JSON: only the status is kept
	}
	const stringOf = (value: unknown) => (typeof value === 'string' ? value : null);
	return {
		status: Number(status[1]),
		error: stringOf(data.error),
		description: stringOf(data.error_description),
		sandboxBaseString: stringOf(data.sandbox_base_string)
	};
}
