import { RELAY_ERROR_HEADER } from '../relay/protocol';

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
			message: string;
			elapsedMs: number;
	  };

const ADVICE: Record<Target, string> = {
	sandbox: '',
	proxy:
		"Is the relay running (npm run proxy), and does it allow this page's origin (--allow-origin)? The browser does not say which: a relay that is down and one that refuses the origin look the same from here.",
	direct:
		'The browser blocked the call or could not connect. The service answers no CORS preflight, so a browser cannot call it directly: choose Proxy and run a relay (npm run proxy), or copy the curl command and run it in a terminal.'
};

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
				message:
					`No answer within ${timeoutMs / 1000} s. ${input.target === 'proxy' ? 'The relay or the service behind it is too slow or stuck.' : ''}`.trim(),
				elapsedMs: elapsed()
			};
		}
		// By name, not class: the sandbox's code is loaded on first use, apart from this module.
		if (error instanceof Error && error.name === 'SandboxUnreachable')
			return { kind: 'fault', fault: 'unreachable', message: error.message, elapsedMs: elapsed() };
		return {
			kind: 'fault',
			fault: 'unreachable',
			message: `The request did not get through. ${ADVICE[input.target]}`,
			elapsedMs: elapsed()
		};
	}
	if (response.type === 'opaqueredirect') {
		return {
			kind: 'fault',
			fault: 'redirect',
			message:
				'The server answered with a redirect, which this page does not follow: the Authorization header is meant for this host only.',
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
			message: 'The response stopped before its body was complete.',
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
