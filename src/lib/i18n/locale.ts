// Which language a URL is in, and the same page's URL in another language. English lives at the
// site's root (under the base path), every other locale under /<locale>/: /verify and /zh-CN/verify.
// Paraglide's own localizeHref would bring its URLPattern polyfill into every page (the locale is
// decided at build time here, see locale-variants.ts), so these few lines do it instead.
import { resolve } from '$app/paths';
import { page } from '$app/state';
import type { ResolvedPathname } from '$app/types';
import { baseLocale as base, locales as all } from '../../../project.inlang/settings.json';

export type Locale = 'en' | 'zh-CN';
export const baseLocale = base as Locale;
export const locales = all as readonly Locale[];

/** The site's root, with the base path: "/" or "/mac-token-playground/". */
function root(): string {
	return resolve('/');
}

/** The locale of a pathname (with the base path), e.g. "zh-CN" for /base/zh-CN/verify. */
export function localeOfPath(pathname: string): Locale {
	const start = root();
	if (!pathname.startsWith(start)) return baseLocale;
	const first = pathname.slice(start.length).split('/')[0] ?? '';
	return locales.find((locale) => locale !== baseLocale && locale === first) ?? baseLocale;
}

/** The pathname without its locale segment: /base/zh-CN/verify → /base/verify. */
export function delocalizePath(pathname: string): string {
	const locale = localeOfPath(pathname);
	if (locale === baseLocale) return pathname;
	const start = root();
	return start + pathname.slice(start.length + locale.length + 1);
}

/**
 * The same page in `locale`: a pathname from resolve() (with the base path), optionally followed
 * by ?query and #hash, which are kept.
 */
export function localizeHref(href: string, locale: Locale): ResolvedPathname {
	const split = href.search(/[?#]/);
	const pathname = split === -1 ? href : href.slice(0, split);
	const rest = split === -1 ? '' : href.slice(split);
	const plain = delocalizePath(pathname);
	if (locale === baseLocale) return (plain + rest) as ResolvedPathname;
	const start = root();
	const tail = plain.slice(start.length);
	return `${start}${locale}/${tail}${rest}` as ResolvedPathname;
}

/** The language of the page on screen. */
export function pageLocale(): Locale {
	return localeOfPath(page.url.pathname);
}

/** A page of the site in the language of the page on screen: for links and goto(). */
export function localHref(
	path: '/' | '/verify' | '/errors' | '/triage' | '/sandbox'
): ResolvedPathname {
	return localizeHref(resolve(path), pageLocale());
}
