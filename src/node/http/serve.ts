// The HTTP plumbing every server of this project shares under Node (the relay, the sandbox server):
// a request Node's parser refuses, a forbidden method, a bad Host or target, too many connections,
// a handler that throws: each gets an answer with a status, never a dead process.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RefusalCode } from '$lib/http/refusals';
import { splitHttpUrl } from '$lib/http/url';

/** A fetch handler; `target` is the request-target's path and query exactly as received. */
export type Handler = (request: Request, target: string) => Promise<Response>;

/** Builds the answer to a request the server could not hand to its handler. */
export type Refusal = (code: RefusalCode, message: string) => Response;

export interface ServeOptions {
	host?: string;
	port?: number;
	/**
	 * Rebuild the request URL from X-Forwarded-Proto and Host, as a service behind a TLS-terminating
	 * proxy does; the sandbox needs it to verify the scheme and port the client signed.
	 */
	trustForwarded?: boolean;
	/** The answer to a request that cannot be understood, in the server's own error body. */
	refuse: Refusal;
	/**
	 * Client connections served at once; one more is answered 503 and closed. Each open connection
	 * holds buffers, so without a cap a flood of idle connections would grow memory without bound.
	 */
	maxConnections?: number;
}

/** The default cap on client connections served at once. */
export const MAX_CONNECTIONS = 256;

export interface Listening {
	url: string;
	close: () => Promise<void>;
}

/** Methods a fetch Request cannot carry; a server answers them itself. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** A Host header: a name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const HOST = /^(?:[\w.~-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export interface Received {
	scheme: string;
	authority: string;
	/** Path and query exactly as received. */
	path: string;
}
type Refused = { code: RefusalCode; message: string };

/** What a request asks for, read strictly: a request that cannot name a URL is refused. */
export function readTarget(incoming: IncomingMessage, options: ServeOptions): Received | Refused {
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
	if (target.startsWith('/')) {
		const host = incoming.headers.host;
		if (host === undefined && incoming.httpVersion !== '1.0')
			return { code: 'bad_request', message: 'The Host header is missing.' };
		const authority = host ?? `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`;
		if (!HOST.test(authority))
			return { code: 'bad_request', message: 'The Host header is not a host and port.' };
		return { scheme, authority, path: target };
	}
	if (/^https?:\/\//i.test(target)) {
		// Absolute form: the target's authority replaces the Host header (RFC 9112, 3.2.2).
		const split = splitHttpUrl(target);
		if (typeof split === 'string') return { code: 'bad_request', message: split };
		return { scheme, authority: split.host, path: split.path };
	}
	return { code: 'bad_request', message: `The request target "${target}" is not a path.` };
}

/** An answer as it goes on the wire: no fetch Response, so a hot path need not build one. */
export interface PlainAnswer {
	status: number;
	statusText?: string;
	headers: Record<string, string>;
	body: Uint8Array | null;
}

/** Writes a plain answer; a status text Node refuses is left out rather than failing the answer. */
export function write(outgoing: ServerResponse, answer: PlainAnswer): void {
	const headers: Record<string, string | number> = answer.headers;
	if (answer.body) headers['content-length'] = answer.body.byteLength;
	try {
		outgoing.writeHead(answer.status, answer.statusText, headers);
	} catch {
		outgoing.writeHead(answer.status, headers);
	}
	outgoing.end(answer.body ?? undefined);
}

/** A fetch Response as a plain answer, to be written by `write`. */
export async function plain(response: Response): Promise<PlainAnswer> {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	return {
		status: response.status,
		statusText: response.statusText,
		headers,
		body: response.body ? new Uint8Array(await response.arrayBuffer()) : null
	};
}

/** Writes an answer on a socket that has no response object (a request Node's parser refused). */
async function writeOnSocket(socket: Socket, response: Response): Promise<void> {
	const answer = await plain(response);
	const lines = [`HTTP/1.1 ${answer.status} ${answer.statusText || 'Error'}`];
	for (const [name, value] of Object.entries(answer.headers)) lines.push(`${name}: ${value}`);
	const body = answer.body ?? new Uint8Array();
	lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
	socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
}

const CLIENT_ERRORS: Record<string, [RefusalCode, string]> = {
	HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are too large.'],
	ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
	ERR_HTTP_HEADERS_TIMEOUT: ['request_timeout', 'The request headers did not arrive in time.']
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * An HTTP server on which whatever arrives gets an answer with a status: requests Node's parser
 * refuses, CONNECT, and (through `answer`) everything else; a failure while answering is a 500.
 */
export function listen(
	answer: (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>,
	options: ServeOptions
): Promise<Listening> {
	const { refuse } = options;
	const server = createServer(
		// A missing Host is refused by readTarget, with a JSON body like every other refusal.
		{ headersTimeout: 10_000, requestTimeout: 30_000, requireHostHeader: false },
		(incoming, outgoing) => {
			// Over the cap: the refusal is already on its way and the socket closes after it.
			if (overCap.has(incoming.socket)) return;
			answer(incoming, outgoing).catch(async (error: unknown) => {
				if (outgoing.headersSent) return outgoing.destroy();
				try {
					write(outgoing, await plain(refuse('internal', `The server failed: ${message(error)}.`)));
				} catch {
					outgoing.destroy();
				}
			});
		}
	);
	const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
	const overCap = new WeakSet<Socket>();
	let open = 0;
	server.on('connection', (socket: Socket) => {
		if (open >= maxConnections) {
			overCap.add(socket);
			socket.on('error', () => socket.destroy());
			writeOnSocket(
				socket,
				refuse(
					'too_many_connections',
					`More than ${maxConnections} connections are open; try again shortly.`
				)
			).catch(() => socket.destroy());
			return;
		}
		open += 1;
		socket.once('close', () => (open -= 1));
	});
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		if (overCap.has(socket)) return socket.destroy();
		const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
		if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
			socket.destroy();
			return;
		}
		const [code, text] = CLIENT_ERRORS[error.code ?? ''] ?? [
			'bad_request',
			`The request is not HTTP this server can read (${error.code ?? error.message}).`
		];
		writeOnSocket(socket, refuse(code, text)).catch(() => socket.destroy());
	});
	server.on('connect', (_incoming: IncomingMessage, socket: Socket) => {
		socket.on('error', () => socket.destroy());
		writeOnSocket(socket, refuse('method_not_allowed', 'CONNECT is not served here.')).catch(() =>
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

/** Aborts when the client goes away before its answer is written. */
function clientGone(outgoing: ServerResponse): AbortSignal {
	const controller = new AbortController();
	outgoing.once('close', () => {
		if (!outgoing.writableFinished) controller.abort();
	});
	return controller.signal;
}

/** The request as a fetch Request, its URL from what readTarget received; aborted when the client goes. */
export function fetchRequest(
	incoming: IncomingMessage,
	received: Received,
	outgoing: ServerResponse
): Request | Refused {
	try {
		const headers = new Headers();
		const raw = incoming.rawHeaders;
		for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
		return new Request(`${received.scheme}://${received.authority}${received.path}`, {
			method: incoming.method,
			headers,
			signal: clientGone(outgoing)
		});
	} catch (error) {
		return { code: 'bad_request', message: `The request cannot be read: ${message(error)}.` };
	}
}

/**
 * Serves a fetch handler over HTTP with node:http. A request that cannot become a fetch Request
 * (a forbidden method, a bad Host, target or X-Forwarded-Proto) is answered by `refuse`. The
 * handler also gets the request-target as received, which the Request's URL may have re-encoded.
 */
export function serve(handler: Handler, options: ServeOptions): Promise<Listening> {
	const { refuse } = options;
	return listen(async (incoming, outgoing) => {
		const received = readTarget(incoming, options);
		if ('code' in received)
			return write(outgoing, await plain(refuse(received.code, received.message)));
		const request = fetchRequest(incoming, received, outgoing);
		if ('code' in request)
			return write(outgoing, await plain(refuse(request.code, request.message)));
		write(outgoing, await plain(await handler(request, received.path)));
	}, options);
}
