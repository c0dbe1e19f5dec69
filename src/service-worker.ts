/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
// After the first visit the whole site works offline: every page and asset of this build is cached,
// and the sandbox needs nothing else. Requests to relays and to the service are never touched.
import { build, files, prerendered, version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `mac-playground-${version}`;
// Not the README's screenshot, and no dotfiles (.nojekyll): servers refuse those, and one failed
// download fails the whole install.
const ASSETS = [
	...build,
	...files.filter((file) => !file.includes('/docs/') && !/\/\.[^/]*$/.test(file)),
	...prerendered
];

sw.addEventListener('install', (event) => {
	event.waitUntil(
		caches
			.open(CACHE)
			.then((cache) => cache.addAll(ASSETS))
			.then(() => sw.skipWaiting())
	);
});

sw.addEventListener('activate', (event) => {
	event.waitUntil(
		caches
			.keys()
			.then((keys) =>
				Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)))
			)
			.then(() => sw.clients.claim())
	);
});

sw.addEventListener('fetch', (event) => {
	const url = new URL(event.request.url);
	// Only this site's own GETs: a signed request to a relay or the service must reach the network.
	if (event.request.method !== 'GET' || url.origin !== sw.location.origin) return;
	event.respondWith(
		(async () => {
			const cache = await caches.open(CACHE);
			// Prerendered pages are cached under their paths, assets under their URLs.
			const cached = (await cache.match(url.pathname)) ?? (await cache.match(event.request));
			if (cached) return cached;
			return fetch(event.request);
		})()
	);
});
