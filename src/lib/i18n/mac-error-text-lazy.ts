// The core's errors in the page's language, for pages that show them only when an input is wrong:
// the table (mac-error-text.ts; in English the core's own, src/lib/mac/error-messages.ts) loads with
// the first error shown, not with the page. A text module, copied per language: the table it loads
// is that language's, the same on every page of it.
import { macErrorsInEnglish, type MacInputError } from '$lib/mac/errors';
import { m } from '$lib/paraglide/messages.js';
import { Loaded } from '$lib/ui/loaded.svelte';

// Made when the module is, outside any component (state made while a template or a $derived runs
// would not be tracked by it). Only the function is taken, so that the bundler keeps nothing else
// of that module for this import (in English, not the table of messages/core, which is the same).
const render = new Loaded(() =>
	import('./mac-error-text').then(({ macErrorText }) => macErrorText)
);

/** The error's message, or '' for the moment its language's table is loading. */
export function macErrorTextLazy(error: MacInputError): string {
	// English is the core's own text: once its table is in (in Node, always), there is no wait.
	if (m.frame_locale() === 'en' && macErrorsInEnglish()) return error.message;
	return render.get()?.(error) ?? '';
}
