// What the playground's state says, in the page's language: the state holds codes and values
// (playground.svelte.ts), and the components render them with these functions. A text module:
// imported by a component, it is copied per language (src/lib/i18n/locale-variants.ts).
// Where English differs, the test of the locale is written out at the spot: it compiles to a
// constant comparison, so the English page carries none of the other branch.
import { macErrorTextLazy } from '$lib/i18n/mac-error-text-lazy';
import { urlRewritesText } from '$lib/i18n/url-rewrite-text';
import { m } from '$lib/paraglide/messages.js';
import type { FieldMessage } from '$lib/ui/FieldNote.svelte';
import type { Operation, ScopeReason } from './operation';
import type {
	FieldProblem,
	IgnoredText,
	PlaygroundNote,
	ReplacedCredential,
	UrlNote
} from './playground.svelte';

/** Sentences one after another: a space between them in English, none in Chinese. */
export function sentences(parts: readonly string[]): string {
	return parts.join(m.frame_locale() === 'en' ? ' ' : '');
}

/** "kid, mac_key and scopes": names the page lists, in its language. */
export function listText(names: readonly string[]): string {
	if (m.frame_locale() !== 'en') return names.join('、');
	return names.length < 2
		? names.join('')
		: `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

export function scopeReasonText(reason: ScopeReason): string {
	switch (reason) {
		case 'public_profile':
			return m.playground_scope_profile();
		case 'basic_info_only':
			return m.playground_scope_basic();
		case 'no_scope':
			return m.playground_scope_none();
	}
}

export function operationLabel(operation: Operation): string {
	return operation === 'profile'
		? m.playground_operation_profile()
		: m.playground_operation_basic();
}

/** The name of a preset, or of the sandbox's demo account of that id. */
export function presetLabel(id: string): string {
	switch (id) {
		case 'demo-profile':
			return m.playground_preset_demo_profile();
		case 'demo-basic':
			return m.playground_preset_demo_basic();
		case 'draft-example':
			return m.playground_preset_draft();
		default:
			return id;
	}
}

export function noteText(note: PlaygroundNote): string {
	switch (note.code) {
		case 'kid_empty':
			return m.playground_note_kid_empty();
		case 'mac_key_empty':
			return m.playground_note_mac_key_empty();
		case 'nonce_empty':
			return m.playground_note_nonce_empty();
		case 'ts_not_decimal':
			return m.playground_note_ts_not_decimal();
		case 'ts_milliseconds':
			return m.playground_note_ts_milliseconds();
		case 'client_id_empty':
			return m.playground_note_client_id_empty();
		case 'algorithm_unsupported':
			return m.playground_note_algorithm({
				algorithm: note.algorithm,
				supported: note.supported
			});
		case 'scope':
			return scopeReasonText(note.reason);
		case 'error':
			return macErrorTextLazy(note.error);
	}
}

/** A field's note as the field shows it. */
export function fieldMessage(problem: FieldProblem | null | undefined): FieldMessage | null {
	return problem ? { message: noteText(problem.note), blocking: problem.blocking } : null;
}

export function urlNoteText(note: UrlNote): string {
	const changes = urlRewritesText(note.changes);
	const what =
		note.sentAs === null
			? m.playground_url_changes({ changes: changes.charAt(0).toUpperCase() + changes.slice(1) })
			: m.playground_url_sent_as({ url: note.sentAs, changes });
	return m.playground_url_note({ what });
}

export function ignoredText(ignored: IgnoredText): string {
	const { before, after } = ignored;
	if (before !== null && after !== null) return m.playground_ignored_both({ before, after });
	if (before !== null) return m.playground_ignored_before({ before });
	return m.playground_ignored_after({ after: after ?? '' });
}

export function replacedText(replaced: ReplacedCredential): string {
	const { by } = replaced;
	const yours = by.yours || m.playground_empty();
	if (by.kind === 'signed_out') return m.playground_replaced_signed_out({ yours });
	return m.playground_replaced_login({
		account: presetLabel(by.account).toLowerCase(),
		kid: by.kid,
		clientId: by.clientId,
		yours
	});
}
