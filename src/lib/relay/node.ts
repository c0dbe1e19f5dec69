import { lookup } from 'node:dns/promises';
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type ServerResponse
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Upstream } from './handler';

export type Handler = (request: Request) => Promise<Response>;

export interface ServeOptions {
	host?: string;
	port?: number;
	/**
	 * Rebuild the request URL from X-Forwarded-Proto and Host, as a service behind a TLS-terminating
	 * proxy does; the sandbox needs it to verify the scheme and port the client signed.
	 */
	trustForwarded?: boolean;
}

function toRequest(incoming: IncomingMessage, options: ServeOptions): Request {
	const forwarded = options.trustForwarded ? incoming.headers['x-forwarded-proto'] : undefined;
	const scheme = typeof forwarded === 'string' ? forwarded : 'http';
	const host = incoming.headers.host ?? `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`;
	const headers = new Headers();
	for (const [name, value] of Object.entries(incoming.headers)) {
		if (typeof value === 'string') headers.set(name, value);
		else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
	}
	// incoming.url is the request-target as received: appending it keeps its bytes.
	return new Request(`${scheme}://${host}${incoming.url ?? '/'}`, {
		method: incoming.method,
		headers
	});
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	outgoing.writeHead(response.status, response.statusText, headers);
	outgoing.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/** Serves a fetch handler over HTTP with node:http. */
export function serve(
	handler: Handler,
	options: ServeOptions = {}
): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createServer((incoming, outgoing) => {
		const request = toRequest(incoming, options);
		handler(request)
			.then((response) => send(response, outgoing))
			.catch((error: unknown) => {
				outgoing.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
				outgoing.end(
					JSON.stringify({
						relay_error: 'internal',
						message: error instanceof Error ? error.message : String(error)
					})
				);
			});
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
			const { address, port } = server.address() as AddressInfo;
			const shown = address.includes(':') ? `[${address}]` : address;
			resolve({
				url: `http://${shown}:${port}`,
				close: () => new Promise((done) => server.close(() => done()))
			});
		});
	});
}

/** All addresses a name resolves to, for the relay's private-address check. */
export async function resolveHost(host: string): Promise<string[]> {
	return (await lookup(host, { all: true })).map((entry) => entry.address);
}

/**
 * fetch, except for hosts the operator routed elsewhere (`--connect-to host=ip:port`): those are
 * reached over plain HTTP at that address with the original Host header and X-Forwarded-Proto, as a
 * TLS-terminating proxy would pass them on, so the service behind it verifies the host and port signed.
 */
export function nodeUpstream(connectTo: ReadonlyMap<string, string>): Upstream {
	return (url, init) => {
		const target = new URL(url);
		const address = connectTo.get(target.hostname);
		if (address === undefined)
			return fetch(url, { ...init, redirect: 'manual', credentials: 'omit' });
		const [hostname, port] = [
			address.slice(0, address.lastIndexOf(':')),
			address.slice(address.lastIndexOf(':') + 1)
		];
		return new Promise<Response>((resolve, reject) => {
			const headers: Record<string, string> = {
				host: target.host,
				'x-forwarded-proto': target.protocol.slice(0, -1)
			};
			init.headers.forEach((value, name) => (headers[name] = value));
			const outgoing = httpRequest(
				{
					hostname: hostname.replace(/^\[|\]$/g, ''),
					port: Number(port),
					method: 'GET',
					path: url.slice(target.origin.length) || '/',
					headers,
					signal: init.signal
				},
				(incoming) => {
					const responseHeaders = new Headers();
					for (const [name, value] of Object.entries(incoming.headers)) {
						if (typeof value === 'string') responseHeaders.set(name, value);
					}
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
					incoming.on('error', reject);
					incoming.on('end', () => {
						const status = incoming.statusCode ?? 502;
						const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
						resolve(
							new Response(body, {
								status,
								statusText: incoming.statusMessage ?? '',
								headers: responseHeaders
							})
						);
					});
				}
			);
			outgoing.on('error', reject);
			outgoing.end();
		});
	};
}
