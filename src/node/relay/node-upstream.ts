// The relay's upstream side under Node: the name resolved once and the connection pinned to the
// addresses that were checked, keep-alive agents, and the body read with the cap as it streams.
import type { LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import {
	Agent as HttpAgent,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
	type RequestOptions
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import {
	joinChunks,
	UpstreamFailure,
	type Upstream,
	type UpstreamAnswer,
	type UpstreamRequest
} from '$lib/relay/handler';
import { splitHttpUrl } from '$lib/http/url';

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
const agentOptions = { keepAlive: true, maxSockets: 256, timeout: 60_000 };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

/** Node's client error codes for an answer that is not valid HTTP. */
const isParseError = (error: NodeJS.ErrnoException) => error.code?.startsWith('HPE_') ?? false;

/** A Node answer as the relay reads it. */
function toAnswer(incoming: IncomingMessage, host: string): UpstreamAnswer {
	return {
		status: incoming.statusCode ?? 0,
		statusText: incoming.statusMessage ?? '',
		header: (name) => {
			const value = incoming.headers[name];
			return typeof value === 'string' ? value : null;
		},
		read: (maxBytes) => readCapped(incoming, host, maxBytes),
		cancel: () => incoming.destroy()
	};
}

/**
 * Reads a message's body up to `maxBytes`: the moment it goes over, the message is destroyed (so
 * nothing more is read) and the answer is null. A connection that ends before the body is
 * complete is an UpstreamFailure.
 */
function readCapped(
	incoming: IncomingMessage,
	host: string,
	maxBytes: number
): Promise<Uint8Array | null> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const incomplete = () => {
			if (settled) return;
			settled = true;
			reject(
				new UpstreamFailure(
					'upstream_incomplete',
					`${host} closed the connection before its answer was complete`
				)
			);
		};
		incoming.on('data', (chunk: Buffer) => {
			if (settled) return;
			size += chunk.byteLength;
			if (size > maxBytes) {
				settled = true;
				incoming.destroy();
				resolve(null);
			} else chunks.push(chunk);
		});
		incoming.on('end', () => {
			if (!incoming.complete) return incomplete();
			settled = true;
			resolve(joinChunks(chunks, size));
		});
		incoming.on('error', incomplete);
		incoming.on('close', incomplete);
	});
}

/**
 * node:http and node:https with the path bytes as received (fetch's URL parser would re-encode
 * some), connecting only to the addresses the relay checked, over keep-alive connections. Hosts the
 * operator routed elsewhere (`--connect-to host=ip:port`) are reached over plain HTTP at that address
 * with the original Host header and X-Forwarded-Proto, as a TLS-terminating proxy would pass them
 * on, so the service behind it verifies the host and port signed.
 */
export function nodeUpstream(connectTo: ReadonlyMap<string, string>): Upstream {
	const routes = new Map<string, { hostname: string; port: number }>();
	for (const [host, address] of connectTo) {
		const split = splitHttpUrl(`http://${address}`);
		if (typeof split === 'string') throw new Error(`--connect-to ${host}=${address}: ${split}`);
		routes.set(host, { hostname: split.hostname.replace(/^\[|\]$/g, ''), port: split.port });
	}
	const attempt = (upstream: UpstreamRequest, retry: boolean): Promise<UpstreamAnswer> =>
		new Promise<UpstreamAnswer>((resolve, reject) => {
			const headers: Record<string, string> = Object.assign(
				{ host: upstream.host },
				upstream.headers
			);
			const routed = routes.get(upstream.hostname);
			let options: RequestOptions;
			if (routed !== undefined) {
				headers['x-forwarded-proto'] = upstream.protocol === 'https:' ? 'https' : 'http';
				options = { hostname: routed.hostname, port: routed.port, agent: httpAgent };
			} else {
				options = {
					hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
					port: upstream.port,
					agent: upstream.protocol === 'https:' ? httpsAgent : httpAgent
				};
				if (upstream.addresses.length > 0) options.lookup = pinnedLookup(upstream.addresses);
			}
			options.method = 'GET';
			options.path = upstream.path;
			options.headers = headers;
			const send =
				routed === undefined && upstream.protocol === 'https:' ? httpsRequest : httpRequest;
			let outgoing: ClientRequest;
			try {
				outgoing = send(options);
			} catch (error) {
				reject(error);
				return;
			}
			// The relay's time limit, and a client that has gone: end the exchange wherever it is.
			upstream.onAbort(() => outgoing.destroy(new Error('aborted')));
			outgoing.on('response', (incoming) => {
				incoming.on('error', () => {});
				resolve(toAnswer(incoming, upstream.host));
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
