// Runs code as a page in `locale` renders it: Paraglide's getLocale() answers that locale for the
// call (in Node it is otherwise the base locale), then the runtime's own is back.
import { getLocale, overwriteGetLocale, type Locale } from '$lib/paraglide/runtime';

export function inLocale<T>(locale: Locale, run: () => T): T {
	const own = getLocale;
	overwriteGetLocale(() => locale);
	try {
		return run();
	} finally {
		overwriteGetLocale(own);
	}
}
