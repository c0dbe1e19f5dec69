// The relay and the sandbox server as real processes, sent malformed requests over raw sockets and
// misbehaving upstream answers (statuses, floods, trickles, resets, garbage). Each must be answered
// with a JSON error and a fitting status, memory must stay bounded, and the process must live on.
// Everything stays on loopback: the test process and every child load a guard that fails any
// connection elsewhere. Every loop is bounded by a count and by time.
import { createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	account,
	alive,
	rawRequest,
	rss,
	signedHeader,
	startRelay,
	type Started
} from './relay-processes';

const MiB = 1024 * 1024;
const FLOOD_BYTES = 128 * MiB;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** What the hostile upstream did, for assertions about how much the relay read. */
const upstreamStats = { floodWritten: 0, seen: [] as { target: string; head: string }[] };

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The hostile upstream's connections that get no answer at all, closed after the tests. */
const silent = new Set<Socket>();

/** Writes up to `total` bytes, waiting for the reader, until the peer goes away; bounded by count and time. */
async function flood(socket: Socket, total: number, chunked: boolean): Promise<void> {
	const deadline = Date.now() + 20_000;
	for (let sent = 0; sent < total && Date.now() < deadline && !socket.destroyed;) {
		const piece = chunked
			? Buffer.concat([
					Buffer.from(`${CHUNK.byteLength.toString(16)}\r\n`),
					CHUNK,
					Buffer.from('\r\n')
				])
			: CHUNK;
		sent += CHUNK.byteLength;
		upstreamStats.floodWritten += CHUNK.byteLength;
		if (!socket.write(piece)) {
			await Promise.race([
				new Promise((done) => socket.once('drain', done)),
				new Promise((done) => socket.once('close', done)),
				sleep(5_000)
			]);
		}
	}
	socket.end();
}

async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
	for (let i = 0; i < text.length && i < 200 && !socket.destroyed; i++) {
		socket.write(text[i]!);
		await sleep(everyMs);
	}
	socket.end();
}

const JSON_HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n';

/** An upstream that misbehaves in the way its request path names. */
function hostileUpstream(): Promise<{ server: Server; port: number }> {
	const server = createServer((socket) => {
		socket.on('error', () => {});
		let head = '';
		socket.on('data', (chunk) => {
			if (head.includes('\r\n\r\n')) return;
			head += chunk.toString('latin1');
			if (head.length > 64 * 1024) return socket.destroy();
			if (!head.includes('\r\n\r\n')) return;
			const target = head.split(' ')[1] ?? '';
			upstreamStats.seen.push({ target, head });
			const path = target.split('?')[0];
			const status = /^\/status\/(\d+)$/.exec(path ?? '')?.[1];
			if (status) {
				const extra = status.startsWith('3') ? 'location: http://169.254.169.254/\r\n' : '';
				const upgrade = status === '101' ? 'upgrade: evil\r\nconnection: upgrade\r\n' : '';
				socket.end(`HTTP/1.1 ${status} Whatever\r\n${extra}${upgrade}content-length: 2\r\n\r\nhi`);
				return;
			}
			switch (path) {
				case '/ok':
				case '/echo':
					socket.end(`${JSON_HEAD}content-length: 11\r\n\r\n{"ok":true}`);
					return;
				case '/html':
					socket.end(
						'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 29\r\n\r\n<script>alert(1)</script>\r\n\r\n'
					);
					return;
				case '/gzip': {
					const body = gzipSync('{"zipped":true}');
					socket.write(
						`${JSON_HEAD}content-encoding: gzip\r\ncontent-length: ${body.byteLength}\r\n\r\n`
					);
					socket.end(body);
					return;
				}
				case '/reset':
					socket.resetAndDestroy();
					return;
				case '/short':
					socket.write(`${JSON_HEAD}content-length: 100\r\n\r\n{"ok":`);
					setTimeout(() => socket.destroy(), 50);
					return;
				case '/reset-midway':
					socket.write(`${JSON_HEAD}transfer-encoding: chunked\r\n\r\n5\r\n{"ok"\r\n`);
					setTimeout(() => socket.resetAndDestroy(), 50);
					return;
				case '/garbage':
					socket.end('\x00\x01\x02 this is not HTTP\r\n\r\n\xff\xfe');
					return;
				case '/huge-headers':
					socket.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(100_000)}\r\n\r\n`);
					return;
				case '/silent':
					// Never answers: held until the tests end, whatever the relay's timeout and however
					// long the relay takes to reach it.
					silent.add(socket);
					return;
				case '/trickle-head':
					void trickle(socket, `${JSON_HEAD}content-length: 2\r\n\r\nok`, 100);
					return;
				case '/trickle-body':
					socket.write(`${JSON_HEAD}content-length: 150\r\n\r\n`);
					void trickle(socket, 'x'.repeat(150), 100);
					return;
				case '/flood':
					socket.write(`${JSON_HEAD}\r\n`);
					void flood(socket, FLOOD_BYTES, false);
					return;
				case '/flood-chunked':
					socket.write(`${JSON_HEAD}transfer-encoding: chunked\r\n\r\n`);
					void flood(socket, FLOOD_BYTES, true);
					return;
				case '/flood-length':
					socket.write(`${JSON_HEAD}content-length: ${FLOOD_BYTES}\r\n\r\n`);
					void flood(socket, FLOOD_BYTES, false);
					return;
				default:
					socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
			}
		});
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
		})
	);
}

let hostile: Awaited<ReturnType<typeof hostileUpstream>>;
let sandboxServer: Started;
let relay: Started;
let sandboxRelay: Started;

beforeAll(async () => {
	hostile = await hostileUpstream();
	sandboxServer = await startRelay(['--serve-sandbox', '--port', '0']);
	[relay, sandboxRelay] = await Promise.all([
		startRelay([
			'--port',
			'0',
			'--timeout',
			'1.5',
			'--connect-to',
			`open.tapapis.cn=${sandboxServer.url.replace('http://', '')}`,
			'--allow-host',
			'bad.test',
			'--connect-to',
			`bad.test=127.0.0.1:${hostile.port}`
		]),
		startRelay(['--sandbox', '--port', '0'])
	]);
});

afterAll(() => {
	for (const socket of silent) socket.destroy();
	for (const started of [relay, sandboxRelay, sandboxServer]) started?.child.kill();
	hostile?.server.close();
});

/** A signed request through the relay to the sandbox service: the proof that the relay still works. */
async function stillServes(): Promise<void> {
	expect(alive(relay)).toBe(true);
	const upstream = `https://open.tapapis.cn/account/profile/v1?client_id=${account.clientId}`;
	const response = await fetch(`${relay.url}/${upstream}`, {
		headers: { authorization: await signedHeader(upstream) }
	});
	expect(response.status).toBe(200);
}

function jsonOf(body: string): Record<string, unknown> {
	return JSON.parse(body) as Record<string, unknown>;
}

describe('malformed requests over raw sockets', () => {
	const cases: [name: string, request: (port: number) => string, relay: number, sandbox: number][] =
		[
			['TRACE', () => 'TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 405, 405],
			[
				'CONNECT',
				() => 'CONNECT open.tapapis.cn:443 HTTP/1.1\r\nHost: open.tapapis.cn:443\r\n\r\n',
				405,
				405
			],
			['a Host with a space', () => 'GET / HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 400],
			['OPTIONS *', (port) => `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 400, 400],
			[
				'an absolute-form target with a Host that has a port',
				(port) => `GET http://x/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
				400,
				404
			],
			[
				'a Host with credentials',
				(port) => `GET / HTTP/1.1\r\nHost: u@127.0.0.1:${port}\r\n\r\n`,
				400,
				400
			],
			[
				'an X-Forwarded-Proto that is not a scheme',
				() =>
					'GET /account/profile/v1 HTTP/1.1\r\nHost: open.tapapis.cn\r\nX-Forwarded-Proto: a b\r\n\r\n',
				400,
				400
			],
			['bytes that are not HTTP', () => '\x00\x01\x02 hello\r\n\r\n', 400, 400],
			['an unknown method', () => 'BREW / HTTP/1.1\r\nHost: h\r\n\r\n', 400, 400],
			[
				'a target with raw non-ASCII bytes',
				() => 'GET /caf\xc3\xa9 HTTP/1.1\r\nHost: h\r\n\r\n',
				400,
				400
			],
			[
				'Content-Length and Transfer-Encoding together',
				() =>
					'GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
				400,
				400
			],
			[
				'headers over 16 KiB',
				() => `GET / HTTP/1.1\r\nHost: h\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
				431,
				431
			],
			['HTTP/1.0 without a Host', () => 'GET / HTTP/1.0\r\n\r\n', 400, 404],
			['HTTP/1.1 without a Host', () => 'GET / HTTP/1.1\r\n\r\n', 400, 400],
			[
				'a template URL with CR LF in it',
				() =>
					'GET /?url=https%3A%2F%2Fopen.tapapis.cn%2F%0D%0AX-Evil%3A%201 HTTP/1.1\r\nHost: h\r\n\r\n',
				400,
				404
			],
			['a broken percent-escape', () => 'GET /?url=%ZZ HTTP/1.1\r\nHost: h\r\n\r\n', 400, 404]
		];

	// The sandbox server answers for any host it is called by (as integrators' tests call it), so a
	// request it can read but that names no operation is the service's not_found.
	it.each(cases)(
		'answers %s with JSON, and keeps serving',
		async (_, request, relayStatus, sandboxStatus) => {
			for (const [started, status] of [
				[relay, relayStatus],
				[sandboxRelay, relayStatus],
				[sandboxServer, sandboxStatus]
			] as const) {
				const answer = await rawRequest(started.port, request(started.port));
				expect(answer.status, `${started.url}: ${answer.body}`).toBe(status);
				expect(answer.headers['content-type']).toMatch(/^application\/json/);
				const body = jsonOf(answer.body);
				if (started === sandboxServer) {
					expect(body.success === false || typeof body.message === 'string').toBe(true);
				} else {
					expect(typeof body.relay_error).toBe('string');
					expect(answer.headers['x-relay-error']).toBe(body.relay_error);
				}
				expect(alive(started)).toBe(true);
			}
			await stillServes();
		}
	);

	it('answers an Origin that only looks like an allowed one with origin_not_allowed', async () => {
		const answer = await rawRequest(
			relay.port,
			'GET /http://bad.test/ok HTTP/1.1\r\nHost: h\r\nOrigin: https://evil.com#.github.io\r\n\r\n'
		);
		expect(answer.status).toBe(403);
		expect(answer.headers['x-relay-error']).toBe('origin_not_allowed');
		expect(answer.headers['access-control-allow-origin']).toBeUndefined();
	});

	it('survives a burst of 300 malformed and well-formed requests at once, with bounded memory', async () => {
		const before = (await rss(relay)) ?? 0;
		const bursts = Array.from({ length: 300 }, (_, i) =>
			rawRequest(
				relay.port,
				i % 3 === 0
					? 'TRACE / HTTP/1.1\r\nHost: h\r\n\r\n'
					: i % 3 === 1
						? '\x16\x03\x01 garbage\r\n\r\n'
						: 'GET /http://bad.test/ok HTTP/1.1\r\nHost: h\r\n\r\n',
				15_000
			)
		);
		const answers = await Promise.all(bursts);
		expect(answers.every((answer) => answer.status >= 200 && answer.status < 600)).toBe(true);
		const after = await rss(relay);
		if (after !== null) expect(after - before).toBeLessThan(64 * MiB);
		await stillServes();
	});
});

describe('misbehaving upstream answers', () => {
	const through = (path: string) => fetch(`${relay.url}/http://bad.test${path}`);

	it.each([
		['status 600', '/status/600', 502, 'upstream_invalid'],
		['status 999', '/status/999', 502, 'upstream_invalid'],
		['101 Switching Protocols', '/status/101', 502, 'upstream_invalid'],
		['a redirect', '/status/302', 502, 'redirect_not_followed'],
		['a reset before any answer', '/reset', 502, 'upstream_reset'],
		['a body shorter than its Content-Length', '/short', 502, 'upstream_incomplete'],
		['a reset in the middle of a chunked body', '/reset-midway', 502, 'upstream_incomplete'],
		['bytes that are not HTTP', '/garbage', 502, 'upstream_invalid'],
		['headers over the client limit', '/huge-headers', 502, 'upstream_invalid'],
		['no answer at all', '/silent', 504, 'upstream_timeout'],
		['a status line one byte at a time', '/trickle-head', 504, 'upstream_timeout'],
		['a body one byte at a time', '/trickle-body', 504, 'upstream_timeout'],
		['a Content-Length of 128 MiB', '/flood-length', 502, 'response_too_large']
	])('answers %s with its own error, and keeps serving', async (_, path, status, code) => {
		const started = Date.now();
		const response = await through(path);
		expect(response.status).toBe(status);
		expect(response.headers.get('x-relay-error')).toBe(code);
		expect((await response.json()).relay_error).toBe(code);
		// Within the 1.5 s time limit, plus slack for a loaded machine.
		expect(Date.now() - started).toBeLessThan(6_000);
		await stillServes();
	});

	it.each([
		['205 Reset Content', '/status/205', 205],
		['304 Not Modified', '/status/304', 304],
		['204 No Content', '/status/204', 204]
	])('passes %s on as the upstream sent it, without a body', async (_, path, status) => {
		const response = await through(path);
		expect(response.status).toBe(status);
		expect(response.headers.get('x-relay-error')).toBeNull();
		expect(await response.text()).toBe('');
		await stillServes();
	});

	it('stops reading a 128 MiB answer at the cap, in both framings, with flat memory', async () => {
		const before = (await rss(relay)) ?? 0;
		for (const path of ['/flood', '/flood-chunked', '/flood', '/flood-chunked']) {
			const written = upstreamStats.floodWritten;
			const response = await through(path);
			expect(response.status).toBe(502);
			expect(response.headers.get('x-relay-error')).toBe('response_too_large');
			await response.text();
			// The relay closed the connection near 1 MiB; socket buffers hold a few MiB more at most.
			await sleep(200);
			expect(upstreamStats.floodWritten - written).toBeLessThan(24 * MiB);
		}
		const after = await rss(relay);
		if (after !== null) expect(after - before).toBeLessThan(48 * MiB);
		await stillServes();
	});

	it('passes a gzip body on with its content-encoding, so the client can read it', async () => {
		const response = await through('/gzip');
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ zipped: true });
	});

	it('serves every relayed body as inert: nosniff and a sandboxing CSP', async () => {
		const response = await through('/html');
		expect(response.status).toBe(200);
		expect(response.headers.get('x-content-type-options')).toBe('nosniff');
		expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
	});

	it('keeps an explicit :443 out of the path, and sends the host as the URL names it', async () => {
		const before = upstreamStats.seen.length;
		const response = await fetch(`${relay.url}/https://bad.test:443/echo?a=1`);
		expect(response.status).toBe(200);
		const seen = upstreamStats.seen[before]!;
		expect(seen.target).toBe('/echo?a=1');
		expect(seen.head).toMatch(/\r\nhost: bad\.test\r\n/i);
		expect(seen.head).toMatch(/\r\nx-forwarded-proto: https\r\n/i);
	});
});
