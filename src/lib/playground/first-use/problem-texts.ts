// The words for what is wrong with an input, in the page's language: a note for a field left empty
// or not of its form, and the core's errors (i18n/mac-error-text, the messages of messages/core).
// They load with the first such problem shown (texts.ts), not with the page, which most visits
// never need (about 6 kB gzip).
import { m } from '$lib/paraglide/messages.js';
import type { PlaygroundNote } from '../playground.svelte';

export { macErrorText } from '$lib/i18n/mac-error-text';

/**
 * A field's note for an input that is empty or not of its form: every note but those the page words
 * on its first view (texts.ts noteText).
 */
export type ProblemNote = Exclude<PlaygroundNote, { code: 'client_id_demo' | 'scope' | 'error' }>;

export function problemText(note: ProblemNote): string {
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
	}
}
