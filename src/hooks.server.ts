import type { Handle } from '@sveltejs/kit';
import { localeOfPath } from '$lib/i18n/locale';

// Prerendering: each page's <html lang> is the language its path is in (app.html's %lang%).
export const handle: Handle = ({ event, resolve }) => {
	const locale = localeOfPath(event.url.pathname);
	return resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', locale) });
};
