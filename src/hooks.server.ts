import { building } from '$app/environment';
import type { Handle } from '@sveltejs/kit';
import { localeOfPath } from '$lib/i18n/locale';
import { paintFirst } from '$lib/pages/paint-first';
import icon from '../static/favicon.svg?raw';

// The icon in the page itself (app.html's %mac.icon%), not a request of its own: on a phone it
// would share the first round trips with the page, and it finishes before the first paint, so
// Lighthouse counts it in the largest paint's time. img-src allows data: for it (svelte.config.js).
// Only what a URL or the attribute cannot hold is escaped (its quotes become single ones).
const ICON = `data:image/svg+xml,${icon
	.trim()
	.replaceAll('"', "'")
	.replace(/[%#<>\s]/g, (char) => encodeURIComponent(char))}`;

// Each page's <html lang> is the language its path is in (app.html's %lang%), its icon is in it;
// prerendered, its scripts load once it has been painted (paint-first.ts; not in `vite dev` or for
// the pages the preview server renders, such as its 404).
export const handle: Handle = ({ event, resolve }) => {
	const locale = localeOfPath(event.url.pathname);
	return resolve(event, {
		transformPageChunk: ({ html }) => {
			const page = html.replace('%lang%', locale).replace('%mac.icon%', ICON);
			return building ? paintFirst(page) : page;
		}
	});
};
