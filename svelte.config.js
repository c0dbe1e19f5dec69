import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// GitHub Pages serves a project site under /<repo>; the workflow passes BASE_PATH=/<repo>.
// Locally and in tests it is empty unless set, and the e2e suite sets it to prove links survive a base path.
const base = /** @type {'' | `/${string}`} */ (process.env.BASE_PATH ?? '');
if (base !== '' && (!base.startsWith('/') || base.endsWith('/'))) {
	throw new Error(
		`BASE_PATH must start with / and not end with one, as in /my-repo; got "${base}"`
	);
}

/** @type {import('@sveltejs/kit').Config} */
const config = {
	// TypeScript in <script lang="ts"> needs the preprocessor.
	preprocess: vitePreprocess(),
	compilerOptions: {
		// Runes everywhere, so no component slips back into legacy reactivity.
		runes: true
	},
	kit: {
		// Every page's styles in a <style> of its own: the first paint waits for the document alone,
		// not for a stylesheet request too. Hash mode adds each page's <style> hash to style-src.
		inlineStyleThreshold: Infinity,
		adapter: adapter({
			// GitHub Pages answers unknown paths with 404.html: the SPA fallback renders our error page there.
			fallback: '404.html',
			// Fail the build if any route could not be prerendered: the site is static files only.
			strict: true
		}),
		paths: {
			base,
			// Absolute asset URLs under the base path, so the 404 fallback works at any depth.
			relative: false
		},
		prerender: {
			// Every page in both languages: one route tree serves both (src/hooks.ts reroutes /zh-CN/…),
			// and the crawler would find the Chinese pages only through the language switch.
			entries: [
				'*',
				'/zh-CN/',
				'/zh-CN/verify',
				'/zh-CN/triage',
				'/zh-CN/errors',
				'/zh-CN/sandbox'
			],
			// A link that 404s under the base path is a bug, not a warning.
			handleHttpError: 'fail',
			handleMissingId: 'fail'
		},
		csp: {
			// Hash mode: a static host cannot send a fresh nonce, so Kit hashes its own inline
			// bootstrap script into a <meta http-equiv> policy in each prerendered page.
			mode: 'hash',
			directives: {
				// Nothing loads from anywhere but this origin unless a directive below says so.
				'default-src': ['self'],
				'script-src': ['self'],
				// Each page's <style> (inlineStyleThreshold) is allowed by the hash Kit adds for it. The one
				// inline style attribute is the style="" of Kit's route announcer: 'unsafe-hashes' with its
				// hash allows exactly that attribute and no other (an e2e test fails on any CSP violation,
				// so a Kit upgrade that changes it is caught).
				'style-src': [
					'self',
					'unsafe-hashes',
					'sha256-S8qMpvofolR8Mpjy4kQvEm7m1q8clzU4dfDH0AmvZjo='
				],
				// Our own images, plus an avatar from a response, which the service serves from its CDN
				// over https (the page shows only http(s) avatar URLs; an image cannot run script), and
				// data: for the site's icon, written into each page (hooks.server.ts) so that it is no
				// request of its own.
				'img-src': ['self', 'https:', 'data:'],
				// Signing happens in this tab; the only requests are the ones a user sends. The Direct target
				// calls the service over https; the Proxy target calls a relay the user names, which may be
				// deployed on any https host, or run locally with `npm run proxy` over plain http. So: any
				// https origin, and http to loopback only, where the header cannot be read on the wire.
				'connect-src': ['self', 'https:', 'http://127.0.0.1:*', 'http://localhost:*'],
				'font-src': ['self'],
				// No plugins, ever.
				'object-src': ['none'],
				// A <base> tag injected by a paste could redirect every relative URL.
				'base-uri': ['self'],
				// Forms are not submitted anywhere; this page only computes.
				'form-action': ['none']
			}
		}
	}
};

export default config;
