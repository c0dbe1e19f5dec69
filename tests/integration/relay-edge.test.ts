// The relay's handler on an edge runtime: bundled the way a Worker would be and run in workerd,
// Cloudflare's runtime (through Miniflare), with the three-line entry of docs/relay.md. The worker's
// outbound requests reach the sandbox service here in Node instead of the internet.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, baseString, requestTarget, sign } from '$lib/mac';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { SandboxService } from '$lib/sandbox/service';

const ORIGIN = 'https://support.github.io';
const HANDLER = fileURLToPath(new URL('../../src/lib/relay/handler.ts', import.meta.url));

const DOC = fileURLToPath(new URL('../../docs/relay.md', import.meta.url));

/**
 * The Worker entry of docs/relay.md, as written there but for the handler's path (from this test)
 * and the origin allowed, bundled with the handler into one ES module, as a Worker is deployed.
 */
async function bundleWorker(): Promise<string> {
	const written = /```js\n(import \{ createRelay \}[^`]*)```/.exec(
		await readFile(DOC, 'utf8')
	)?.[1];
	if (!written?.includes("'./src/lib/relay/handler.ts'") || !written.includes('<you>'))
		throw new Error(`docs/relay.md has no Worker entry of the expected form: ${written}`);
	const directory = await mkdtemp(join(tmpdir(), 'relay-worker-'));
	try {
		const entry = join(directory, 'worker.js');
		await writeFile(
			entry,
			written
				.replace("'./src/lib/relay/handler.ts'", JSON.stringify(HANDLER))
				.replace("'https://<you>.github.io'", JSON.stringify(ORIGIN))
		);
		const output = await build({
			configFile: false,
			logLevel: 'silent',
			build: {
				write: false,
				minify: false,
				lib: { entry, formats: ['es'], fileName: 'worker' }
			}
		});
		const [result] = Array.isArray(output) ? output : [output];
		if (!result || !('output' in result)) throw new Error('no bundle');
		return result.output[0].code;
	} finally {
		await rm(directory, { recursive: true, force: true });
	}
}

const account = DEMO_ACCOUNTS[0]!;
const sandbox = new SandboxService({ hosts: () => ['open.tapapis.cn'] });
const upstreamSeen: { url: string; authorization: string | null; cookie: string | null }[] = [];
let worker: Miniflare;
let code: string;

beforeAll(async () => {
	code = await bundleWorker();
	worker = new Miniflare({
		modules: true,
		script: code,
		compatibilityDate: '2026-04-01',
		outboundService: async (request: Request) => {
			upstreamSeen.push({
				url: request.url,
				authorization: request.headers.get('authorization'),
				cookie: request.headers.get('cookie')
			});
			if (new URL(request.url).pathname === '/moved')
				return new Response(null, {
					status: 302,
					headers: { location: 'http://169.254.169.254/latest/meta-data/' }
				});
			return sandbox.handle(new Request(request.url, { headers: request.headers }));
		}
	});
});

afterAll(async () => {
	await worker?.dispose();
});

async function signedHeader(url: string): Promise<string> {
	const ts = String(Math.floor(Date.now() / 1000));
	const nonce = `edge-${Math.random().toString(36).slice(2)}`;
	const mac = await sign(
		account.macKey,
		baseString({ ts, nonce, method: 'GET', ...requestTarget(url) })
	);
	return authorizationHeader({ id: account.kid, ts, nonce, mac });
}

const relayUrl = (upstream: string) => `https://relay.example/${upstream}`;

describe('the relay in workerd (an edge runtime)', () => {
	it('bundles without any Node built-in', () => {
		expect(code).not.toMatch(/from\s*["']node:|require\(/);
	});

	it('carries a signed request to the service, which verifies it, and answers with CORS', async () => {
		const url = `https://open.tapapis.cn/account/profile/v1?client_id=${account.clientId}`;
		const authorization = await signedHeader(url);
		const response = await worker.dispatchFetch(relayUrl(url), {
			headers: { authorization, origin: ORIGIN, cookie: 'session=should-not-pass' }
		});
		const body = (await response.json()) as { success: boolean; data: { name: string } };
		expect(response.status).toBe(200);
		expect(body.success).toBe(true);
		expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
		expect(response.headers.get('access-control-expose-headers')).toMatch(/date/i);
		expect(response.headers.get('date')).not.toBeNull();
		expect(upstreamSeen.at(-1)).toEqual({ url, authorization, cookie: null });
	});

	it('answers the preflight the page sends before the Authorization header', async () => {
		const response = await worker.dispatchFetch(relayUrl('https://open.tapapis.cn/x'), {
			method: 'OPTIONS',
			headers: {
				origin: ORIGIN,
				'access-control-request-method': 'GET',
				'access-control-request-headers': 'authorization'
			}
		});
		expect(response.status).toBe(204);
		expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
	});

	it('refuses a host off its list, an IP literal and another origin', async () => {
		const seen = upstreamSeen.length;
		for (const [upstream, origin, relayError] of [
			['https://evil.example/x', ORIGIN, 'host_not_allowed'],
			['https://127.0.0.1/x', ORIGIN, 'host_not_allowed'],
			['https://open.tapapis.cn/x', 'https://elsewhere.example', 'origin_not_allowed']
		] as const) {
			const response = await worker.dispatchFetch(relayUrl(upstream), { headers: { origin } });
			expect(response.status).toBe(403);
			expect(response.headers.get('x-relay-error')).toBe(relayError);
		}
		expect(upstreamSeen.length).toBe(seen);
	});

	it('does not follow a redirect', async () => {
		const response = await worker.dispatchFetch(relayUrl('https://open.tapapis.cn/moved'), {
			headers: { origin: ORIGIN }
		});
		expect(response.status).toBe(502);
		expect(response.headers.get('x-relay-error')).toBe('redirect_not_followed');
	});
});
