// The verify page's Texts (paste_* and diagnosis_* messages) hold other Texts as parameters: a
// duration inside a clock sentence, a hint inside a parse error, two mistakes' titles inside one.
// renderText reads one message; these functions render the parameters first, in the
// same language, and tell the message's `code` apart from the values put into it, so that a value
// holding a backtick (PowerShell's escape) is shown as it is. A Text may also hold the core's data
// (a URL's rewrites), which the page words in its language with its own text modules.
import type { MessageKey, Text } from './text';
import type { MacInputError, UrlRewrite } from '$lib/mac';

/** A renderer of Texts: renderText (render-text.ts), or a test's own. */
export type Render = (text: Text) => string;

/** A Text rendered with its first letter in lower case, for the second part of a sentence. */
export interface LowerFirst {
	lowerFirst: Text;
}

/** What a browser changes in a URL, as the core gives it: a Text's parameter the page words. */
export interface UrlRewrites {
	urlRewrites: UrlRewrite[];
}

/** One of the core's errors: a Text's parameter the page words (its code and values). */
export interface CoreError {
	macError: MacInputError;
}

/** How the page words the core's data in its language (src/lib/i18n: url-rewrite-text, mac-error-text). */
export interface CoreWords {
	urlRewrites: (rewrites: readonly UrlRewrite[]) => string;
	macError: (error: MacInputError) => string;
}

export interface ShownPart {
	text: string;
	/** In code style: an identifier or a value the message marks with backticks. */
	code: boolean;
}

export function isText(value: unknown): value is Text {
	return typeof value === 'object' && value !== null && 'key' in value && 'params' in value;
}

function isLowerFirst(value: unknown): value is LowerFirst {
	return typeof value === 'object' && value !== null && 'lowerFirst' in value;
}

function isUrlRewrites(value: unknown): value is UrlRewrites {
	return typeof value === 'object' && value !== null && 'urlRewrites' in value;
}

function isCoreError(value: unknown): value is CoreError {
	return typeof value === 'object' && value !== null && 'macError' in value;
}

// Private-use characters no message or paste shown here contains: a parameter's place.
const OPEN = '\u{E001}';
const CLOSE = '\u{E002}';
const PLACE = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'gu');

/**
 * A Text as parts, its parameters rendered first (their own code style kept). `words` words the
 * core's data a Text holds (URL rewrites, errors); a Text holding some and rendered without them
 * throws.
 */
export function shownParts(render: Render, value: Text, words?: CoreWords): ShownPart[] {
	const values: ShownPart[][] = [];
	const params: Record<string, string> = {};
	for (const [name, param] of Object.entries((value.params ?? {}) as Record<string, unknown>)) {
		let parts: ShownPart[];
		if (isText(param)) parts = shownParts(render, param, words);
		else if (isUrlRewrites(param)) {
			if (!words) throw new Error(`${value.key}: no wording given for the core's URL rewrites`);
			parts = [{ text: words.urlRewrites(param.urlRewrites), code: false }];
		} else if (isCoreError(param)) {
			if (!words) throw new Error(`${value.key}: no wording given for the core's errors`);
			parts = [{ text: words.macError(param.macError), code: false }];
		} else if (isLowerFirst(param)) {
			parts = shownParts(render, param.lowerFirst, words);
			const [first] = parts;
			if (first)
				parts[0] = { ...first, text: first.text.charAt(0).toLowerCase() + first.text.slice(1) };
		} else parts = [{ text: String(param), code: false }];
		params[name] = `${OPEN}${values.length}${CLOSE}`;
		values.push(parts);
	}
	const template = render({ key: value.key, params } as Text);
	const result: ShownPart[] = [];
	template.split('`').forEach((piece, index) => {
		const code = index % 2 === 1;
		let at = 0;
		for (const match of piece.matchAll(PLACE)) {
			if (match.index > at) result.push({ text: piece.slice(at, match.index), code });
			for (const part of values[Number(match[1])] ?? [])
				result.push({ text: part.text, code: code || part.code });
			at = match.index + match[0].length;
		}
		if (at < piece.length) result.push({ text: piece.slice(at), code });
	});
	return result.filter((part) => part.text !== '');
}

/** A Text as plain text: what a person reads, without the code marks. */
export function shownString(render: Render, value: Text, words?: CoreWords): string {
	return shownParts(render, value, words)
		.map((part) => part.text)
		.join('');
}

/** Sentences one after the other: `key` is the area's message joining two ("{first} {then}"). */
export function sentences(key: MessageKey, texts: readonly Text[]): Text | null {
	return texts.reduceRight<Text | null>(
		(then, first) => (then === null ? first : ({ key, params: { first, then } } as Text)),
		null
	);
}
