import { isIpLiteral, isPublicAddress } from './ip';
import { RELAY_ERROR_HEADER, RELAY_ERRORS, type RelayErrorCode } from './protocol';
import { splitHttpUrl, type HttpTarget } from './url';

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

/** What the relay asks of its upstream: one GET, with the path and query bytes as the client sent them. */
export interface UpstreamRequest extends HttpTarget {
	/** The upstream URL, for a client that only takes a URL (fetch re-encodes some bytes of it). */
	url: string;
	/**
	 * The addresses the relay checked for `hostname`: connect to one of these and to nothing else.
	 * Empty for an operator-routed host, or where names cannot be resolved (an edge runtime).
	 */
	addresses: readonly string[];
	headers: Headers;
	signal: AbortSignal;
}

/**
 * How a request reaches the upstream; fetch by default. It must not follow redirects, and the
 * Response's `content-encoding` must name the encoding its body is still in (fetch decodes).
 */
export type Upstream = (request: UpstreamRequest) => Promise<Response>;

/** An upstream failure with the relay error it is reported as. */
export class UpstreamFailure extends Error {
	override name = 'UpstreamFailure';
	constructor(
		readonly code: RelayErrorCode,
		message: string
	) {
		super(message);
	}
}

export interface RelayOptions {
	allowHosts?: readonly string[];
	/** Exact origins, or `https://*.example` for any subdomain (whole labels). */
	allowOrigins?: readonly string[];
	/** How a request reaches the upstream; fetch by default. */
	upstream?: Upstream;
	/** Resolves a host name to its addresses, to refuse names that point inside the network; none on an edge runtime. */
	resolveHost?: (host: string) => Promise<string[]>;
	/** Hosts the operator routed somewhere on purpose (--connect-to): their addresses are not checked. */
	trustedHosts?: readonly string[];
	/**
	 * The request-target (path and query) exactly as the client sent it, where the server knows it:
	 * a Request's URL has been through the URL parser, which percent-encodes `'`, `"`, `<` and `>`.
	 */
	requestTarget?: (request: Request) => string | undefined;
	timeoutMs?: number;
	maxBytes?: number;
}

export { RELAY_ERROR_HEADER, type RelayErrorCode };

/**
 * Headers on every answer of the relay: a relayed body is served from the relay's origin, so a
 * browser must neither sniff it into HTML nor run anything in it.
 */
export const RELAY_SAFETY_HEADERS: Readonly<Record<string, string>> = {
	'x-content-type-options': 'nosniff',
	'content-security-policy': "default-src 'none'; sandbox"
};

/** The relay's own answer: a JSON error with its code in `x-relay-error`. */
export function relayError(
	code: RelayErrorCode,
	message: string,
	headers: Headers = new Headers()
): Response {
	headers.set('content-type', 'application/json; charset=utf-8');
	headers.set(RELAY_ERROR_HEADER, code);
	for (const [name, value] of Object.entries(RELAY_SAFETY_HEADERS)) headers.set(name, value);
	return new Response(JSON.stringify({ relay_error: code, message }), {
		status: RELAY_ERRORS[code].status,
		headers
	});
}

interface OriginPattern {
	protocol: string;
	port: string;
	/** The host; for a wildcard pattern, the suffix after `*.`. */
	host: string;
	wildcard: boolean;
}

function parseOriginPattern(pattern: string): OriginPattern | null {
	const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\.(.+)$/i.exec(pattern);
	try {
		const url = new URL(wildcard ? `${wildcard[1]}${wildcard[2]}` : pattern);
		return { protocol: url.protocol, port: url.port, host: url.hostname, wildcard: !!wildcard };
	} catch {
		return null;
	}
}

/**
 * Whether an Origin header is allowed: it must be a serialised origin (scheme, host, port; nothing
 * else), matched by scheme, host and port. `*.` in a pattern stands for one or more whole labels.
 */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return false;
	}
	if (url.origin !== origin.toLowerCase() || url.origin === 'null') return false;
	return patterns.some((text) => {
		const pattern = parseOriginPattern(text);
		if (!pattern || pattern.protocol !== url.protocol || pattern.port !== url.port) return false;
		if (!pattern.wildcard) return url.hostname === pattern.host;
		const suffix = `.${pattern.host}`;
		return (
			url.hostname.endsWith(suffix) &&
			!isIpLiteral(url.hostname) &&
			url.hostname.length > suffix.length &&
			!url.hostname.slice(0, -suffix.length).split('.').includes('')
		);
	});
}

/**
 * The upstream URL from a relay request's target (path and query), in either form the page's proxy
 * setting produces: `/?url=<encoded URL>` (a template with {url}) or `/<URL>` (a prefix). The prefix
 * form is sliced from the target, so the path and query bytes pass through untouched.
 */
export function upstreamFromTarget(target: string): string | null {
	const query = target.indexOf('?');
	const path = query === -1 ? target : target.slice(0, query);
	if (path === '/' && query !== -1) {
		const encoded = new URLSearchParams(target.slice(query + 1)).get('url');
		if (encoded !== null) return encoded;
	}
	const rest = target.slice(1);
	return /^https?:\/\//i.test(rest) ? rest : null;
}

/** fetch, which decodes the body: so the `content-encoding` it reports no longer applies. */
const fetchUpstream: Upstream = async ({ url, headers, signal }) => {
	const response = await fetch(url, { headers, signal, redirect: 'manual', credentials: 'omit' });
	if (!response.headers.has('content-encoding') || response.type === 'opaqueredirect')
		return response;
	const decoded = new Headers(response.headers);
	decoded.delete('content-encoding');
	decoded.delete('content-length');
	return new Response(response.body, {
		status: response.status,
		statusText: response.statusText,
		headers: decoded
	});
};

/** Statuses whose answer has no body. */
const NULL_BODY = new Set([204, 205, 304]);
/** The upstream's headers a relayed answer keeps. */
const PASSED_ON = ['content-type', 'content-encoding', 'date', 'cache-control'];

/** Reads a body up to `maxBytes`, stopping (and cancelling the rest) the moment it goes over. */
async function readCapped(
	body: ReadableStream<Uint8Array>,
	maxBytes: number
): Promise<Uint8Array | null> {
	const reader = body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel().catch(() => {});
			return null;
		}
		chunks.push(value);
	}
	if (chunks.length === 1) return chunks[0]!;
	const joined = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		joined.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return joined;
}

/**
 * A relay for the account service as a web-standard fetch handler, so the same code runs under Node
 * and on an edge runtime. It forwards GET only, to allow-listed hosts only, keeping the method, the
 * URI bytes and the Authorization header exactly, and adds the CORS headers the service does not
 * send. Whatever it is sent and whatever the upstream answers, it answers: never throws.
 */
export function createRelay(options: RelayOptions = {}): (request: Request) => Promise<Response> {
	const allowHosts = (options.allowHosts ?? DEFAULT_UPSTREAM_HOSTS).map((host) =>
		host.toLowerCase()
	);
	const allowOrigins = options.allowOrigins ?? DEFAULT_ALLOWED_ORIGINS;
	const upstream = options.upstream ?? fetchUpstream;
	const timeoutMs = options.timeoutMs ?? 10_000;
	const maxBytes = options.maxBytes ?? 1024 * 1024;

	const relay = async (request: Request): Promise<Response> => {
		const origin = request.headers.get('origin');
		const originOk = origin === null || originAllowed(origin, allowOrigins);
		const cors = new Headers({ vary: 'origin' });
		if (origin !== null && originOk) {
			cors.set('access-control-allow-origin', origin);
			cors.set('access-control-expose-headers', `date, ${RELAY_ERROR_HEADER}`);
		}
		const fail = (code: RelayErrorCode, message: string) =>
			relayError(code, message, new Headers(cors));

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

		const requestUrl = new URL(request.url);
		const received =
			options.requestTarget?.(request) ?? request.url.slice(requestUrl.origin.length);
		const raw = upstreamFromTarget(received);
		if (raw === null) {
			return fail(
				'usage',
				'Ask for /?url=<encoded upstream URL> or /<upstream URL>, e.g. /https://open.tapapis.cn/account/basic-info/v1?client_id=…'
			);
		}
		const target = splitHttpUrl(raw);
		if (typeof target === 'string') return fail('bad_upstream_url', target);
		const host = target.hostname;
		if (!allowHosts.includes(host)) {
			return fail(
				'host_not_allowed',
				`${host} is not on this relay's allow-list (${allowHosts.join(', ')}); add it with --allow-host.`
			);
		}
		let addresses: string[] = [];
		if (!options.trustedHosts?.includes(host)) {
			if (isIpLiteral(host)) {
				if (!isPublicAddress(host))
					return fail(
						'address_not_allowed',
						`${host} is a loopback, private, link-local or reserved address.`
					);
				addresses = [host.replace(/^\[|\]$/g, '')];
			} else if (options.resolveHost) {
				try {
					addresses = await options.resolveHost(host);
				} catch {
					addresses = [];
				}
				if (addresses.length === 0)
					return fail('upstream_unreachable', `The name ${host} could not be resolved.`);
				const inside = addresses.find((address) => !isPublicAddress(address));
				if (inside)
					return fail(
						'address_not_allowed',
						`${host} resolves to ${inside}, a loopback, private, link-local or reserved address.`
					);
			}
		}

		// Only what the service needs: never cookies or the browser's other headers.
		const headers = new Headers({ accept: 'application/json' });
		const authorization = request.headers.get('authorization');
		if (authorization !== null) headers.set('authorization', authorization);

		const timeout = AbortSignal.timeout(timeoutMs);
		const signal =
			request.signal && typeof AbortSignal.any === 'function'
				? AbortSignal.any([timeout, request.signal])
				: timeout;
		const failure = (error: unknown, fallback: RelayErrorCode, what: string) => {
			if (timeout.aborted)
				return fail('upstream_timeout', `${host} did not answer within ${timeoutMs / 1000} s.`);
			if (error instanceof UpstreamFailure) return fail(error.code, error.message);
			const reason = error instanceof Error ? error.message : String(error);
			return fail(fallback, `${what}: ${reason}.`);
		};

		let response: Response;
		try {
			response = await upstream({
				...target,
				url: `${target.protocol}//${target.host}${target.path}`,
				addresses,
				headers,
				signal
			});
		} catch (error) {
			return failure(error, 'upstream_unreachable', `Could not reach ${host}`);
		}
		const status = response.status;
		if ((status >= 300 && status < 400 && status !== 304) || response.type === 'opaqueredirect') {
			await response.body?.cancel().catch(() => {});
			const location = response.headers.get('location') ?? 'an unknown place';
			return fail(
				'redirect_not_followed',
				`${host} answered ${status}, redirecting to ${location}; the relay does not follow redirects.`
			);
		}
		const length = Number(response.headers.get('content-length') ?? NaN);
		if (length > maxBytes) {
			await response.body?.cancel().catch(() => {});
			return fail(
				'response_too_large',
				`The response of ${host} is larger than ${maxBytes} bytes.`
			);
		}
		let body: Uint8Array | null = null;
		if (response.body && !NULL_BODY.has(status)) {
			try {
				body = await readCapped(response.body, maxBytes);
			} catch (error) {
				return failure(error, 'upstream_incomplete', `${host} stopped sending its answer`);
			}
			if (body === null)
				return fail(
					'response_too_large',
					`The response of ${host} is larger than ${maxBytes} bytes.`
				);
		} else await response.body?.cancel().catch(() => {});

		const out = new Headers(cors);
		for (const name of PASSED_ON) {
			const value = response.headers.get(name);
			if (value !== null) out.set(name, value);
		}
		for (const [name, value] of Object.entries(RELAY_SAFETY_HEADERS)) out.set(name, value);
		return new Response(body && body.byteLength > 0 ? (body as Uint8Array<ArrayBuffer>) : null, {
			status,
			statusText: response.statusText,
			headers: out
		});
	};

	return async (request) => {
		try {
			return await relay(request);
		} catch (error) {
			return relayError(
				'internal',
				`The relay failed: ${error instanceof Error ? error.message : String(error)}.`
			);
		}
	};
}
