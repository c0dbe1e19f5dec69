// The relay as a real process in front of the sandbox service, itself a real process, over HTTP.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeader, startRelay, type Started } from './relay-processes';

const children: Started[] = [];

async function start(args: string[]): Promise<string> {
	const started = await startRelay(args);
	children.push(started);
	return started.url;
}

interface Captured {
	url: string;
	method: string;
	headers: IncomingHttpHeaders;
}

/** An upstream that records what reached it, and redirects when asked to. */
function captureServer(): Promise<{ server: Server; port: number; seen: Captured[] }> {
	const seen: Captured[] = [];
	const server = createServer((request, response) => {
		seen.push({ url: request.url ?? '', method: request.method ?? '', headers: request.headers });
		if (request.url?.startsWith('/redirect')) {
			response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
			response.end();
			return;
		}
		response.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=secret' });
		response.end('{"ok":true}');
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({ server, port: (server.address() as AddressInfo).port, seen })
		)
	);
}

let relay: string;
let capture: Awaited<ReturnType<typeof captureServer>>;

beforeAll(async () => {
	capture = await captureServer();
	const sandbox = await start(['--serve-sandbox', '--port', '0']);
	const sandboxAddress = sandbox.replace('http://', '');
	relay = await start([
		'--port',
		'0',
		'--connect-to',
		`open.tapapis.cn=${sandboxAddress}`,
		'--allow-host',
		'capture.test',
		'--connect-to',
		`capture.test=127.0.0.1:${capture.port}`,
		'--allow-host',
		'127.0.0.1',
		'--allow-host',
		'10.1.2.3',
		'--allow-host',
		'localhost'
	]);
});

afterAll(() => {
	for (const started of children) started.child.kill();
	capture?.server.close();
});

describe('relay in front of the sandbox service', () => {
	it('forwards a signed request that the service verifies upstream (prefix form)', async () => {
		const upstream = 'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001';
		const response = await fetch(`${relay}/${upstream}`, {
			headers: { authorization: await signedHeader(upstream), origin: 'http://localhost:5173' }
		});
		const body = await response.json();
		expect(response.status).toBe(200);
		expect(body).toMatchObject({ success: true, data: { name: 'Ada Demo' } });
		expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
		expect(response.headers.get('access-control-expose-headers')).toMatch(/date/);
		expect(response.headers.get('date')).toBeTruthy();
	});

	it('forwards the template form too, and a wrong key is refused upstream, not by the relay', async () => {
		const upstream = 'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001';
		const response = await fetch(`${relay}/?url=${encodeURIComponent(upstream)}`, {
			headers: { authorization: await signedHeader(upstream, 'wrong-key') }
		});
		expect(response.status).toBe(401);
		expect(response.headers.get('x-relay-error')).toBeNull();
		expect((await response.json()).data.error).toBe('access_denied');
	});

	it('answers the CORS preflight for allowed origins only', async () => {
		const preflight = (origin: string) =>
			fetch(`${relay}/https://open.tapapis.cn/account/profile/v1`, {
				method: 'OPTIONS',
				headers: {
					origin,
					'access-control-request-method': 'GET',
					'access-control-request-headers': 'authorization'
				}
			});
		const allowed = await preflight('https://someone.github.io');
		expect(allowed.status).toBe(204);
		expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization');
		const refused = await preflight('https://evil.example');
		expect(refused.status).toBe(403);
		expect(refused.headers.get('access-control-allow-origin')).toBeNull();
	});
});

describe('relay forwarding', () => {
	it('keeps the URI bytes, the method and the Authorization header exactly, and forwards no cookies', async () => {
		const uri = '/account/basic-info/v1?client_id=a%2Fb%7e&x=%E2%9C%93&y=+&z=%20';
		const header = 'MAC id="k",ts="1",nonce="n",mac="m=="';
		const before = capture.seen.length;
		const response = await fetch(`${relay}/http://capture.test${uri}`, {
			headers: { authorization: header, cookie: 'session=abc' }
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('set-cookie')).toBeNull();
		const seen = capture.seen[before]!;
		expect(seen).toMatchObject({ url: uri, method: 'GET' });
		expect(seen.headers.authorization).toBe(header);
		expect(seen.headers.host).toBe('capture.test');
		expect(seen.headers.cookie).toBeUndefined();
	});

	it('does not follow a redirect', async () => {
		const before = capture.seen.length;
		const response = await fetch(`${relay}/http://capture.test/redirect`);
		expect(response.status).toBe(502);
		expect(response.headers.get('x-relay-error')).toBe('redirect_not_followed');
		expect((await response.json()).message).toMatch(/does not follow redirects/);
		expect(capture.seen.length).toBe(before + 1);
	});

	it.each([
		[
			'a host off the allow-list',
			'https://evil.example/account/profile/v1',
			403,
			'host_not_allowed'
		],
		[
			'a loopback address, even when allow-listed',
			'http://127.0.0.1:22/',
			403,
			'address_not_allowed'
		],
		['a private address, even when allow-listed', 'http://10.1.2.3/', 403, 'address_not_allowed'],
		['a name that resolves to loopback', 'http://localhost/', 403, 'address_not_allowed'],
		['a non-http scheme', 'file:///etc/passwd', 400, 'bad_upstream_url']
	])('refuses %s', async (_, upstream, status, code) => {
		const response = await fetch(`${relay}/?url=${encodeURIComponent(upstream)}`);
		expect(response.status).toBe(status);
		expect(response.headers.get('x-relay-error')).toBe(code);
	});

	it('relays GET only', async () => {
		const response = await fetch(`${relay}/http://capture.test/x`, { method: 'POST', body: 'x' });
		expect(response.status).toBe(405);
	});
});
