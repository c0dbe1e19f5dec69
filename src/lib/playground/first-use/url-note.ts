// Why the URL that goes out differs from the one written, in the page's language: a note shown
// only for some URLs, loaded with the first of them (RequestFields.svelte), not with the page.
import { urlRewritesText } from '$lib/i18n/url-rewrite-text';
import { m } from '$lib/paraglide/messages.js';
import type { UrlNote } from '../playground.svelte';

export function urlNoteText(note: UrlNote): string {
	const changes = urlRewritesText(note.changes);
	const what =
		note.sentAs === null
			? m.playground_url_changes({ changes: changes.charAt(0).toUpperCase() + changes.slice(1) })
			: m.playground_url_sent_as({ url: note.sentAs, changes });
	return m.playground_url_note({ what });
}
