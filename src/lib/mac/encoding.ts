import { MacInputError, requireBytes, requireText } from './errors';

const utf8 = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
	requireText('text', text);
	return utf8.encode(text);
}

export function toHex(bytes: Uint8Array): string {
	requireBytes('bytes', bytes);
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Bytes turned into characters this many at a time: few pieces, each within the call stack's reach. */
const CHUNK = 8192;

/** Standard Base64 with padding, as the scheme's `mac` is written. */
export function toBase64(bytes: Uint8Array): string {
	requireBytes('bytes', bytes);
	let binary = '';
	for (let start = 0; start < bytes.length; start += CHUNK)
		binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
	return btoa(binary);
}

/**
 * How many characters at the end of `text` are among `characters`: the run a regular expression
 * such as /=+$/ finds, counted from the end. A regular expression tries such a pattern at every
 * position of a long run that something else follows, which takes quadratic time on hostile text;
 * this loop reads each character of the run once.
 */
function trailingRun(text: string, characters: string): number {
	let end = text.length;
	while (end > 0 && characters.includes(text.charAt(end - 1))) end--;
	return text.length - end;
}

/** The text without the run of `characters` at its end (see trailingRun). */
export function withoutTrailing(text: string, characters: string): string {
	return text.slice(0, text.length - trailingRun(text, characters));
}

/** URL-safe Base64 (- and _ for + and /) without the = padding, as a link's fragment carries bytes. */
export function toBase64Url(bytes: Uint8Array): string {
	return withoutTrailing(toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_'), '=');
}

// One alphabet throughout, standard or URL-safe; the padding, when there is any, at the end.
const BASE64 = /^(?:[A-Z0-9+/]*|[\w-]*)={0,2}$/i;

/**
 * Whether `text` is Base64 in one alphabet, standard (+ /) or URL-safe (- _), with its = padding
 * or without it: the ways a key or a link may be written. The empty text is (no bytes).
 */
export function isBase64(text: string): boolean {
	requireText('text', text);
	const body = withoutTrailing(text, '=');
	return (
		BASE64.test(text) &&
		body.length % 4 !== 1 &&
		(text.length === body.length || text.length % 4 === 0)
	);
}

/** The bytes of Base64 text in either alphabet, padded or not; a MacInputError unless isBase64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
	if (!isBase64(text)) {
		throw new MacInputError('text', { code: 'not_base64', params: { field: 'text' } });
	}
	const standard = withoutTrailing(text.replace(/-/g, '+').replace(/_/g, '/'), '=');
	const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
	// An index loop, not Uint8Array.from(binary, …): that goes through an array of every character.
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return bytes;
}
