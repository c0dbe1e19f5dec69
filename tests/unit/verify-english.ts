// The verify page's Texts rendered in English, as the English page shows them: tests assert the
// English a support engineer reads.
import type { Text } from '$lib/i18n/text';
import { macErrorText } from '$lib/i18n/mac-error-text';
import { urlRewritesText } from '$lib/i18n/url-rewrite-text';
import { PasteError } from '$lib/read/parsed-request';
import { shownString } from '$lib/i18n/shown-text';
import { renderText } from '$lib/i18n/render-text';

/** A paste_*, limits_* or diagnosis_* Text in English, as plain text (as ShownText renders it). */
export function english(text: Text | undefined): string {
	if (text === undefined) throw new Error('no Text to render');
	return shownString(renderText, text, { urlRewrites: urlRewritesText, macError: macErrorText });
}

/** Each Text of a list in English. */
export function englishAll(texts: readonly Text[]): string[] {
	return texts.map(english);
}

/** What the page says of the error `run` throws: a reader's in English, the core's message. */
export function thrownEnglish(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		if (error instanceof PasteError) return english(error.text);
		if (error instanceof Error) return error.message;
		throw error;
	}
	throw new Error('nothing was thrown');
}
