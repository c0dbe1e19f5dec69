// What Send does once clicked, loaded with the first Send (sender.svelte.ts holds the state the
// page shows before that): one request after another while server_error comes back, each with a
// fresh nonce and ts, and the answer explained.
import { text, type Text } from '$lib/i18n/text';
import type { Playground } from '$lib/playground/playground.svelte';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { explainResponse, type Explanation } from './explain';
import { sendRequest, type SendOutcome } from './send';
import { MAX_ATTEMPTS } from '$lib/account-api/error-codes';
import { RETRY_DELAY_MS, type SendResult, type SendState } from './attempts';

function summarize(outcome: SendOutcome, explanation: Explanation | null): Text {
	if (outcome.kind === 'fault') return outcome.message;
	const { status, elapsedMs: ms } = outcome;
	return explanation?.kind === 'error'
		? text('status_attempt_error', { status, code: explanation.code, ms })
		: text('status_attempt', { status, ms });
}

/** Sends the sender's request, again after server_error up to MAX_ATTEMPTS, into its state. */
export async function sendWithRetries(
	sender: SendState,
	playground: Playground,
	sandbox: Sandbox
): Promise<void> {
	sender.attempts = [];
	sender.gaveUp = false;
	for (let number = 1; number <= MAX_ATTEMPTS; number++) {
		if (number > 1) await new Promise((done) => setTimeout(done, RETRY_DELAY_MS * (number - 1)));
		const result = await sendOnce(sender, playground, sandbox);
		if (!result) return;
		sender.result = result;
		const serverError =
			result.explanation?.kind === 'error' && result.explanation.code === 'server_error';
		sender.attempts.push({
			number,
			atMs: Date.now(),
			summary: summarize(result.outcome, result.explanation),
			serverError
		});
		if (!serverError) break;
		if (number === MAX_ATTEMPTS) sender.gaveUp = true;
	}
	const explanation = sender.result?.explanation;
	if (
		explanation?.kind === 'error' &&
		(explanation.code === 'forbidden' || explanation.code === 'not_found')
	) {
		sender.refused = { key: sender.requestKey, code: explanation.code };
	}
}

/** One request with a fresh nonce (unless the user typed one) and the ts of this moment. */
async function sendOnce(
	sender: SendState,
	playground: Playground,
	sandbox: Sandbox
): Promise<SendResult | null> {
	if (!playground.nonceFixed) playground.newNonce();
	// What is signed, read together with the signature it gives.
	const kid = playground.kid;
	const ts = playground.ts;
	const macKey = playground.macKey;
	const signed = await playground.signed;
	const upstreamUrl = sender.upstreamUrl;
	const requestUrl = sender.requestUrl;
	if (!signed?.ok || upstreamUrl === null || requestUrl === null) return null;
	const authorization = sender.omitAuthorization ? null : signed.value.header;
	const target = sender.target;
	const kidUnknownToSandbox = target === 'sandbox' && !sandbox.issued(kid);
	const sentAtMs = Date.now();
	const outcome = await sendRequest({
		target,
		requestUrl,
		authorization,
		sandbox: (request) => sandbox.handle(request)
	});
	const explanation =
		outcome.kind === 'response' && outcome.relayError === null
			? explainResponse({
					status: outcome.status,
					body: outcome.body,
					date: outcome.headers.find(([name]) => name === 'date')?.[1] ?? null,
					receivedAtMs: Date.now(),
					sentAtMs,
					ts: authorization === null ? null : ts
				})
			: null;
	return {
		target,
		upstreamUrl,
		requestUrl,
		kid,
		kidUnknownToSandbox,
		authorization,
		signedRequest: { curl: signed.value.curl, macKey },
		outcome,
		explanation
	};
}
