// Sets the signing page up so that its next Send gets one error from the in-page sandbox (the links
// of /errors). Each change is one a visitor could make by hand, and none costs what they typed: the
// URL goes in the Request URL box (the composed one comes back when it is emptied), a preset keeps
// their credential to put back, and the sandbox's own settings hold the rest.
import { ERROR_CODES, type ErrorCode } from '$lib/account-api/error-codes';
import { m } from '$lib/paraglide/messages.js';
import type { Playground } from '$lib/playground/playground.svelte';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import type { Sender } from './sender.svelte';

/** A ts long past, outside any window the service may allow. */
export const PAST_TS = '1000000000';

/** How many requests the sandbox fails for server_error: more than the page's 3 attempts. */
const FAILURES = 5;

/**
 * Sets `asked` up, when it is one of the service's codes; resolves with the words that say so
 * beside Send, or null for a code the service does not have.
 */
export async function rehearse(
	asked: string,
	{ playground, sender, sandbox }: { playground: Playground; sender: Sender; sandbox: Sandbox }
): Promise<string | null> {
	if (!Object.hasOwn(ERROR_CODES, asked)) return null;
	const code = asked as ErrorCode;
	sender.target = 'sandbox';
	// What an earlier rehearsal set, undone: each error is made alone.
	sender.omitAuthorization = code === 'invalid_request';
	if (playground.fixedTs === PAST_TS) playground.fixedTs = null;
	await sandbox.configure({ failNext: code === 'server_error' ? FAILURES : 0 });
	const url = (change: (url: URL) => void) => {
		const target = new URL(playground.url);
		change(target);
		playground.customUrl = target.href;
	};
	switch (code) {
		case 'invalid_time':
			playground.fixedTs = PAST_TS;
			break;
		case 'invalid_client':
			url((target) => target.searchParams.set('client_id', 'someone-elses-app'));
			break;
		case 'access_denied':
			// A kid the sandbox never issued is refused as it is; one it knows is revoked (spec §3).
			if (sandbox.issued(playground.kid)) await sandbox.invalidate(playground.kid, 'revoked');
			break;
		case 'forbidden':
			playground.usePresetNamed('demo-basic');
			playground.operationOverride = 'profile';
			break;
		case 'not_found':
			url((target) => (target.pathname = '/account/nothing/v1'));
			break;
	}
	return m.send_rehearsed({ code });
}
