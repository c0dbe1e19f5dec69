// What the playground's state says on the first view, in the page's language (the rarer notes load
// on first use: first-use/): the state holds codes and values
// (playground.svelte.ts), and the components render them with these functions.
import { macErrorText } from '$lib/i18n/mac-error-text';
import { m } from '$lib/paraglide/messages.js';
import type { FieldMessage } from '$lib/ui/FieldNote.svelte';
import type { Operation, ScopeReason } from '$lib/account-api/operations';
import type { FieldProblem, PlaygroundNote } from './playground.svelte';

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
		case 'client_id_demo':
			return m.playground_note_client_id_demo({ clientId: note.clientId });
		case 'algorithm_unsupported':
			return m.playground_note_algorithm({
				algorithm: note.algorithm,
				supported: note.supported
			});
		case 'scope':
			return scopeReasonText(note.reason);
		case 'error':
			return macErrorText(note.error);
	}
}

/** A field's note as the field shows it. */
export function fieldMessage(problem: FieldProblem | null | undefined): FieldMessage | null {
	if (!problem) return null;
	const message = { message: noteText(problem.note), blocking: problem.blocking };
	return problem.invalid ? { ...message, invalid: true } : message;
}
