import { building } from '$app/environment';
import type { Handle } from '@sveltejs/kit';
import { localeOfPath } from '$lib/i18n/locale';
import { paintFirst } from '$lib/pages/paint-first';

// Each page's <html lang> is the language its path is in (app.html's %lang%); prerendered, its
// scripts load once it has been painted (paint-first.ts; not in `vite dev` or for the pages the
// preview server renders, such as its 404).
export const handle: Handle = ({ event, resolve }) => {
	const locale = localeOfPath(event.url.pathname);
	return resolve(event, {
		transformPageChunk: ({ html }) => {
			const page = html.replace('%lang%', locale);
			return building ? paintFirst(page) : page;
		}
	});
};
