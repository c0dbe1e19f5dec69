// The site's pages in each language, through Paraglide's runtime: English at the site's root (under
// the base path), Chinese under /zh-CN/ (the url strategy and patterns of src/build/paraglide.js).
import { resolve } from '$app/paths';
import type { ResolvedPathname } from '$app/types';
import {
	baseLocale,
	extractLocaleFromUrl,
	localizeHref,
	locales,
	type Locale
} from '$lib/paraglide/runtime';

export { baseLocale, locales, type Locale };

/** The language a page's URL is in. */
export function pageLocale(url: URL): Locale {
	return extractLocaleFromUrl(url) ?? baseLocale;
}

/** The same page in `locale`: a pathname (with the base path), with any ?query and #hash kept. */
export function hrefIn(href: string, locale: Locale): ResolvedPathname {
	return localizeHref(href, { locale }) as ResolvedPathname;
}

/** A page of the site in the language being rendered: for links and goto(). */
export function localHref(
	path: '/' | '/verify' | '/errors' | '/triage' | '/sandbox'
): ResolvedPathname {
	return localizeHref(resolve(path)) as ResolvedPathname;
}
