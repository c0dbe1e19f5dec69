import { requireBytes, requireText } from './errors';

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
