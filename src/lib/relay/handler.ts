import { DEPLOYMENT_HOSTS } from '../account-api/deployments';
import { OPERATIONS } from '../account-api/operations';
import { isIpLiteral, isPublicAddress } from '../http/ip';
import { DEFAULT_ALLOWED_ORIGINS, originAllowed } from '../http/origins';
import { RELAY_ERROR_HEADER, RELAY_ERRORS, type RelayErrorCode } from './protocol';
import { splitHttpUrl, type HttpTarget } from '../http/url';

/** The service's two deployments: the only upstreams allowed unless the operator adds more. */
export const DEFAULT_UPSTREAM_HOSTS: readonly string[] = DEPLOYMENT_HOSTS;

/** What the relay asks of its upstream: one GET, with the path and query bytes as the client sent them. */
export interface UpstreamRequest extends HttpTarget {
	/** The upstream URL, for a client that only takes a URL (fetch re-encodes some bytes of it). */
	url: string;
	/**
	 * The addresses the relay checked for `hostname`: connect to one of these and to nothing else.
	 * Empty for an operator-routed host, or where names cannot be resolved (an edge runtime).
	 */
	addresses: readonly string[];
	headers: Record<string, string>;
	/** Aborts at the time limit or when the client goes away (made on first use). */
	readonly signal: AbortSignal;
	/** The same moment as `signal`, as a plain callback, for a client that needs no AbortSignal. */
	onAbort: (listener: () => void) => void;
}

/** An upstream's answer as the relay reads it; a fetch Response is turned into one. */
export interface UpstreamAnswer {
	status: number;
	statusText: string;
	header: (name: string) => string | null;
	/**
	 * Reads the whole body, but never more than `maxBytes`: null the moment it goes over, and
	 * reading stops there. Rejects (with an UpstreamFailure where it can tell) when the body ends short.
	 */
	read: (maxBytes: number) => Promise<Uint8Array | null>;
	/** Stops reading and lets the connection go. */
	cancel: () => void;
	/** A browser's fetch hides a redirect it did not follow behind status 0. */
	opaqueRedirect?: boolean;
}

/**
 * How a request reaches the upstream; fetch by default. It must not follow redirects, and the
 * answer's `content-encoding` must name the encoding its body is still in (fetch decodes).
 */
export type Upstream = (request: UpstreamRequest) => Promise<UpstreamAnswer | Response>;

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
	timeoutMs?: number;
	maxBytes?: number;
	/**
	 * Runs `fire` after `ms` unless cancelled; setTimeout by default. A server under load can pass a
	 * cheaper, coarser clock (Node: `coarseTimers`).
	 */
	schedule?: (ms: number, fire: () => void) => () => void;
}

/** What the relay reads of a request: a server that has the raw request builds this without a fetch Request. */
export interface RelayRequest {
	method: string;
	/** The request-target's path and query exactly as received (a Request's URL has re-encoded some bytes). */
	target: string;
	header: (name: string) => string | null;
	/** Registers what to do when the client goes away before its answer. */
	onGone?: (listener: () => void) => void;
}

/** The relay's answer, plain: a fetch Response, or written straight to a Node response. */
export interface RelayAnswer {
	status: number;
	statusText: string;
	headers: Record<string, string>;
	body: Uint8Array | null;
}

export { RELAY_ERROR_HEADER, type RelayErrorCode };
export { DEFAULT_ALLOWED_ORIGINS, originAllowed } from '../http/origins';

/**
 * Headers on every answer of the relay: a relayed body is served from the relay's origin, so a
 * browser must neither sniff it into HTML nor run anything in it.
 */
export const RELAY_SAFETY_HEADERS: Readonly<Record<string, string>> = {
	'x-content-type-options': 'nosniff',
	'content-security-policy': "default-src 'none'; sandbox"
};

/** The relay's own answer: a JSON error with its code in `x-relay-error`. */
export function relayErrorAnswer(
	code: RelayErrorCode,
	message: string,
	headers: Record<string, string> = {}
): RelayAnswer {
	return {
		status: RELAY_ERRORS[code].status,
		statusText: '',
		headers: {
			...headers,
			'content-type': 'application/json; charset=utf-8',
			[RELAY_ERROR_HEADER]: code,
			...RELAY_SAFETY_HEADERS
		},
		body: new TextEncoder().encode(JSON.stringify({ relay_error: code, message }))
	};
}

/** A RelayAnswer as a fetch Response. */
export function toFetchResponse(answer: RelayAnswer): Response {
	return new Response(answer.body as Uint8Array<ArrayBuffer> | null, {
		status: answer.status,
		statusText: answer.statusText,
		headers: answer.headers
	});
}

/** The relay's own answer as a fetch Response. */
export function relayError(code: RelayErrorCode, message: string): Response {
	return toFetchResponse(relayErrorAnswer(code, message));
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

/** Joins chunks into one array (the one chunk itself when there is only one). */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
	if (chunks.length === 1) return chunks[0]!;
	const joined = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		joined.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return joined;
}

/** Reads a body up to `maxBytes`, cancelling the rest the moment it goes over. */
async function readStreamCapped(
	body: ReadableStream<Uint8Array> | null,
	maxBytes: number
): Promise<Uint8Array | null> {
	if (!body) return new Uint8Array();
	const reader = body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return joinChunks(chunks, size);
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel().catch(() => {});
			return null;
		}
		chunks.push(value);
	}
}

/**
 * A fetch Response as an upstream answer. `decoded`: fetch has already undone the body's
 * content-encoding, so that header (and the length of the encoded body) no longer applies.
 */
export function answerOf(response: Response, decoded = false): UpstreamAnswer {
	const stale = decoded && response.headers.has('content-encoding');
	return {
		status: response.status,
		statusText: response.statusText,
		header: (name) =>
			stale && (name === 'content-encoding' || name === 'content-length')
				? null
				: response.headers.get(name),
		read: (maxBytes) => readStreamCapped(response.body, maxBytes),
		cancel: () => void response.body?.cancel().catch(() => {}),
		opaqueRedirect: response.type === 'opaqueredirect'
	};
}

const fetchUpstream: Upstream = async ({ url, headers, signal }) =>
	answerOf(await fetch(url, { headers, signal, redirect: 'manual', credentials: 'omit' }), true);

/** One upstream exchange: its target, and one abort for the time limit and a client that has gone. */
class UpstreamCall implements UpstreamRequest {
	readonly protocol: 'http:' | 'https:';
	readonly hostname: string;
	readonly port: number;
	readonly host: string;
	readonly path: string;
	readonly url: string;
	aborted = false;
	timedOut = false;
	private controller: AbortController | undefined;
	private listeners: (() => void)[] = [];

	constructor(
		target: HttpTarget,
		readonly addresses: readonly string[],
		readonly headers: Record<string, string>
	) {
		this.protocol = target.protocol;
		this.hostname = target.hostname;
		this.port = target.port;
		this.host = target.host;
		this.path = target.path;
		this.url = `${target.protocol}//${target.host}${target.path}`;
	}

	/** An AbortSignal only for a client that asks for one (fetch). */
	get signal(): AbortSignal {
		this.controller ??= new AbortController();
		if (this.aborted) this.controller.abort();
		return this.controller.signal;
	}

	onAbort(listener: () => void): void {
		if (this.aborted) listener();
		else this.listeners.push(listener);
	}

	abort(): void {
		if (this.aborted) return;
		this.aborted = true;
		this.controller?.abort();
		for (const listener of this.listeners) listener();
	}
}

const setTimer = (ms: number, fire: () => void) => {
	const timer = setTimeout(fire, ms);
	return () => clearTimeout(timer);
};

/** Statuses whose answer has no body. */
const NULL_BODY = new Set([204, 205, 304]);
/** The upstream's headers a relayed answer keeps. */
const PASSED_ON = ['content-type', 'content-encoding', 'date', 'cache-control'];

const isResponse = (value: UpstreamAnswer | Response): value is Response =>
	typeof (value as Response).arrayBuffer === 'function';

/**
 * The relay itself, on plain values, for any server: it forwards GET only, to allow-listed hosts
 * only, keeping the method, the URI bytes and the Authorization header exactly, and adds the CORS
 * headers the service does not send. Whatever it is sent and whatever the upstream answers, it
 * answers: it never throws.
 */
export function createRelayCore(
	options: RelayOptions = {}
): (request: RelayRequest) => Promise<RelayAnswer> {
	const allowHosts = (options.allowHosts ?? DEFAULT_UPSTREAM_HOSTS).map((host) =>
		host.toLowerCase()
	);
	const allowOrigins = options.allowOrigins ?? DEFAULT_ALLOWED_ORIGINS;
	// A page sends the same Origin on every request: remember the last few verdicts.
	const originVerdicts = new Map<string, boolean>();
	const originOk = (origin: string) => {
		let verdict = originVerdicts.get(origin);
		if (verdict === undefined) {
			verdict = originAllowed(origin, allowOrigins);
			if (originVerdicts.size >= 64) originVerdicts.clear();
			originVerdicts.set(origin, verdict);
		}
		return verdict;
	};
	const upstream = options.upstream ?? fetchUpstream;
	const timeoutMs = options.timeoutMs ?? 10_000;
	const maxBytes = options.maxBytes ?? 1024 * 1024;
	const schedule = options.schedule ?? setTimer;

	const relay = async (request: RelayRequest): Promise<RelayAnswer> => {
		const origin = request.header('origin');
		const allowed = origin === null || originOk(origin);
		const cors: Record<string, string> = { vary: 'origin' };
		if (origin !== null && allowed) {
			cors['access-control-allow-origin'] = origin;
			cors['access-control-expose-headers'] = `date, ${RELAY_ERROR_HEADER}`;
		}
		const fail = (code: RelayErrorCode, message: string) => relayErrorAnswer(code, message, cors);

		if (!allowed)
			return fail(
				'origin_not_allowed',
				`Origin ${origin} may not use this relay; start it with --allow-origin ${origin}.`
			);
		if (request.method === 'OPTIONS') {
			return {
				status: 204,
				statusText: '',
				headers: {
					...cors,
					'access-control-allow-methods': 'GET',
					'access-control-allow-headers': 'authorization',
					'access-control-max-age': '600'
				},
				body: null
			};
		}
		if (request.method !== 'GET')
			return fail('method_not_allowed', `Only GET is relayed, not ${request.method}.`);

		const raw = upstreamFromTarget(request.target);
		if (raw === null) {
			return fail(
				'usage',
				`Ask for /?url=<encoded upstream URL> or /<upstream URL>, e.g. /https://${DEPLOYMENT_HOSTS[0]}${OPERATIONS['basic-info'].path}?client_id=…`
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
		const headers: Record<string, string> = { accept: 'application/json' };
		const authorization = request.header('authorization');
		if (authorization !== null) headers.authorization = authorization;

		const call = new UpstreamCall(target, addresses, headers);
		const cancelTimer = schedule(timeoutMs, () => {
			call.timedOut = true;
			call.abort();
		});
		request.onGone?.(() => call.abort());
		const failure = (error: unknown, fallback: RelayErrorCode, what: string) => {
			if (call.timedOut)
				return fail('upstream_timeout', `${host} did not answer within ${timeoutMs / 1000} s.`);
			if (error instanceof UpstreamFailure) return fail(error.code, error.message);
			const reason = error instanceof Error ? error.message : String(error);
			return fail(fallback, `${what}: ${reason}.`);
		};
		try {
			let answer: UpstreamAnswer;
			try {
				const answered = await upstream(call);
				answer = isResponse(answered) ? answerOf(answered) : answered;
			} catch (error) {
				return failure(error, 'upstream_unreachable', `Could not reach ${host}`);
			}
			const status = answer.status;
			if (answer.opaqueRedirect || (status >= 300 && status < 400 && status !== 304)) {
				answer.cancel();
				const location = answer.header('location') ?? 'an unknown place';
				return fail(
					'redirect_not_followed',
					`${host} answered ${status}, redirecting to ${location}; the relay does not follow redirects.`
				);
			}
			if (status < 200 || status > 599) {
				answer.cancel();
				return fail('upstream_invalid', `${host} answered with status ${status}.`);
			}
			if (Number(answer.header('content-length') ?? NaN) > maxBytes) {
				answer.cancel();
				return fail(
					'response_too_large',
					`The response of ${host} is larger than ${maxBytes} bytes.`
				);
			}
			let body: Uint8Array | null = null;
			if (!NULL_BODY.has(status)) {
				try {
					body = await answer.read(maxBytes);
				} catch (error) {
					return failure(error, 'upstream_incomplete', `${host} stopped sending its answer`);
				}
				if (body === null)
					return fail(
						'response_too_large',
						`The response of ${host} is larger than ${maxBytes} bytes.`
					);
			} else answer.cancel();

			const out: Record<string, string> = { ...cors };
			for (const name of PASSED_ON) {
				const value = answer.header(name);
				if (value !== null) out[name] = value;
			}
			Object.assign(out, RELAY_SAFETY_HEADERS);
			return {
				status,
				statusText: answer.statusText,
				headers: out,
				body: body && body.byteLength > 0 ? body : null
			};
		} finally {
			cancelTimer();
		}
	};

	return async (request) => {
		try {
			return await relay(request);
		} catch (error) {
			return relayErrorAnswer(
				'internal',
				`The relay failed: ${error instanceof Error ? error.message : String(error)}.`
			);
		}
	};
}

/**
 * The relay as a web-standard fetch handler, so the same code runs under Node and on an edge
 * runtime. The request-target is read from the Request's URL, which the URL parser may have
 * re-encoded; a Node server hands the relay the raw target instead (see `serveRelay`).
 */
export function createRelay(options: RelayOptions = {}): (request: Request) => Promise<Response> {
	const core = createRelayCore(options);
	return async (request) => {
		let answer: RelayAnswer;
		try {
			const url = new URL(request.url);
			answer = await core({
				method: request.method,
				target: request.url.slice(url.origin.length),
				header: (name) => request.headers.get(name),
				onGone: (listener) => request.signal?.addEventListener('abort', listener, { once: true })
			});
			return toFetchResponse(answer);
		} catch (error) {
			return relayError(
				'internal',
				`The relay failed: ${error instanceof Error ? error.message : String(error)}.`
			);
		}
	};
}
