// The relay's handler and Node upstream in this process: the address it connects to is the one it
// checked, and a name it cannot resolve is refused rather than let through.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	createRelay,
	createRelayCore,
	type UpstreamAnswer,
	type UpstreamRequest
} from '$lib/relay/handler';
import { nodeUpstream } from '../../src/node/relay/node';
import './relay-loopback-guard.js';

const relayUrl = (upstream: string) => `http://127.0.0.1:8787/${upstream}`;

function recordingUpstream() {
	const calls: UpstreamRequest[] = [];
	const upstream = async (request: UpstreamRequest) => {
		calls.push(request);
		return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
	};
	return { calls, upstream };
}

describe('the address check', () => {
	it('refuses a name whose lookup fails, without contacting anything', async () => {
		const { calls, upstream } = recordingUpstream();
		const relay = createRelay({
			upstream,
			resolveHost: () => Promise.reject(new Error('SERVFAIL'))
		});
		const response = await relay(new Request(relayUrl('https://open.tapapis.cn/x')));
		expect(response.status).toBe(502);
		expect(response.headers.get('x-relay-error')).toBe('upstream_unreachable');
		expect(calls).toHaveLength(0);
	});

	it('refuses a name with any inside address among its answers', async () => {
		const { calls, upstream } = recordingUpstream();
		const relay = createRelay({
			upstream,
			resolveHost: async () => ['93.184.216.34', '::ffff:7f00:1']
		});
		const response = await relay(new Request(relayUrl('https://open.tapapis.cn/x')));
		expect(response.headers.get('x-relay-error')).toBe('address_not_allowed');
		expect(calls).toHaveLength(0);
	});

	it('hands the upstream exactly the addresses it checked', async () => {
		const { calls, upstream } = recordingUpstream();
		let lookups = 0;
		const relay = createRelay({
			upstream,
			resolveHost: async () => {
				lookups += 1;
				return ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'];
			}
		});
		const response = await relay(new Request(relayUrl('https://open.tapapis.cn/x?y=1')));
		expect(response.status).toBe(200);
		expect(lookups).toBe(1);
		expect(calls[0]).toMatchObject({
			hostname: 'open.tapapis.cn',
			path: '/x?y=1',
			addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']
		});
	});

	it('takes the request-target as the server received it, not as the URL parser re-encodes it', async () => {
		const { calls, upstream } = recordingUpstream();
		const relay = createRelayCore({ upstream, resolveHost: async () => ['93.184.216.34'] });
		const answer = await relay({
			method: 'GET',
			target: `/https://open.tapapis.cn/x?state=it's&q="<a>"`,
			header: () => null
		});
		expect(answer.status).toBe(200);
		expect(calls[0]?.path).toBe(`/x?state=it's&q="<a>"`);
	});
});

describe('the Node upstream', () => {
	let server: Server;
	let port: number;
	const seen: string[] = [];

	beforeAll(async () => {
		server = createServer((request, response) => {
			seen.push(`${request.headers.host} ${request.url}`);
			response.end('pinned');
		});
		await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
		port = (server.address() as AddressInfo).port;
	});
	afterAll(() => server.close());

	it('connects to the checked address, never looking the name up again', async () => {
		const upstream = nodeUpstream(new Map());
		// The name exists nowhere: only the pinned address can be reached.
		const response = await upstream({
			protocol: 'http:',
			hostname: 'rebinding.invalid',
			port,
			host: `rebinding.invalid:${port}`,
			path: `/a?b='c'`,
			url: `http://rebinding.invalid:${port}/a?b='c'`,
			addresses: ['127.0.0.1'],
			headers: {},
			signal: AbortSignal.timeout(5_000),
			onAbort: () => {}
		});
		const body = await (response as UpstreamAnswer).read(1024);
		expect(new TextDecoder().decode(body!)).toBe('pinned');
		expect(seen.at(-1)).toBe(`rebinding.invalid:${port} /a?b='c'`);
	});
});
