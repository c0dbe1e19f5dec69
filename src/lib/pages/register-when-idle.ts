// The service worker, registered once the page has hydrated and the browser is idle: its install
// downloads every file of the build (src/service-worker.ts), which must not compete with the
// scripts of the page being opened. SvelteKit would register it on `load` (svelte.config.js turns
// that off).
import { dev } from '$app/environment';
import { asset } from '$app/paths';
import type { Asset } from '$app/types';

/** At most this long after hydration, even on a page that is never idle. */
const LATEST_MS = 10_000;

/** Registers the site's service worker when the browser is next idle; once per tab. */
export function registerWhenIdle(): void {
	if (!('serviceWorker' in navigator) || registered) return;
	registered = true;
	const register = () => {
		// The build writes it at the site's root (under the base path); Kit's type of an asset does
		// not list it, since it is not in static/.
		void navigator.serviceWorker
			.register(asset('/service-worker.js' as Asset), { type: dev ? 'module' : 'classic' })
			.catch(() => {
				// Offline use is a convenience: a page that cannot register it works as before.
			});
	};
	if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: LATEST_MS });
	else setTimeout(register, 1000);
}

let registered = false;
