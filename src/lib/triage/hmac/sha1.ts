// HMAC-SHA-1 (RFC 2104 over FIPS 180-4's SHA-1) for the bulk path, made for one job: many short
// messages under a few keys. Each key's inner and outer states (the hash of its padded block) are
// computed once; a message then costs the compression of its own blocks and one outer block, with
// its bytes, its schedule and its digest in buffers that are reused, and no object made. The
// digest is compared with a `mac` as its five words: no Base64 is written for a request that
// matches. tests/unit/triage-sha1.test.ts holds it to node:crypto and @noble/hashes.

import { ENCODE_INTO_IS_CHEAP, utf8Into } from '$lib/mac/utf8-into';
import { compress } from './sha1-compress';

const BLOCK = 64;
const IV = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0] as const;

/**
 * Pads the `length` bytes at the start of `buffer` (which has room for them and 72 more) as SHA-1
 * pads a message that `prefix` bytes went before, and returns the padded length.
 */
function pad(buffer: Uint8Array, length: number, prefix: number): number {
	const padded = (length + 8 + BLOCK) & ~(BLOCK - 1);
	buffer[length] = 0x80;
	buffer.fill(0, length + 1, padded - 4);
	const bits = (length + prefix) * 8;
	// Messages here stay far below 2^32 bits: the length's high word is zero (filled above).
	buffer[padded - 4] = bits >>> 24;
	buffer[padded - 3] = (bits >>> 16) & 0xff;
	buffer[padded - 2] = (bits >>> 8) & 0xff;
	buffer[padded - 1] = bits & 0xff;
	return padded;
}

/** SHA-1 of `bytes`, as five words. */
function sha1Words(bytes: Uint8Array): Int32Array {
	const state = Int32Array.from(IV);
	const buffer = new Uint8Array(bytes.length + BLOCK + 8);
	buffer.set(bytes);
	const padded = pad(buffer, bytes.length, 0);
	for (let at = 0; at < padded; at += BLOCK) compress(state, buffer, at);
	return state;
}

function writeWords(words: Int32Array, into: Uint8Array, offset = 0): void {
	for (let i = 0; i < 5; i++) {
		const word = words[i] as number;
		into[offset + i * 4] = word >>> 24;
		into[offset + i * 4 + 1] = (word >>> 16) & 0xff;
		into[offset + i * 4 + 2] = (word >>> 8) & 0xff;
		into[offset + i * 4 + 3] = word & 0xff;
	}
}

/** The UTF-8 of each message and its padding; grown (never shrunk) for a longer one. */
let message = new Uint8Array(4096);
/** The outer hash's one block: the inner digest and its padding. */
const outerBlock = new Uint8Array(BLOCK);
pad(outerBlock, 20, BLOCK);

/** HMAC-SHA-1 under one key: sign a text, read the digest as words or bytes. */
export class HmacSha1 {
	readonly #inner = new Int32Array(5);
	readonly #outer = new Int32Array(5);
	/** The last digest computed. */
	readonly digest = new Int32Array(5);
	readonly #encodeInto: boolean;

	/**
	 * `encodeInto` chooses how a text's UTF-8 is written: by TextEncoder, or ASCII copied here (the
	 * runtime's faster way unless a test asks for the other).
	 */
	constructor(
		key: Uint8Array,
		{ encodeInto = ENCODE_INTO_IS_CHEAP }: { encodeInto?: boolean } = {}
	) {
		this.#encodeInto = encodeInto;
		const block = new Uint8Array(BLOCK);
		if (key.length > BLOCK) writeWords(sha1Words(key), block);
		else block.set(key);
		for (let i = 0; i < BLOCK; i++) block[i] = (block[i] as number) ^ 0x36;
		this.#inner.set(IV);
		compress(this.#inner, block, 0);
		for (let i = 0; i < BLOCK; i++) block[i] = (block[i] as number) ^ 0x36 ^ 0x5c;
		this.#outer.set(IV);
		compress(this.#outer, block, 0);
	}

	/** Signs `text` as UTF-8; the digest is then in `digest` (and `bytes()`). */
	sign(text: string): this {
		if (text.length * 3 + BLOCK + 8 > message.length)
			message = new Uint8Array(text.length * 3 + BLOCK + 8);
		return this.signUtf8(message, utf8Into(text, message, this.#encodeInto));
	}

	/**
	 * Signs the `length` bytes at the start of `bytes`, which has room for 72 more (they are
	 * overwritten with the padding); the digest is then in `digest`.
	 */
	signUtf8(bytes: Uint8Array, length: number): this {
		const padded = pad(bytes, length, BLOCK);
		const state = this.digest;
		state.set(this.#inner);
		for (let at = 0; at < padded; at += BLOCK) compress(state, bytes, at);
		writeWords(state, outerBlock);
		state.set(this.#outer);
		compress(state, outerBlock, 0);
		return this;
	}

	/** The last digest as 20 bytes. */
	bytes(): Uint8Array<ArrayBuffer> {
		const bytes = new Uint8Array(20);
		writeWords(this.digest, bytes);
		return bytes;
	}

	/**
	 * Whether `mac` is the last digest in standard Base64 with its padding, exactly as toBase64
	 * writes it: 28 characters, the last one `=`, and the two bits past the digest's zero.
	 */
	matches(mac: string): boolean {
		if (mac.length !== 28 || mac.charCodeAt(27) !== 0x3d) return false;
		const digest = this.digest;
		const byte = (index: number) =>
			((digest[index >> 2] as number) >>> ((3 - (index & 3)) * 8)) & 0xff;
		// Four characters are three bytes; the last three characters, two bytes and two zero bits.
		for (let at = 0, index = 0; at < 27; at += 4, index += 3) {
			const last = at === 24;
			const a = base64Value(mac.charCodeAt(at));
			const b = base64Value(mac.charCodeAt(at + 1));
			const c = base64Value(mac.charCodeAt(at + 2));
			const d = last ? 0 : base64Value(mac.charCodeAt(at + 3));
			if ((a | b | c | d) > 63) return false;
			const group = (a << 18) | (b << 12) | (c << 6) | d;
			if (group >>> 16 !== byte(index) || ((group >>> 8) & 0xff) !== byte(index + 1)) return false;
			if (last) return (group & 0xff) === 0;
			if ((group & 0xff) !== byte(index + 2)) return false;
		}
		return false;
	}
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each character's value in standard Base64; 255 for any other character. */
const BASE64_VALUE = new Uint8Array(128).fill(255);
for (let index = 0; index < 64; index++) BASE64_VALUE[BASE64_ALPHABET.charCodeAt(index)] = index;
const BASE64_CODES = Array.from(BASE64_ALPHABET, (char) => char.charCodeAt(0));

/**
 * Standard Base64 with padding, the same text as the core's toBase64, written here without btoa:
 * a diagnosis writes the digest of each variant it compares, and a browser's btoa costs a call
 * into the page's bindings each time.
 */
export function base64Of(bytes: Uint8Array): string {
	const codes: number[] = [];
	const whole = bytes.length - (bytes.length % 3);
	for (let i = 0; i < whole; i += 3) {
		const group =
			((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
		codes.push(
			BASE64_CODES[group >>> 18] as number,
			BASE64_CODES[(group >>> 12) & 63] as number,
			BASE64_CODES[(group >>> 6) & 63] as number,
			BASE64_CODES[group & 63] as number
		);
	}
	if (bytes.length - whole === 1) {
		const group = (bytes[whole] as number) << 16;
		codes.push(
			BASE64_CODES[group >>> 18] as number,
			BASE64_CODES[(group >>> 12) & 63] as number,
			0x3d,
			0x3d
		);
	} else if (bytes.length - whole === 2) {
		const group = ((bytes[whole] as number) << 16) | ((bytes[whole + 1] as number) << 8);
		codes.push(
			BASE64_CODES[group >>> 18] as number,
			BASE64_CODES[(group >>> 12) & 63] as number,
			BASE64_CODES[(group >>> 6) & 63] as number,
			0x3d
		);
	}
	return String.fromCharCode(...codes);
}

function base64Value(code: number): number {
	return code < 128 ? (BASE64_VALUE[code] as number) : 255;
}
