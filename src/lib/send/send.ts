import { text, type Text } from '$lib/i18n/text';
import { RELAY_ERROR_HEADER } from '$lib/relay/protocol';

export type Target = 'sandbox' | 'proxy' | 'direct';

export interface SendInput {
	target: Target;
	/** What the browser actually requests: the upstream URL, or the relay's URL for it. */
	requestUrl: string;
	/** The header to send; null to send none (to see invalid_request). */
	authorization: string | null;
	sandbox: (request: Request) => Promise<Response>;
	timeoutMs?: number;
}

export type SendOutcome =
	| {
			kind: 'response';
			status: number;
			statusText: string;
			/** The headers the browser lets the page read. */
			headers: [string, string][];
			body: string;
			elapsedMs: number;
			/** Set when the relay answered for itself instead of relaying the service's answer. */
			relayError: string | null;
	  }
	| {
			kind: 'fault';
			fault: 'timeout' | 'unreachable' | 'redirect';
			message: Text;
			elapsedMs: number;
	  };

/** The request did not get through: what to check, for each target. */
const NOT_THROUGH: Record<Target, Text> = {
	sandbox: text('status_not_through'),
	proxy: text('status_not_through_proxy'),
	direct: text('status_not_through_direct')
};

/** The sandbox does not serve the host asked for: as if DNS found nothing. */
function sandboxUnreachable(error: Error): Text {
	const { hosts, host } = error as Error & { hosts?: readonly string[]; host?: string };
	if (!hosts || host === undefined) return text('status_not_through');
	const [first = '', second = ''] = hosts;
	return hosts.length === 2
		? text('status_sandbox_two_hosts', { first, second, host })
		: text('status_sandbox_hosts', { hosts: hosts.join(', '), host });
}

/** Sends one GET and reports what came back, or a fault in plain words. Never throws. */
export async function sendRequest(input: SendInput): Promise<SendOutcome> {
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	const headers = new Headers();
	if (input.authorization !== null) headers.set('authorization', input.authorization);
	const timeoutMs = input.timeoutMs ?? 15_000;
	let response: Response;
	try {
		const init: RequestInit = {
			headers,
			signal: AbortSignal.timeout(timeoutMs),
			credentials: 'omit',
			redirect: 'manual',
			cache: 'no-store'
		};
		response =
			input.target === 'sandbox'
				? await input.sandbox(new Request(input.requestUrl, init))
				: await fetch(input.requestUrl, init);
	} catch (error) {
		const name = error instanceof Error ? error.name : '';
		if (name === 'TimeoutError' || name === 'AbortError') {
			return {
				kind: 'fault',
				fault: 'timeout',
				message: text(input.target === 'proxy' ? 'status_timeout_proxy' : 'status_timeout', {
					seconds: timeoutMs / 1000
				}),
				elapsedMs: elapsed()
			};
		}
		// By name, not class: the sandbox's code is loaded on first use, apart from this module.
		if (error instanceof Error && error.name === 'SandboxUnreachable')
			return {
				kind: 'fault',
				fault: 'unreachable',
				message: sandboxUnreachable(error),
				elapsedMs: elapsed()
			};
		return {
			kind: 'fault',
			fault: 'unreachable',
			message: NOT_THROUGH[input.target],
			elapsedMs: elapsed()
		};
	}
	if (response.type === 'opaqueredirect') {
		return {
			kind: 'fault',
			fault: 'redirect',
			message: text('status_redirect'),
			elapsedMs: elapsed()
		};
	}
	let body: string;
	try {
		body = await response.text();
	} catch {
		return {
			kind: 'fault',
			fault: 'timeout',
			message: text('status_incomplete'),
			elapsedMs: elapsed()
		};
	}
	return {
		kind: 'response',
		status: response.status,
		statusText: response.statusText,
		headers: [...response.headers.entries()],
		body,
		elapsedMs: elapsed(),
		relayError: input.target === 'proxy' ? response.headers.get(RELAY_ERROR_HEADER) : null
	};
}
