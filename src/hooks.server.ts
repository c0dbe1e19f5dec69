import type { Handle } from '@sveltejs/kit';
import { paraglideMiddleware } from '$lib/paraglide/server';
import icon from '../static/favicon.svg?raw';

// The icon in the page itself (app.html's %mac.icon%), not a request of its own: on a phone it
// would share the first round trips with the page. img-src allows data: for it (svelte.config.js).
// Only what a URL or the attribute cannot hold is escaped (its quotes become single ones).
const ICON = `data:image/svg+xml,${icon
	.trim()
	.replaceAll('"', "'")
	.replace(/[%#<>\s]/g, (char) => encodeURIComponent(char))}`;

// Paraglide's middleware sets the locale of the URL for the render (prerendering included), and
// each page's <html lang> is that locale (app.html's %lang%).
export const handle: Handle = ({ event, resolve }) =>
	paraglideMiddleware(event.request, ({ request, locale }) => {
		event.request = request;
		return resolve(event, {
			transformPageChunk: ({ html }) => html.replace('%lang%', locale).replace('%mac.icon%', ICON)
		});
	});
