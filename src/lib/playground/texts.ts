// What the playground's state says on the first view, in the page's language (the words for a
// problem with an input load on first use: first-use/): the state holds codes and values
// (playground.svelte.ts), and the components render them with these functions.
import { m } from '$lib/paraglide/messages.js';
import type { FieldMessage } from '$lib/ui/FieldNote.svelte';
import { Loaded } from '$lib/ui/loaded.svelte';
import type { MacInputError } from '$lib/mac/errors';
import type { Operation, ScopeReason } from '$lib/account-api/operations';
import type { FieldProblem, PlaygroundNote } from './playground.svelte';

// The words for a problem with an input load with the first one shown (first-use/problem-texts).
const problemTexts = new Loaded(() => import('./first-use/problem-texts'));

/** Resolves once the words for a problem are in (they load with the first one shown). */
export function problemTextsLoaded(): Promise<unknown> {
	return problemTexts.load();
}

/** A core error in the page's language; "Loading…" for the moment its words take, the first time. */
export function errorText(error: MacInputError): string {
	return problemTexts.get()?.macErrorText(error) ?? m.ui_loading();
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
		case 'client_id_demo':
			return m.playground_note_client_id_demo({ clientId: note.clientId });
		case 'scope':
			return scopeReasonText(note.reason);
		case 'error':
			return errorText(note.error);
		default:
			return problemTexts.get()?.problemText(note) ?? m.ui_loading();
	}
}

/** A field's note as the field shows it. */
export function fieldMessage(problem: FieldProblem | null | undefined): FieldMessage | null {
	if (!problem) return null;
	const message = { message: noteText(problem.note), blocking: problem.blocking };
	return problem.invalid ? { ...message, invalid: true } : message;
}
