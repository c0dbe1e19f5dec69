// The request-target's bytes, exactly: a client signs the path and query it sends, so the sandbox
// server must verify those bytes and the relay must pass them upstream unchanged, whatever legal
// characters they hold. Requests go over raw sockets, since fetch would re-encode some bytes first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, baseString, sign } from '$lib/mac';
import { account, rawRequest, startRelay, type Started } from './relay-processes';

const HOST = 'open.tapapis.cn';
const RESOURCE = '/account/profile/v1';

/**
 * What a client may send in a path segment as is: RFC 3986's pchar (unreserved, sub-delims, `:`
 * and `@`) and the printable characters browsers and curl also send unencoded (`"`, `<`, `>`, `\`,
 * `^`, backquote, `{`, `|`, `}`), which servers accept; `%` only as an escape.
 */
const SEGMENT_CHARS = [...'ABCXYZabcxyz0189-._~', ...`!$&'()*+,;=:@`, ...'"<>\\^`{|}'];
const QUERY_CHARS = [...SEGMENT_CHARS, '/', '?'];
const escape = fc
	.tuple(fc.constantFrom(...'0123456789ABCDEFabcdef'), fc.constantFrom(...'0123456789ABCDEFabcdef'))
	.map(([a, b]) => `%${a}${b}`);
const textOf = (chars: string[]) =>
	fc
		.array(
			fc.oneof(
				{ weight: 6, arbitrary: fc.constantFrom(...chars) },
				{ weight: 1, arbitrary: escape }
			),
			{
				maxLength: 24
			}
		)
		.map((parts) => parts.join(''));
const pathArb = fc
	.array(textOf(SEGMENT_CHARS), { minLength: 1, maxLength: 4 })
	.map((segments) => `/${segments.join('/')}`);
const queryArb = textOf(QUERY_CHARS);

let sandboxServer: Started;
let relay: Started;
let sandboxRelay: Started;
let capture: { server: Server; port: number; seen: string[] };

beforeAll(async () => {
	const seen: string[] = [];
	const server = createServer((request, response) => {
		seen.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{}');
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	capture = { server, port: (server.address() as AddressInfo).port, seen };
	sandboxServer = await startRelay(['--serve-sandbox', '--port', '0']);
	[relay, sandboxRelay] = await Promise.all([
		startRelay([
			'--port',
			'0',
			'--connect-to',
			`${HOST}=${sandboxServer.url.replace('http://', '')}`,
			'--allow-host',
			'capture.test',
			'--connect-to',
			`capture.test=127.0.0.1:${capture.port}`
		]),
		startRelay(['--sandbox', '--port', '0'])
	]);
});

afterAll(() => {
	for (const started of [relay, sandboxRelay, sandboxServer]) started?.child.kill();
	capture?.server.close();
});

let counter = 0;

/** An Authorization header signed over exactly these URI bytes, for https://open.tapapis.cn. */
async function signedOver(uri: string): Promise<string> {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = `raw-${process.pid}-${++counter}`;
	const mac = await sign(
		account.macKey,
		baseString({ ts, nonce, method: 'GET', uri, host: HOST, port: '443' })
	);
	return authorizationHeader({ id: account.kid, ts, nonce, mac });
}

/** The three ways a signed request reaches the sandbox's verification, each as raw bytes. */
async function verifiedEverywhere(query: string): Promise<void> {
	const uri = `${RESOURCE}?client_id=${account.clientId}&${query}`;
	const routes: [Started, string, string][] = [
		[sandboxServer, uri, `Host: ${HOST}\r\nX-Forwarded-Proto: https\r\n`],
		[relay, `/https://${HOST}${uri}`, 'Host: 127.0.0.1\r\n'],
		[sandboxRelay, `/https://${HOST}${uri}`, 'Host: 127.0.0.1\r\n']
	];
	for (const [started, target, headers] of routes) {
		const answer = await rawRequest(
			started.port,
			`GET ${target} HTTP/1.1\r\n${headers}Authorization: ${await signedOver(uri)}\r\n\r\n`
		);
		expect(answer.status, `${started.url} ${target}: ${answer.body}`).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ success: true });
	}
}

describe('the request-target bytes, exactly', () => {
	it('verifies a query sent with \' " < > as is, on every path to the sandbox', async () => {
		await verifiedEverywhere(`state=it's&q="<a>"`);
	});

	it('verifies every legal query a client signs, on every path to the sandbox (property)', async () => {
		await fc.assert(
			fc.asyncProperty(queryArb, (query) => verifiedEverywhere(query)),
			{ numRuns: 40 }
		);
	});

	it('hands the upstream every legal path and query byte for byte (property)', async () => {
		await fc.assert(
			fc.asyncProperty(pathArb, fc.option(queryArb), async (path, query) => {
				const target = query === null ? path : `${path}?${query}`;
				const before = capture.seen.length;
				const answer = await rawRequest(
					relay.port,
					`GET /http://capture.test${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`
				);
				expect(answer.status, answer.body).toBe(200);
				expect(capture.seen[before]).toBe(target);
			}),
			{ numRuns: 100 }
		);
	});
});
