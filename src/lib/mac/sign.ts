import { toBase64, toHex, utf8Bytes } from './encoding';
import { MacInputError, requireText } from './errors';

/** The only mac_algorithm the service names (spec §2.3). */
export const MAC_ALGORITHM = 'hmac-sha-1';

export interface Digest {
	bytes: Uint8Array;
	hex: string;
	/** Standard Base64 with padding: the header's `mac`. */
	base64: string;
}

/**
 * HMAC over `text` keyed with `macKey`, both taken as UTF-8 (spec §5.4), through SubtleCrypto so that
 * the browser, Node and an edge runtime share one implementation. A key given as bytes is used
 * as-is, so that a diagnosis can reproduce signers that Base64-decode the mac_key first.
 */
export async function hmac(
	macKey: string | Uint8Array,
	text: string,
	hash: 'SHA-1' | 'SHA-256' = 'SHA-1'
): Promise<Digest> {
	if (!(macKey instanceof Uint8Array)) requireText('mac_key', macKey);
	requireText('base string', text);
	if (hash !== 'SHA-1' && hash !== 'SHA-256')
		throw new MacInputError('mac_algorithm', {
			code: 'unsupported_hash',
			params: { hash: typeof hash === 'string' ? hash : null }
		});
	// SubtleCrypto refuses a zero-length HMAC key with an opaque DataError; say what is wrong instead.
	if (macKey.length === 0) throw new MacInputError('mac_key', { code: 'empty_key', params: {} });
	const key = await crypto.subtle.importKey(
		'raw',
		// A copy made here: SubtleCrypto wants an ArrayBuffer of this realm, not a view of a shared one.
		typeof macKey === 'string' ? utf8Bytes(macKey) : new Uint8Array(macKey),
		{ name: 'HMAC', hash },
		false,
		['sign']
	);
	const bytes = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8Bytes(text)));
	return { bytes, hex: toHex(bytes), base64: toBase64(bytes) };
}

/** The header's `mac`: Base64(HMAC-SHA-1(mac_key, base string)). */
export async function sign(macKey: string, base: string): Promise<string> {
	return (await hmac(macKey, base)).base64;
}

export function isSupportedAlgorithm(name: string): boolean {
	return typeof name === 'string' && name.trim().toLowerCase() === MAC_ALGORITHM;
}
