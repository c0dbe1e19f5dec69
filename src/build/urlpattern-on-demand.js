// Paraglide's runtime imports its URLPattern polyfill (6 kB gzip) whenever urlPatterns are set, and
// ours must be (they carry GitHub Pages' base path). Every current browser has URLPattern, so the
// site's client build gets an empty module in its place, and src/hooks.client.ts's `init` loads the
// polyfill where URLPattern is missing, before Kit routes or hydrates anything. The server build,
// `vite dev` and the tests keep Paraglide's import as it is (Node 20 has no URLPattern).
const POLYFILL = '@inlang/paraglide-js/urlpattern-polyfill';
const EMPTY = '\0urlpattern-on-demand';

/** @returns {import('vite').Plugin} */
export function urlPatternOnDemand() {
	return {
		name: 'urlpattern-on-demand',
		apply: 'build',
		enforce: 'pre',
		applyToEnvironment: (environment) => environment.name === 'client',
		resolveId: (id) => (id === POLYFILL ? EMPTY : undefined),
		load: (id) => (id === EMPTY ? 'export {};' : undefined)
	};
}
