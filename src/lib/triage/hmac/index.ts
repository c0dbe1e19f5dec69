// HMAC-SHA-1 for the triage: sha1.ts, each key's inner and outer state computed once, its buffers
// reused and the digest compared with the header's mac as words, with no Base64 written. It signs
// the bulk path and the SHA-1 variants a diagnosis tries; @noble/hashes signs the SHA-256 ones.
// `npm run bench` times the triage with sha1.ts and with @noble/hashes in its place
// (tests/bench/mechanisms.js). The playground's single signature and /verify's diagnosis keep the
// core's SubtleCrypto hmac().
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { MacInputError, utf8Bytes, type Digest } from '$lib/mac';
import type { DigestSigner } from '$lib/diagnosis/diagnose';
import { utf8Into } from '$lib/mac/utf8-into';
import { base64Of, HmacSha1 } from './sha1';

type HashName = Parameters<DigestSigner>[2];

/**
 * Whether a base string signed with one mac_key gives `mac` (the header's, trimmed): true exactly
 * when `mac` is the Base64 of the HMAC-SHA-1.
 */
export type MacCheck = (baseString: string, mac: string) => boolean;

// One buffer for the UTF-8 of every base string (at most 3 bytes a UTF-16 unit); a longer one gets its own.
const scratchText = new Uint8Array(4096);

/** The text's UTF-8: in the shared buffer, written as utf8Into writes it, or its own when longer. */
function utf8Of(text: string): Uint8Array {
	if (text.length * 3 > scratchText.length) return utf8Bytes(text);
	return scratchText.subarray(0, utf8Into(text, scratchText));
}

/** sha1.ts's HMAC keyed once: a base string's digest compared with the mac as words. */
export function ownCheck(macKey: string): (baseString: string, mac: string) => boolean {
	const keyed = new HmacSha1(utf8Bytes(macKey));
	return (baseString, mac) => keyed.sign(baseString).matches(mac);
}

/** What of a keyed noble HMAC a diagnosis signer uses, whichever the hash. */
interface Keyed {
	readonly outputLen: number;
	_cloneInto(to?: Keyed): Keyed;
	update(bytes: Uint8Array): unknown;
	digestInto(out: Uint8Array): void;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Keyed states a diagnosis signer keeps; past this many distinct keys it starts over. */
const MAX_KEYED = 256;

/** A digest whose hex and Base64 are written when first asked for: a variant is compared in one. */
class LazyDigest implements Digest {
	#hex: string | undefined;
	#base64: string | undefined;
	constructor(readonly bytes: Uint8Array<ArrayBuffer>) {}
	get hex(): string {
		return (this.#hex ??= hexOf(this.bytes));
	}
	get base64(): string {
		return (this.#base64 ??= base64Of(this.bytes));
	}
}

/**
 * The core's hmac() computed synchronously, for a diagnosis's variants: SHA-1 by sha1.ts, SHA-256
 * by noble. Each distinct key (as given, trimmed, decoded…) and hash is keyed once and kept, so a
 * variant costs the hashing of its base string. Fails where hmac() fails: on an empty key.
 */
export function syncDigests(): DigestSigner {
	const keyed = new Map<string, KeyedSigner>();
	// The same signers by the key as given (a text key by its text, key bytes by identity) and hash:
	// a diagnosis alternates between a few keys hundreds of times, and this spares each switch
	// writing the key's id (and hashing it) to look it up.
	const byKey = { 'SHA-1': new Map(), 'SHA-256': new Map() } satisfies Record<
		HashName,
		Map<string | Uint8Array, KeyedSigner>
	>;
	// The last key and hash asked for, and their signer: a diagnosis signs runs of variants with one
	// key.
	let lastKey: string | Uint8Array | undefined;
	let lastHash: HashName | undefined;
	let last: KeyedSigner | undefined;
	const signerFor = (key: string | Uint8Array, hash: HashName): KeyedSigner => {
		if (last !== undefined && key === lastKey && hash === lastHash) return last;
		let signer = byKey[hash].get(key);
		if (signer === undefined) {
			if (key.length === 0) throw new MacInputError('mac_key', { code: 'empty_key', params: {} });
			const id = `${hash}\u0000${typeof key === 'string' ? `t${key}` : byteKeyId(key)}`;
			signer = keyed.get(id);
			if (signer === undefined) {
				if (keyed.size >= MAX_KEYED) {
					keyed.clear();
					byKey['SHA-1'].clear();
					byKey['SHA-256'].clear();
				}
				const bytes = typeof key === 'string' ? utf8Bytes(key) : key;
				signer = hash === 'SHA-1' ? ownKeyed(bytes) : nobleKeyed(sha256, bytes);
				keyed.set(id, signer);
			}
			if (byKey[hash].size >= MAX_KEYED) byKey[hash].clear();
			byKey[hash].set(key, signer);
		}
		lastKey = key;
		lastHash = hash;
		last = signer;
		return signer;
	};
	const sign: DigestSigner = (key, text, hash) => new LazyDigest(signerFor(key, hash).text(text));
	sign.utf8 = (key, bytes, length, hash) =>
		new LazyDigest(signerFor(key, hash).utf8(bytes, length));
	return sign;
}

/** One key's HMAC: of a text, or of UTF-8 bytes with room after them to pad into. */
interface KeyedSigner {
	text(text: string): Uint8Array<ArrayBuffer>;
	utf8(bytes: Uint8Array, length: number): Uint8Array<ArrayBuffer>;
}

/** Key bytes written out once each: a diagnosis passes the same decoded key for many variants. */
const byteKeyIds = new WeakMap<Uint8Array, string>();
function byteKeyId(key: Uint8Array): string {
	let id = byteKeyIds.get(key);
	if (id === undefined) {
		id = `b${hexOf(key)}`;
		byteKeyIds.set(key, id);
	}
	return id;
}

function ownKeyed(key: Uint8Array): KeyedSigner {
	const keyed = new HmacSha1(key);
	return {
		text: (text) => keyed.sign(text).bytes(),
		utf8: (bytes, length) => keyed.signUtf8(bytes, length).bytes()
	};
}

function nobleKeyed(hash: typeof sha256, key: Uint8Array): KeyedSigner {
	const state: Keyed = nobleHmac.create(hash, key);
	const scratch = state._cloneInto();
	const utf8 = (bytes: Uint8Array, length: number) => {
		state._cloneInto(scratch);
		scratch.update(bytes.subarray(0, length));
		const digest = new Uint8Array(scratch.outputLen);
		scratch.digestInto(digest);
		return digest;
	};
	return {
		text(text) {
			const bytes = utf8Of(text);
			return utf8(bytes, bytes.length);
		},
		utf8
	};
}

function hexOf(bytes: Uint8Array): string {
	let hex = '';
	for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i] as number];
	return hex;
}

/** One check per distinct mac_key, made on first use. */
export class MacChecks {
	#checks = new Map<string, MacCheck>();

	for(macKey: string): MacCheck {
		let check = this.#checks.get(macKey);
		if (check === undefined) {
			check = ownCheck(macKey);
			this.#checks.set(macKey, check);
		}
		return check;
	}
}
