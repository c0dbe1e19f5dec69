// Paraglide's compiler options, in one place for the Vite plugin (vite.config.ts) and for
// `npm run i18n` (this file run by Node: `check` and `prepare` need the compiled messages' types
// before any Vite build has run).
import { pathToFileURL } from 'node:url';
import { compile } from '@inlang/paraglide-js';
import svelteConfig from '../../svelte.config.js';

const base = svelteConfig.kit?.paths?.base ?? '';
const ORIGIN = ':protocol://:domain(.*)::port?';

/** @type {import('@inlang/paraglide-js').CompilerOptions} */
export const paraglideOptions = {
	project: './project.inlang',
	outdir: './src/lib/paraglide',
	// The URL says the language, and nothing else does: a static site has no request headers or
	// cookies to read, and a link to a page in one language always opens in it.
	strategy: ['url', 'baseLocale'],
	// English at the site's root, Chinese under /zh-CN/, both under the base path on GitHub Pages
	// (Paraglide's default patterns read the locale from the first segment, which would be the base).
	urlPatterns: [
		{
			pattern: `${ORIGIN}${base}/:path(.*)?`,
			localized: [
				['zh-CN', `${ORIGIN}${base}/zh-CN/:path(.*)?`],
				['en', `${ORIGIN}${base}/:path(.*)?`]
			]
		}
	],
	emitReadme: false
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	await compile(paraglideOptions);
}
