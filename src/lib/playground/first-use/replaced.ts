// Which credential the page signs with in place of the user's, in the page's language: shown after a
// sandbox login or signing out, loaded with that notice (send/ReplacedNotice.svelte), not with the
// page.
import { m } from '$lib/paraglide/messages.js';
import type { ReplacedCredential } from '../playground.svelte';

/**
 * What the page says when it signs with another credential than the user's; `accountName` names
 * a demo account by its id (texts.ts's presetLabel).
 */
export function replacedText(
	replaced: ReplacedCredential,
	accountName: (id: string) => string
): string {
	const { by } = replaced;
	const yours = by.yours || m.playground_empty();
	if (by.kind === 'signed_out') return m.playground_replaced_signed_out({ yours });
	if (by.kind === 'preset')
		return m.playground_replaced_preset({ preset: accountName(by.preset), yours });
	return m.playground_replaced_login({
		account: accountName(by.account).toLowerCase(),
		kid: by.kid,
		clientId: by.clientId,
		yours
	});
}
