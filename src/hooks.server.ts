import type { Handle } from '@sveltejs/kit';
import { localeOfPath } from '$lib/i18n/locale';
import { paintFirst } from '$lib/pages/paint-first';

// Prerendering: each page's <html lang> is the language its path is in (app.html's %lang%), and its
// scripts load once it has been painted (paint-first.ts).
export const handle: Handle = ({ event, resolve }) => {
	const locale = localeOfPath(event.url.pathname);
	return resolve(event, {
		transformPageChunk: ({ html }) => paintFirst(html.replace('%lang%', locale))
	});
};
