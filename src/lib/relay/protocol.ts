// Relative: the relay's handler imports this file, and an edge Worker is bundled without $lib.
import { SERVER_REFUSALS } from '../http/refusals';

/** The header that tells a relay's own answer from the upstream's; the page reads it to tell them apart. */
export const RELAY_ERROR_HEADER = 'x-relay-error';

/**
 * Every answer the relay gives on its own, instead of the upstream's: the code it sends in
 * `x-relay-error` and in the JSON body's `relay_error`, with the status and what it means.
 * This is the one list of them (with the refusals every server gives, http/refusals.ts); the table
 * in docs/relay.md repeats it for readers.
 */
export const RELAY_ERRORS = {
	...SERVER_REFUSALS,
	usage: { status: 400, meaning: 'neither /<upstream URL> nor /?url=<encoded upstream URL>' },
	origin_not_allowed: { status: 403, meaning: 'the page’s origin is not on the list' },
	bad_upstream_url: { status: 400, meaning: 'not an http(s) URL the relay can send as is' },
	host_not_allowed: { status: 403, meaning: 'the upstream host is not on the allow-list' },
	address_not_allowed: {
		status: 403,
		meaning: 'the host is, or resolves to, a loopback, private or reserved address'
	},
	upstream_unreachable: { status: 502, meaning: 'no connection (name not found, refused)' },
	upstream_reset: { status: 502, meaning: 'the connection closed before an answer came' },
	upstream_invalid: {
		status: 502,
		meaning: 'the answer is not HTTP the relay can pass on (garbage, status 1xx or ≥ 600)'
	},
	upstream_incomplete: { status: 502, meaning: 'the answer ended before its body was complete' },
	upstream_timeout: { status: 504, meaning: 'no complete answer within the time limit' },
	redirect_not_followed: { status: 502, meaning: 'the upstream redirected (3xx other than 304)' },
	response_too_large: { status: 502, meaning: 'the answer is larger than the cap (1 MiB)' }
} as const satisfies Record<string, { status: number; meaning: string }>;

export type RelayErrorCode = keyof typeof RELAY_ERRORS;
