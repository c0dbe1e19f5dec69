// Why the URL that goes out differs from the one written, in the page's language: a note shown
// only for some URLs, loaded with the first of them (RequestFields.svelte), not with the page. A
// text module: imported by a component, it is copied per language (src/lib/i18n/locale-variants.ts).
import type { UrlRewrite } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';
import type { UrlNote } from '../playground.svelte';

/** One of the core's URL rewrites, in this language. */
function rewriteText(rewrite: UrlRewrite): string {
	switch (rewrite.kind) {
		case 'host-lower-case':
			return m.playground_rewrite_host();
		case 'empty-path':
			return m.playground_rewrite_empty_path();
		case 'breaks-dropped':
			return m.playground_rewrite_breaks();
		case 'dot-segments':
			return m.playground_rewrite_dot_segments();
		case 'encoded':
			return m.playground_rewrite_encoded({
				char: rewrite.char === ' ' ? m.playground_rewrite_space() : rewrite.shown,
				escaped: rewrite.escaped
			});
	}
}

export function urlNoteText(note: UrlNote): string {
	const changes = note.changes.map(rewriteText).join(m.playground_clause_separator());
	const what =
		note.sentAs === null
			? m.playground_url_changes({ changes: changes.charAt(0).toUpperCase() + changes.slice(1) })
			: m.playground_url_sent_as({ url: note.sentAs, changes });
	return m.playground_url_note({ what });
}
