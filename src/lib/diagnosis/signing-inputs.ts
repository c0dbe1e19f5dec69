import type { Text } from '$lib/i18n/text';
import { baseString, toHex, type Digest } from '$lib/mac';

export type HashName = 'SHA-1' | 'SHA-256';
export type DigestEncoding =
	'base64' | 'base64-unpadded' | 'base64url' | 'base64url-unpadded' | 'hex';

/**
 * Everything that decides a mac. A signer's mistake is a change to one of these fields, which is
 * what lets two mistakes compose: apply one change, then the other.
 */
export interface SigningInputs {
	ts: string;
	nonce: string;
	method: string;
	uri: string;
	host: string;
	port: string;
	ext: string;
	lineEnd: '\n' | '\r\n';
	/** 'terminated': every line ends with lineEnd (the spec); 'joined': lines joined, no final one. */
	ending: 'terminated' | 'joined' | 'extra-lf';
	key: string | Uint8Array;
	/** The key in words, never the key: "the mac_key as given", "the mac_key trimmed". */
	keyForm: Text;
	hash: HashName;
	encoding: DigestEncoding;
}

/** The base string these inputs sign; the spec's layout goes through the core's baseString. */
export function renderBaseString(inputs: SigningInputs): string {
	const fields = {
		ts: inputs.ts,
		nonce: inputs.nonce,
		method: inputs.method,
		uri: inputs.uri,
		host: inputs.host,
		port: inputs.port,
		ext: inputs.ext
	};
	// The core's baseString checks each line and lays them out; the other layouts are the same
	// seven values (text, once it has not thrown), in the spec's order.
	const standard = baseString(fields);
	if (inputs.lineEnd === '\n' && inputs.ending === 'terminated') return standard;
	const values = [
		fields.ts,
		fields.nonce,
		fields.method,
		fields.uri,
		fields.host,
		String(fields.port),
		fields.ext ?? ''
	];
	if (inputs.ending === 'joined') return values.join(inputs.lineEnd);
	const text = values.map((value) => value + inputs.lineEnd).join('');
	return inputs.ending === 'extra-lf' ? `${text}${inputs.lineEnd}` : text;
}

/** Key bytes already written out: a diagnosis asks for the same few keys hundreds of times. */
const byteKeyIdentities = new WeakMap<Uint8Array, string>();

/** Identifies the key bytes for de-duplication; stays in memory, never in a result. */
export function keyIdentity(key: string | Uint8Array): string {
	if (typeof key === 'string') return `text:${key}`;
	let identity = byteKeyIdentities.get(key);
	if (identity === undefined) {
		identity = `bytes:${toHex(key)}`;
		byteKeyIdentities.set(key, identity);
	}
	return identity;
}

/** The digest written as `encoding`. */
export function encodeDigest(digest: Digest, encoding: DigestEncoding): string {
	switch (encoding) {
		case 'base64':
			return digest.base64;
		case 'base64-unpadded':
			return digest.base64.replace(/=+$/, '');
		case 'hex':
			return digest.hex;
		case 'base64url':
			return digest.base64.replace(/\+/g, '-').replace(/\//g, '_');
		case 'base64url-unpadded':
			return digest.base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
	}
}

const DIGEST_BYTES: Record<HashName, number> = { 'SHA-1': 20, 'SHA-256': 32 };

/** How many bytes `mac` decodes to in `encoding`, or null when it is not written in it. */
export function decodedLength(mac: string, encoding: DigestEncoding): number | null {
	const padded = (alphabet: RegExp) => {
		if (!alphabet.test(mac) || mac.length % 4 !== 0) return null;
		return (mac.length / 4) * 3 - (mac.match(/=+$/)?.[0].length ?? 0);
	};
	const unpadded = (alphabet: RegExp) =>
		alphabet.test(mac) && mac.length % 4 !== 1 ? Math.floor((mac.length * 3) / 4) : null;
	switch (encoding) {
		case 'hex':
			return /^[0-9a-f]*$/i.test(mac) && mac.length % 2 === 0 ? mac.length / 2 : null;
		case 'base64':
			return padded(/^[A-Z0-9+/]*={0,2}$/i);
		case 'base64url':
			return padded(/^[\w-]*={0,2}$/);
		case 'base64-unpadded':
			return unpadded(/^[A-Z0-9+/]*$/i);
		case 'base64url-unpadded':
			return unpadded(/^[\w-]*$/);
	}
}

/**
 * Whether a digest of `hash` written as `encoding` can look like `mac` at all. Only variants that
 * can are computed: a 28-character Base64 mac cannot come from SHA-256 or from hex.
 */
export function canProduce(mac: string, hash: HashName, encoding: DigestEncoding): boolean {
	return decodedLength(mac, encoding) === DIGEST_BYTES[hash];
}

/** Whether the digest written as `encoding` is the customer's mac (hex compared in any case). */
export function sameMac(mac: string, digest: Digest, encoding: DigestEncoding): boolean {
	const written = encodeDigest(digest, encoding);
	return encoding === 'hex' ? written === mac.toLowerCase() : written === mac;
}
