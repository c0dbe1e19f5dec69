// Base64 in either alphabet: reading it (a key, a link's bytes, a mac) and writing the URL-safe form
// a link carries. Apart from encoding.ts, which writes what signing needs, so that a page that only
// signs does not load them.
import { MacInputError, requireText } from './errors';
import { toBase64, withoutTrailing } from './encoding';

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
