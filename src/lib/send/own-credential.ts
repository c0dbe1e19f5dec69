// The visitor's own credential and the in-page sandbox (issue 43 §2): what the sandbox holds for the
// form's kid, and the registration that makes it round-trip. Used by the parts that load with the
// first kid the sandbox did not issue (OwnCredential.svelte, ResponseView.svelte), not by the page.
import type { Playground } from '$lib/playground/playground.svelte';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';

/**
 * Whether the sandbox knows the form's credential: `unknown` (it never issued the kid), `demo` (a
 * demo account or one of its logins), `registered` (registered here, with the form's values) or
 * `differs` (registered here with other values).
 */
export function credentialInSandbox(
	form: Playground,
	sandbox: Sandbox
): 'unknown' | 'demo' | 'registered' | 'differs' {
	const held = sandbox.tokenFor(form.kid);
	if (held === undefined) return 'unknown';
	if (held.accountId !== held.kid) return 'demo';
	return held.macKey === form.macKey &&
		held.clientId === form.clientId.trim() &&
		held.scopes.join() === form.grantedScopes.join()
		? 'registered'
		: 'differs';
}

/** Whether the form holds enough to register: kid, mac_key and client_id. */
export function canRegister(form: Playground): boolean {
	return form.kid !== '' && form.macKey !== '' && form.clientId.trim() !== '';
}

/** Registers the form's credential with the in-page sandbox (kept in this tab's memory only). */
export async function registerCredential(form: Playground, sandbox: Sandbox): Promise<void> {
	if (!canRegister(form)) return;
	await sandbox.register({
		kid: form.kid,
		macKey: form.macKey,
		clientId: form.clientId.trim(),
		scopes: form.grantedScopes
	});
}
