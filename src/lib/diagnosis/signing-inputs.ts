import type { Text } from '$lib/i18n/text';
import { fromBase64, toBase64, toHex, utf8Bytes, type Digest } from '$lib/mac';

export type HashName = 'SHA-1' | 'SHA-256';
export type DigestEncoding =
	| 'base64'
	| 'base64-unpadded'
	| 'base64url'
	| 'base64url-unpadded'
	| 'hex'
	/** .NET's BitConverter.ToString: upper-case hex pairs joined by `-`. */
	| 'hex-dashed'
	/** Base64 of the lower-case hex text: PHP's base64_encode(hash_hmac(…)) without raw output. */
	| 'base64-of-hex'
	/** Python 3's str() of the Base64 bytes: `b'…'`. */
	| 'bytes-repr';

/** Every encoding, in the order a search tries them (encodingIndex). */
export const DIGEST_ENCODINGS: readonly DigestEncoding[] = [
	'base64',
	'base64-unpadded',
	'base64url',
	'base64url-unpadded',
	'hex',
	'hex-dashed',
	'base64-of-hex',
	'bytes-repr'
];

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
	/**
	 * 'terminated': every line ends with lineEnd (the spec); 'joined': lines joined, no final one;
	 * 'stripped': joined, then every line end at the end taken off (a shell's `$(…)`), so an empty ext
	 * leaves the port last.
	 */
	ending: 'terminated' | 'joined' | 'extra-lf' | 'stripped';
	key: string | Uint8Array;
	/** The key in words, never the key: "the mac_key as given", "the mac_key trimmed". */
	keyForm: Text;
	hash: HashName;
	encoding: DigestEncoding;
}

/**
 * The base string these inputs sign: the spec's seven lines (the core's baseString, which checks
 * them, lays out the correct inputs; diagnose starts from that), or a wrong signer's layout of them.
 */
export function renderBaseString(inputs: SigningInputs): string {
	const { lineEnd: end, ending } = inputs;
	const joined =
		inputs.ts +
		end +
		inputs.nonce +
		end +
		inputs.method +
		end +
		inputs.uri +
		end +
		inputs.host +
		end +
		inputs.port +
		end +
		inputs.ext;
	if (ending === 'joined') return joined;
	if (ending === 'stripped') return withoutLineEnds(joined);
	return ending === 'extra-lf' ? joined + end + end : joined + end;
}

/** `text` without the CRs and LFs that end it: counted from the end, a step each. */
function withoutLineEnds(text: string): string {
	let at = text.length;
	while (at > 0 && (text.charCodeAt(at - 1) === 0x0a || text.charCodeAt(at - 1) === 0x0d)) at -= 1;
	return text.slice(0, at);
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
			return withoutPadding(digest.base64);
		case 'hex':
			return digest.hex;
		case 'base64url':
			return digest.base64.replace(/\+/g, '-').replace(/\//g, '_');
		case 'base64url-unpadded':
			return withoutPadding(digest.base64.replace(/\+/g, '-').replace(/\//g, '_'));
		case 'hex-dashed':
			return (digest.hex.toUpperCase().match(/../g) ?? []).join('-');
		case 'base64-of-hex':
			return toBase64(utf8Bytes(digest.hex));
		case 'bytes-repr':
			return `b'${digest.base64}'`;
	}
}

/** How many "=" end `text`: counted from the end, a step each (a pattern would retry every run). */
function paddingLength(text: string): number {
	let at = text.length;
	while (at > 0 && text.charCodeAt(at - 1) === 0x3d) at -= 1;
	return text.length - at;
}

function withoutPadding(text: string): string {
	return text.slice(0, text.length - paddingLength(text));
}

const DIGEST_BYTES: Record<HashName, number> = { 'SHA-1': 20, 'SHA-256': 32 };

/** How many bytes `mac` decodes to in `encoding`, or null when it is not written in it. */
export function decodedLength(mac: string, encoding: DigestEncoding): number | null {
	const padded = (alphabet: RegExp) => {
		if (!alphabet.test(mac) || mac.length % 4 !== 0) return null;
		return (mac.length / 4) * 3 - paddingLength(mac);
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
		case 'hex-dashed':
			return /^[0-9a-f]{2}(?:-[0-9a-f]{2})*$/i.test(mac) ? (mac.length + 1) / 3 : null;
		case 'base64-of-hex': {
			// Two characters of hex per digest byte, then Base64 of those characters.
			const chars = padded(/^[A-Z0-9+/]*={0,2}$/i);
			return chars === null || chars % 2 !== 0 ? null : chars / 2;
		}
		case 'bytes-repr':
			return mac.startsWith("b'") && mac.endsWith("'") && mac.length > 3
				? decodedLength(mac.slice(2, -1), 'base64')
				: null;
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
	if (encoding === 'hex') return written === mac.toLowerCase();
	return encoding === 'hex-dashed' ? written === mac.toUpperCase() : written === mac;
}

/**
 * The digest bytes that `encoding` writes as `mac` (sameMac of a digest is true exactly when its
 * bytes are these), or null when no digest of `hash` is written so. A diagnosis decodes the mac
 * once per encoding and compares each variant's bytes with it, writing no text.
 */
export function macBytes(mac: string, hash: HashName, encoding: DigestEncoding): Uint8Array | null {
	if (!canProduce(mac, hash, encoding)) return null;
	let bytes: Uint8Array;
	try {
		bytes = digestBytes(mac, encoding);
	} catch {
		return null;
	}
	// A Base64 mac whose last character holds bits past the digest is written by no encoder.
	const digest = { bytes, hex: toHex(bytes), base64: toBase64(bytes) };
	return sameMac(mac, digest, encoding) ? bytes : null;
}

/** The bytes `mac` holds as `encoding` says (throws on what no encoder writes). */
function digestBytes(mac: string, encoding: DigestEncoding): Uint8Array {
	switch (encoding) {
		case 'hex':
			return fromHex(mac);
		case 'hex-dashed':
			return fromHex(mac.replace(/-/g, ''));
		case 'base64-of-hex':
			return fromHex(String.fromCharCode(...fromBase64(mac)));
		case 'bytes-repr':
			return fromBase64(mac.slice(2, -1));
		default:
			return fromBase64(mac);
	}
}

function fromHex(hex: string): Uint8Array {
	if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new RangeError('not hex');
	const bytes = new Uint8Array(hex.length / 2);
	for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
	return bytes;
}
