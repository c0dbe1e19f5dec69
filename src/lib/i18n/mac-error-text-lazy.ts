// The core's errors in the page's language, for pages that show them only when an input is wrong:
// the English page shows the core's own text, and another language's table (mac-error-text.ts)
// loads with the first error shown. A text module, copied per language; the table it holds is that
// language's, the same on every page of it.
import type { MacInputError } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';
import { Loaded } from '$lib/ui/loaded.svelte';

// Made when the module is, outside any component (state made while a template or a $derived runs
// would not be tracked by it); the English build drops it.
const table = m.frame_locale() === 'en' ? null : new Loaded(() => import('./mac-error-text'));

/** The error's message, or '' for the moment its language's table is loading. */
export function macErrorTextLazy(error: MacInputError): string {
	if (m.frame_locale() === 'en' || table === null) return error.message;
	return table.get()?.macErrorText(error) ?? '';
}
