// What a browser changes in a URL before sending it, in the page's language. The core gives the
// rewrites as data (urlRewrites in src/lib/mac); this module words them in the page's language, for the playground's URL note and the verify
// page's paste notes alike.
import type { UrlRewrite } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';

/** One of the core's URL rewrites, in this language. */
export function urlRewriteText(rewrite: UrlRewrite): string {
	switch (rewrite.kind) {
		case 'host-lower-case':
			return m.playground_rewrite_host();
		case 'empty-path':
			return m.playground_rewrite_empty_path();
		case 'breaks-dropped':
			return m.playground_rewrite_breaks();
		case 'dot-segments':
			return m.playground_rewrite_dot_segments();
		case 'encoded':
			return m.playground_rewrite_encoded({
				char: rewrite.char === ' ' ? m.playground_rewrite_space() : rewrite.shown,
				escaped: rewrite.escaped
			});
	}
}

/** The rewrites one after another, as a clause of a sentence in this language. */
export function urlRewritesText(rewrites: readonly UrlRewrite[]): string {
	return rewrites.map(urlRewriteText).join(m.playground_clause_separator());
}
