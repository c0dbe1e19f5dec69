// HMAC-SHA-1 for the bulk path. SubtleCrypto costs an await per signature (and importKey once per
// key); @noble/hashes computes each key's inner and outer state once and then only hashes the base
// string, synchronously. `npm run bench -- --triage` measures both, and noble is the faster by an
// order of magnitude per signature, so the engine uses it, for the bulk path and for the variants
// a diagnosis signs; SubtleCrypto stays selectable. The playground's single signature and /verify's
// diagnosis keep the core's SubtleCrypto hmac().
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { MacInputError, toBase64, utf8Bytes, type Digest } from '$lib/mac';
import type { DigestSigner } from '$lib/verify/diagnosis/diagnose';
import type { HmacEngine } from './types';

/** Signs base strings with one mac_key: the header's `mac`, Base64 of HMAC-SHA-1. */
export type Signer = (baseString: string) => string | Promise<string>;

const encoder = new TextEncoder();
// One buffer for the UTF-8 of every base string (at most 3 bytes a UTF-16 unit); a longer one gets its own.
const scratchText = new Uint8Array(4096);

/**
 * A noble HMAC keyed once; each base string costs a copy of the keyed state into the same scratch
 * objects and the hashing of its own bytes, with nothing allocated but the Base64 text.
 */
export function nobleSigner(macKey: string): (baseString: string) => string {
	const keyed = nobleHmac.create(sha1, utf8Bytes(macKey));
	let scratch = keyed.clone();
	const digest = new Uint8Array(keyed.outputLen);
	return (baseString) => {
		scratch = keyed._cloneInto(scratch);
		if (baseString.length * 3 <= scratchText.length) {
			const { written } = encoder.encodeInto(baseString, scratchText);
			scratch.update(scratchText.subarray(0, written));
		} else scratch.update(utf8Bytes(baseString));
		scratch.digestInto(digest);
		return toBase64(digest);
	};
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

/**
 * The core's hmac() computed by noble, synchronously, for a diagnosis's variants: each distinct
 * key (as given, trimmed, decoded…) and hash is keyed once and kept, so a variant costs the hashing
 * of its base string. Fails where hmac() fails: on an empty key.
 */
export function nobleDigests(): DigestSigner {
	const keyed = new Map<string, { state: Keyed; scratch: Keyed }>();
	return (key, text, hash) => {
		if (key.length === 0) throw new MacInputError('mac_key', { code: 'empty_key', params: {} });
		const id = `${hash}\u0000${typeof key === 'string' ? `t${key}` : `b${hexOf(key)}`}`;
		let entry = keyed.get(id);
		if (entry === undefined) {
			if (keyed.size >= MAX_KEYED) keyed.clear();
			const state: Keyed = nobleHmac.create(
				hash === 'SHA-256' ? sha256 : sha1,
				typeof key === 'string' ? utf8Bytes(key) : key
			);
			entry = { state, scratch: state._cloneInto() };
			keyed.set(id, entry);
		}
		const scratch = entry.state._cloneInto(entry.scratch);
		if (text.length * 3 <= scratchText.length) {
			const { written } = encoder.encodeInto(text, scratchText);
			scratch.update(scratchText.subarray(0, written));
		} else scratch.update(utf8Bytes(text));
		const bytes = new Uint8Array(scratch.outputLen);
		scratch.digestInto(bytes);
		return { bytes, hex: hexOf(bytes), base64: toBase64(bytes) } satisfies Digest;
	};
}

function hexOf(bytes: Uint8Array): string {
	let hex = '';
	for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i] as number];
	return hex;
}

/** SubtleCrypto with the key imported once; one await per base string. */
export async function subtleSigner(
	macKey: string
): Promise<(baseString: string) => Promise<string>> {
	const key = await crypto.subtle.importKey(
		'raw',
		utf8Bytes(macKey),
		{ name: 'HMAC', hash: 'SHA-1' },
		false,
		['sign']
	);
	return async (baseString) =>
		toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8Bytes(baseString))));
}

/** One signer per distinct mac_key, made on first use. */
export class Signers {
	#signers = new Map<string, Signer | Promise<Signer>>();
	constructor(readonly engine: HmacEngine = 'noble') {}

	/** The signer for a mac_key; a promise only the first time a SubtleCrypto key is imported. */
	for(macKey: string): Signer | Promise<Signer> {
		let signer = this.#signers.get(macKey);
		if (signer === undefined) {
			signer = this.engine === 'noble' ? nobleSigner(macKey) : subtleSigner(macKey);
			this.#signers.set(macKey, signer);
			if (signer instanceof Promise)
				signer.then(
					(ready) => this.#signers.set(macKey, ready),
					() => this.#signers.delete(macKey)
				);
		}
		return signer;
	}
}
