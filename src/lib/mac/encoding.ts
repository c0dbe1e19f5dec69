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

/** Standard Base64 with padding, as the scheme's `mac` is written. */
export function toBase64(bytes: Uint8Array): string {
	requireBytes('bytes', bytes);
	let binary = '';
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}
