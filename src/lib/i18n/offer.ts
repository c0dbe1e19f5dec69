// The offer of the Chinese page to a visitor whose browser prefers Chinese (never a redirect).

/** The one thing this site remembers about a visitor's language: the one they chose. */
export const CHOICE_KEY = 'mac-playground:language';

/** Whether to offer the Chinese page: the browser's first language is Chinese, and the visitor
 * has not chosen yet. */
export function shouldOffer(languages: readonly string[], storage: Pick<Storage, 'getItem'>) {
	// The browser's language first: most visitors are not asked, and their page does not open its
	// storage (a wait on the browser's other process) as it hydrates.
	return (
		(languages[0] ?? '').toLowerCase().startsWith('zh') && storage.getItem(CHOICE_KEY) === null
	);
}
