import type { LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import {
	Agent as HttpAgent,
	createServer,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
	type RequestOptions,
	type ServerResponse
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { relayError, UpstreamFailure, type Upstream, type UpstreamRequest } from './handler';
import type { RelayErrorCode } from './protocol';
import { splitHttpUrl } from './url';

export type Handler = (request: Request) => Promise<Response>;

/** Builds the answer to a request the server could not hand to its handler. */
export type Refusal = (code: RelayErrorCode, message: string) => Response;

export interface ServeOptions {
	host?: string;
	port?: number;
	/**
	 * Rebuild the request URL from X-Forwarded-Proto and Host, as a service behind a TLS-terminating
	 * proxy does; the sandbox needs it to verify the scheme and port the client signed.
	 */
	trustForwarded?: boolean;
	/** The answer to a request that cannot be understood; the relay's JSON error by default. */
	refuse?: Refusal;
}

/** Methods a fetch Request cannot carry; a server answers them itself. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** A Host header: a name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const HOST = /^(?:[a-z0-9._~-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

const receivedTargets = new WeakMap<Request, string>();

/**
 * The request-target's path and query exactly as the client sent them, for a Request that `serve`
 * built; the Request's own URL has been through the URL parser, which re-encodes some bytes.
 */
export function receivedTarget(request: Request): string | undefined {
	return receivedTargets.get(request);
}

type Parsed = { request: Request } | { code: RelayErrorCode; message: string };

function toRequest(incoming: IncomingMessage, signal: AbortSignal, options: ServeOptions): Parsed {
	const method = incoming.method ?? 'GET';
	if (FORBIDDEN_METHODS.has(method))
		return { code: 'method_not_allowed', message: `${method} is not served here.` };
	let scheme = 'http';
	if (options.trustForwarded) {
		const forwarded = incoming.headers['x-forwarded-proto'];
		if (forwarded !== undefined) {
			if (typeof forwarded !== 'string' || !/^https?$/i.test(forwarded))
				return { code: 'bad_request', message: 'X-Forwarded-Proto must be http or https.' };
			scheme = forwarded.toLowerCase();
		}
	}
	const target = incoming.url ?? '';
	let authority: string;
	let path: string;
	if (target.startsWith('/')) {
		authority = incoming.headers.host ?? `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`;
		path = target;
		if (!HOST.test(authority))
			return { code: 'bad_request', message: 'The Host header is not a host and port.' };
	} else if (/^https?:\/\//i.test(target)) {
		// Absolute form: the target's authority replaces the Host header (RFC 9112, 3.2.2).
		const split = splitHttpUrl(target);
		if (typeof split === 'string') return { code: 'bad_request', message: split };
		authority = split.host;
		path = split.path;
	} else {
		return { code: 'bad_request', message: `The request target "${target}" is not a path.` };
	}
	try {
		const headers = new Headers();
		const raw = incoming.rawHeaders;
		for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
		const request = new Request(`${scheme}://${authority}${path}`, { method, headers, signal });
		receivedTargets.set(request, path);
		return { request };
	} catch (error) {
		return {
			code: 'bad_request',
			message: `The request cannot be read: ${error instanceof Error ? error.message : String(error)}.`
		};
	}
}

const defaultRefusal: Refusal = (code, message) => relayError(code, message);

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
	const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
	const headers: Record<string, string | number> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	if (body) headers['content-length'] = body.byteLength;
	outgoing.writeHead(response.status, response.statusText, headers);
	outgoing.end(body);
}

/** Writes an answer on a socket that has no response object (a request Node's parser refused). */
async function sendOnSocket(socket: Socket, response: Response): Promise<void> {
	const body = Buffer.from(await response.arrayBuffer());
	const lines = [`HTTP/1.1 ${response.status} ${response.statusText || 'Error'}`];
	response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
	lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
	socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
}

const CLIENT_ERRORS: Record<string, [RelayErrorCode, string]> = {
	HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are too large.'],
	ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
	ERR_HTTP_HEADERS_TIMEOUT: ['request_timeout', 'The request headers did not arrive in time.']
};

/**
 * Serves a fetch handler over HTTP with node:http. Whatever arrives gets an answer with a status:
 * a request that cannot become a fetch Request (a forbidden method, a bad Host or target) and one
 * Node's parser refuses are answered by `refuse`; a handler that throws gets a 500.
 */
export function serve(
	handler: Handler,
	options: ServeOptions = {}
): Promise<{ url: string; close: () => Promise<void> }> {
	const refuse = options.refuse ?? defaultRefusal;
	const answer = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
		const aborted = new AbortController();
		outgoing.once('close', () => {
			if (!outgoing.writableFinished) aborted.abort();
		});
		let response: Response;
		try {
			const parsed = toRequest(incoming, aborted.signal, options);
			response =
				'request' in parsed ? await handler(parsed.request) : refuse(parsed.code, parsed.message);
		} catch (error) {
			response = refuse(
				'internal',
				`The server failed: ${error instanceof Error ? error.message : String(error)}.`
			);
		}
		try {
			await send(response, outgoing);
		} catch {
			if (outgoing.headersSent) outgoing.destroy();
			else {
				outgoing.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
				outgoing.end('{"relay_error":"internal","message":"The answer could not be written."}');
			}
		}
	};
	const server = createServer(
		{ headersTimeout: 10_000, requestTimeout: 30_000 },
		(incoming, outgoing) => {
			answer(incoming, outgoing).catch(() => outgoing.destroy());
		}
	);
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
		if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
			socket.destroy();
			return;
		}
		const [code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
			'bad_request',
			`The request is not HTTP this server can read (${error.code ?? error.message}).`
		];
		sendOnSocket(socket, refuse(code, message)).catch(() => socket.destroy());
	});
	server.on('connect', (_incoming: IncomingMessage, socket: Socket) => {
		socket.on('error', () => socket.destroy());
		sendOnSocket(socket, refuse('method_not_allowed', 'CONNECT is not served here.')).catch(() =>
			socket.destroy()
		);
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
			server.off('error', reject);
			// Accepting can fail later (too many open files): report it, keep serving.
			server.on('error', (error) => console.error(`server error: ${error.message}`));
			const { address, port } = server.address() as AddressInfo;
			const shown = address.includes(':') ? `[${address}]` : address;
			resolve({
				url: `http://${shown}:${port}`,
				close: () =>
					new Promise((done) => {
						server.close(() => done());
						server.closeAllConnections();
					})
			});
		});
	});
}

/** All addresses a name resolves to, for the relay's private-address check. */
export async function resolveHost(host: string): Promise<string[]> {
	return (await lookupAll(host, { all: true })).map((entry) => entry.address);
}

/** A lookup that answers only with the addresses already checked: the connection goes where the check looked. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
	return (_hostname, options, callback) => {
		const family = typeof options === 'object' ? options.family : undefined;
		const list: LookupAddress[] = addresses
			.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
			.filter((entry) => !family || entry.family === family);
		const done = callback as (
			error: NodeJS.ErrnoException | null,
			address: string | LookupAddress[],
			family?: number
		) => void;
		if (list.length === 0) {
			const error: NodeJS.ErrnoException = new Error('no checked address of that family');
			error.code = 'ENOTFOUND';
			done(error, []);
		} else if (typeof options === 'object' && options.all) done(null, list);
		else done(null, list[0]!.address, list[0]!.family);
	};
}

/** Keep-alive agents: a relay mostly talks to two hosts, so reusing connections saves most of the cost. */
const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

/** Node's client error codes for an answer that is not valid HTTP. */
const isParseError = (error: NodeJS.ErrnoException) => error.code?.startsWith('HPE_') ?? false;

/** The upstream's body as a stream that holds at most one chunk beyond what the reader asked for. */
function bodyStream(incoming: IncomingMessage, host: string): ReadableStream<Uint8Array> {
	let settled = false;
	return new ReadableStream<Uint8Array>(
		{
			start(controller) {
				const fail = () => {
					if (settled) return;
					settled = true;
					controller.error(
						new UpstreamFailure(
							'upstream_incomplete',
							`${host} closed the connection before its answer was complete`
						)
					);
				};
				incoming.on('data', (chunk: Buffer) => {
					if (settled) return;
					controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
					if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
				});
				incoming.on('end', () => {
					if (settled) return;
					settled = true;
					controller.close();
				});
				incoming.on('error', fail);
				incoming.on('close', () => {
					if (!incoming.complete) fail();
				});
			},
			pull() {
				incoming.resume();
			},
			cancel() {
				settled = true;
				incoming.destroy();
			}
		},
		{ highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength }
	);
}

const PASSED_HEADERS = [
	'content-type',
	'content-encoding',
	'content-length',
	'date',
	'cache-control',
	'location'
];

/** Turns a Node answer into a Response, or says why it cannot be passed on. */
function toResponse(incoming: IncomingMessage, host: string): Response {
	incoming.on('error', () => {});
	const status = incoming.statusCode ?? 0;
	if (status < 200 || status > 599) {
		incoming.destroy();
		throw new UpstreamFailure('upstream_invalid', `${host} answered with status ${status}`);
	}
	const headers = new Headers();
	for (const name of PASSED_HEADERS) {
		const value = incoming.headers[name];
		if (typeof value === 'string') {
			try {
				headers.set(name, value);
			} catch {
				// A value Headers refuses is not passed on.
			}
		}
	}
	const nullBody = status === 204 || status === 205 || status === 304;
	if (nullBody) incoming.resume();
	const body = nullBody ? null : bodyStream(incoming, host);
	try {
		return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
	} catch {
		return new Response(body, { status, headers });
	}
}

/**
 * node:http and node:https with the path bytes as received (fetch's URL parser would re-encode
 * some), connecting only to the addresses the relay checked, over keep-alive connections. Hosts the
 * operator routed elsewhere (`--connect-to host=ip:port`) are reached over plain HTTP at that address
 * with the original Host header and X-Forwarded-Proto, as a TLS-terminating proxy would pass them
 * on, so the service behind it verifies the host and port signed.
 */
export function nodeUpstream(connectTo: ReadonlyMap<string, string>): Upstream {
	const attempt = (upstream: UpstreamRequest, retry: boolean): Promise<Response> =>
		new Promise<Response>((resolve, reject) => {
			const headers: Record<string, string> = { host: upstream.host };
			upstream.headers.forEach((value, name) => (headers[name] = value));
			const routed = connectTo.get(upstream.hostname);
			let options: RequestOptions;
			if (routed !== undefined) {
				const split = splitHttpUrl(`http://${routed}`);
				if (typeof split === 'string') {
					reject(new UpstreamFailure('upstream_unreachable', split));
					return;
				}
				headers['x-forwarded-proto'] = upstream.protocol.slice(0, -1);
				options = {
					hostname: split.hostname.replace(/^\[|\]$/g, ''),
					port: split.port,
					agent: httpAgent
				};
			} else {
				options = {
					hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
					port: upstream.port,
					agent: upstream.protocol === 'https:' ? httpsAgent : httpAgent,
					...(upstream.addresses.length > 0 ? { lookup: pinnedLookup(upstream.addresses) } : {})
				};
			}
			const send =
				routed === undefined && upstream.protocol === 'https:' ? httpsRequest : httpRequest;
			let outgoing: ClientRequest;
			try {
				outgoing = send({
					...options,
					method: 'GET',
					path: upstream.path,
					headers,
					signal: upstream.signal
				});
			} catch (error) {
				reject(error);
				return;
			}
			outgoing.on('response', (incoming) => {
				try {
					resolve(toResponse(incoming, upstream.host));
				} catch (error) {
					reject(error);
				}
			});
			outgoing.on('upgrade', (_incoming, socket: Socket) => {
				socket.destroy();
				reject(
					new UpstreamFailure(
						'upstream_invalid',
						`${upstream.host} answered 101 Switching Protocols`
					)
				);
			});
			outgoing.on('error', (error: NodeJS.ErrnoException) => {
				if (retry && outgoing.reusedSocket && error.code === 'ECONNRESET') {
					// A kept-alive connection the upstream had just closed: once more on a new one.
					attempt(upstream, false).then(resolve, reject);
				} else if (isParseError(error)) {
					reject(
						new UpstreamFailure(
							'upstream_invalid',
							`${upstream.host} answered something that is not HTTP (${error.code})`
						)
					);
				} else if (error.code === 'ECONNRESET') {
					reject(
						new UpstreamFailure(
							'upstream_reset',
							`${upstream.host} closed the connection without answering`
						)
					);
				} else reject(error);
			});
			outgoing.end();
		});
	return (upstream) => attempt(upstream, true);
}
