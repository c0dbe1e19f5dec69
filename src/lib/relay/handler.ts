import { isIpLiteral, isPublicAddress } from './ip';
import { RELAY_ERROR_HEADER } from './protocol';

/** The service's two deployments: the only upstreams allowed unless the operator adds more. */
export const DEFAULT_UPSTREAM_HOSTS = ['open.tapapis.cn', 'open.tapapis.com'];

/** Local development and preview servers, and GitHub Pages sites. */
export const DEFAULT_ALLOWED_ORIGINS = [
	'http://localhost:5173',
	'http://127.0.0.1:5173',
	'http://localhost:4173',
	'http://127.0.0.1:4173',
	'https://*.github.io'
];

export type Upstream = (
	url: string,
	init: { headers: Headers; signal: AbortSignal }
) => Promise<Response>;

export interface RelayOptions {
	allowHosts?: readonly string[];
	/** Exact origins, or `https://*.example` for any subdomain. */
	allowOrigins?: readonly string[];
	/** How a request reaches the upstream; fetch by default. Must not follow redirects. */
	upstream?: Upstream;
	/** Resolves a host name to its addresses, to refuse names that point inside the network; none on an edge runtime. */
	resolveHost?: (host: string) => Promise<string[]>;
	/** Hosts the operator routed somewhere on purpose (--connect-to): their addresses are not checked. */
	trustedHosts?: readonly string[];
	timeoutMs?: number;
	maxBytes?: number;
}

export type RelayErrorCode =
	| 'usage'
	| 'method_not_allowed'
	| 'origin_not_allowed'
	| 'bad_upstream_url'
	| 'host_not_allowed'
	| 'address_not_allowed'
	| 'redirect_not_followed'
	| 'upstream_timeout'
	| 'upstream_unreachable'
	| 'response_too_large';

const RELAY_STATUS: Record<RelayErrorCode, number> = {
	usage: 400,
	method_not_allowed: 405,
	origin_not_allowed: 403,
	bad_upstream_url: 400,
	host_not_allowed: 403,
	address_not_allowed: 403,
	redirect_not_followed: 502,
	upstream_timeout: 504,
	upstream_unreachable: 502,
	response_too_large: 502
};

export { RELAY_ERROR_HEADER };

function originAllowed(origin: string, patterns: readonly string[]): boolean {
	return patterns.some((pattern) => {
		if (!pattern.includes('*')) return pattern === origin;
		const [scheme, rest] = pattern.split('://*');
		return (
			origin.startsWith(`${scheme}://`) &&
			origin.endsWith(rest ?? '') &&
			origin.length > pattern.length - 1
		);
	});
}

/**
 * The upstream URL from a relay request, in either form the page's proxy setting produces:
 * `/?url=<encoded URL>` (a template with {url}) or `/<URL>` (a prefix). The prefix form is sliced
 * from the request URL, so the path and query bytes pass through untouched.
 */
export function upstreamFromRelayUrl(relayUrl: string): string | null {
	const url = new URL(relayUrl);
	const encoded = url.searchParams.get('url');
	if (url.pathname === '/' && encoded !== null) return encoded;
	const rest = relayUrl.slice(url.origin.length + 1);
	return /^https?:\/\//i.test(rest) ? rest : null;
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
	const reader = response.body?.getReader();
	if (!reader) return new Uint8Array();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel();
			return null;
		}
		chunks.push(value);
	}
	const body = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		body.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return body;
}

/**
 * A relay for the account service as a web-standard fetch handler, so the same code runs under Node
 * and on an edge runtime. It forwards GET only, to allow-listed hosts only, keeping the method, the
 * URI bytes and the Authorization header exactly, and adds the CORS headers the service does not send.
 */
export function createRelay(options: RelayOptions = {}): (request: Request) => Promise<Response> {
	const allowHosts = (options.allowHosts ?? DEFAULT_UPSTREAM_HOSTS).map((host) =>
		host.toLowerCase()
	);
	const allowOrigins = options.allowOrigins ?? DEFAULT_ALLOWED_ORIGINS;
	const upstream: Upstream =
		options.upstream ??
		((url, init) => fetch(url, { ...init, redirect: 'manual', credentials: 'omit' }));
	const timeoutMs = options.timeoutMs ?? 10_000;
	const maxBytes = options.maxBytes ?? 1024 * 1024;

	return async (request) => {
		const origin = request.headers.get('origin');
		const originOk = origin === null || originAllowed(origin, allowOrigins);
		const cors = new Headers();
		if (origin !== null && originOk) {
			cors.set('access-control-allow-origin', origin);
			cors.set('access-control-expose-headers', `date, ${RELAY_ERROR_HEADER}`);
		}
		cors.set('vary', 'origin');

		const fail = (code: RelayErrorCode, message: string) => {
			const headers = new Headers(cors);
			headers.set('content-type', 'application/json; charset=utf-8');
			headers.set(RELAY_ERROR_HEADER, code);
			return new Response(JSON.stringify({ relay_error: code, message }), {
				status: RELAY_STATUS[code],
				headers
			});
		};

		if (!originOk)
			return fail(
				'origin_not_allowed',
				`Origin ${origin} may not use this relay; start it with --allow-origin ${origin}.`
			);
		if (request.method === 'OPTIONS') {
			const headers = new Headers(cors);
			headers.set('access-control-allow-methods', 'GET');
			headers.set('access-control-allow-headers', 'authorization');
			headers.set('access-control-max-age', '600');
			return new Response(null, { status: 204, headers });
		}
		if (request.method !== 'GET')
			return fail('method_not_allowed', `Only GET is relayed, not ${request.method}.`);

		const target = upstreamFromRelayUrl(request.url);
		if (target === null) {
			return fail(
				'usage',
				'Ask for /?url=<encoded upstream URL> or /<upstream URL>, e.g. /https://open.tapapis.cn/account/basic-info/v1?client_id=…'
			);
		}
		let url: URL;
		try {
			url = new URL(target);
		} catch {
			return fail('bad_upstream_url', `"${target}" is not a URL.`);
		}
		if (url.protocol !== 'https:' && url.protocol !== 'http:')
			return fail('bad_upstream_url', 'Only http and https upstreams are relayed.');
		const host = url.hostname.toLowerCase();
		if (!allowHosts.includes(host)) {
			return fail(
				'host_not_allowed',
				`${host} is not on this relay's allow-list (${allowHosts.join(', ')}); add it with --allow-host.`
			);
		}
		if (!options.trustedHosts?.includes(host)) {
			if (isIpLiteral(host) && !isPublicAddress(host))
				return fail('address_not_allowed', `${host} is a loopback, private or link-local address.`);
			const addresses = isIpLiteral(host)
				? []
				: ((await options.resolveHost?.(host).catch(() => [])) ?? []);
			const inside = addresses.find((address) => !isPublicAddress(address));
			if (inside)
				return fail(
					'address_not_allowed',
					`${host} resolves to ${inside}, a loopback, private or link-local address.`
				);
		}

		// Only what the service needs: never cookies or the browser's other headers.
		const headers = new Headers({ accept: 'application/json' });
		const authorization = request.headers.get('authorization');
		if (authorization !== null) headers.set('authorization', authorization);

		let response: Response;
		try {
			response = await upstream(target, { headers, signal: AbortSignal.timeout(timeoutMs) });
		} catch (error) {
			const name = error instanceof Error ? error.name : '';
			if (name === 'TimeoutError' || name === 'AbortError')
				return fail('upstream_timeout', `${host} did not answer within ${timeoutMs / 1000} s.`);
			return fail(
				'upstream_unreachable',
				`Could not reach ${host}: ${error instanceof Error ? error.message : String(error)}.`
			);
		}
		if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
			await response.body?.cancel();
			const location = response.headers.get('location') ?? 'an unknown place';
			return fail(
				'redirect_not_followed',
				`${host} answered ${response.status}, redirecting to ${location}; the relay does not follow redirects.`
			);
		}
		let body: Uint8Array | null;
		try {
			body = await readCapped(response, maxBytes);
		} catch {
			return fail('upstream_timeout', `${host} stopped sending its response.`);
		}
		if (body === null)
			return fail(
				'response_too_large',
				`The response of ${host} is larger than ${maxBytes} bytes.`
			);

		const out = new Headers(cors);
		for (const name of ['content-type', 'date', 'cache-control']) {
			const value = response.headers.get(name);
			if (value !== null) out.set(name, value);
		}
		return new Response(body.byteLength === 0 ? null : (body as Uint8Array<ArrayBuffer>), {
			status: response.status,
			statusText: response.statusText,
			headers: out
		});
	};
}
