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

/** Standard Base64 with padding, as the scheme's `mac` is written. */
export function toBase64(bytes: Uint8Array): string {
	requireBytes('bytes', bytes);
	let binary = '';
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}

/** URL-safe Base64 (- and _ for + and /) without the = padding, as a link's fragment carries bytes. */
export function toBase64Url(bytes: Uint8Array): string {
	return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// One alphabet throughout, standard or URL-safe; the padding, when there is any, at the end.
const BASE64 = /^(?:[A-Z0-9+/]*|[\w-]*)={0,2}$/i;

/**
 * Whether `text` is Base64 in one alphabet, standard (+ /) or URL-safe (- _), with its = padding
 * or without it: the ways a key or a link may be written. The empty text is (no bytes).
 */
export function isBase64(text: string): boolean {
	requireText('text', text);
	const body = text.replace(/=+$/, '');
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
	const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
	const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
	return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
