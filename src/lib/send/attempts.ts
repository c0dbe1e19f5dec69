// What a Send brings back, written by send-run.ts (loaded with the first Send) into the state the
// page shows (sender.svelte.ts): apart from both, so that neither imports the other.
import type { Text } from '$lib/i18n/text';
import type { Explanation } from './explain';
import type { SendOutcome, Target } from './send';

/** The short wait before a retry, growing with each attempt. */
export const RETRY_DELAY_MS = 700;

export interface Attempt {
	number: number;
	atMs: number;
	summary: Text;
	serverError: boolean;
}

export interface SendResult {
	target: Target;
	upstreamUrl: string;
	requestUrl: string;
	kid: string;
	/** Sent to the sandbox with a kid it never issued: it can only refuse such a request. */
	kidUnknownToSandbox: boolean;
	authorization: string | null;
	/** The signed request as curl, and the key it was signed with: what /verify needs to check it. */
	signedRequest: { curl: string; macKey: string };
	outcome: SendOutcome;
	explanation: Explanation | null;
}

/** What a run of sends reads from the sender and writes back into it. */
export interface SendState {
	readonly target: Target;
	readonly omitAuthorization: boolean;
	readonly upstreamUrl: string | null;
	readonly requestUrl: string | null;
	/** The request's URL and kid: a request the service refused is not sent again. */
	readonly requestKey: string;
	result: SendResult | null;
	attempts: Attempt[];
	gaveUp: boolean;
	refused: { key: string; code: string } | null;
}
