import type { ClientInit } from '@sveltejs/kit';

// The URLPattern polyfill only in a browser without URLPattern (src/build/urlpattern-on-demand.js):
// Kit awaits `init` before it reads the URL (reroute) or hydrates.
export const init: ClientInit = async () => {
	if (!('URLPattern' in globalThis)) await import('urlpattern-polyfill');
};
