import { listen, plain, readTarget, write, type Listening, type ServeOptions } from '../http/serve';
import type { RelayAnswer, RelayRequest } from '$lib/relay/handler';

// The relay's upstream side under Node (name resolution pinned to the checked addresses, keep-alive
// agents, the capped body) lives in node-upstream.ts; re-exported so callers keep one entry.
export { nodeUpstream, resolveHost } from './node-upstream';

/**
 * Serves the relay over HTTP with node:http, handing it the raw request without building a fetch
 * Request or Response: the same checks as `serve`, the target bytes exactly as received, and the
 * answer written as it is.
 */
export function serveRelay(
	relay: (request: RelayRequest) => Promise<RelayAnswer>,
	options: ServeOptions
): Promise<Listening> {
	const { refuse } = options;
	return listen(async (incoming, outgoing) => {
		const received = readTarget(incoming, options);
		if ('code' in received)
			return write(outgoing, await plain(refuse(received.code, received.message)));
		const headers = incoming.headers;
		const answer = await relay({
			method: incoming.method ?? 'GET',
			target: received.path,
			header: (name) => {
				const value = headers[name];
				return typeof value === 'string' ? value : (value?.join(', ') ?? null);
			},
			onGone: (listener) =>
				outgoing.once('close', () => {
					if (!outgoing.writableFinished) listener();
				})
		});
		write(outgoing, answer);
	}, options);
}

/**
 * One coarse clock for every request's time limit: a scan of the pending ones every
 * `resolutionMs`, instead of a timer each (which costs more than the rest of a request's checks).
 * The clock runs only while something is pending.
 */
export function coarseTimers(resolutionMs = 100): (ms: number, fire: () => void) => () => void {
	const pending = new Set<{ at: number; fire: () => void }>();
	let clock: ReturnType<typeof setInterval> | undefined;
	const tick = () => {
		const now = Date.now();
		for (const entry of pending) {
			if (entry.at > now) continue;
			pending.delete(entry);
			try {
				entry.fire();
			} catch (error) {
				console.error(`time limit: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		if (pending.size === 0) {
			clearInterval(clock);
			clock = undefined;
		}
	};
	return (ms, fire) => {
		const entry = { at: Date.now() + ms, fire };
		pending.add(entry);
		clock ??= setInterval(tick, resolutionMs);
		return () => void pending.delete(entry);
	};
}
