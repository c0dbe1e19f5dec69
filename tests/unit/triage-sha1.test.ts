// The bulk path's own HMAC-SHA-1 against node:crypto and @noble/hashes: every key length (longer
// than a block is hashed first), every message length around the block and padding boundaries, text
// beyond ASCII, and the comparison with a mac that must be exactly the Base64 toBase64 writes.
import { createHmac, randomBytes } from 'node:crypto';
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { describe, expect, it } from 'vitest';
import { toBase64 } from '$lib/mac';
import { base64Of, HmacSha1 } from '$lib/triage/hmac/sha1';

const utf8 = (text: string) => new TextEncoder().encode(text);

function nodeDigest(key: Uint8Array, text: string): Buffer {
	return createHmac('sha1', key).update(text, 'utf8').digest();
}

/** A text of `length` UTF-16 units drawn from ASCII, two- three- and four-byte characters. */
function text(length: number, seed: number): string {
	const pieces = ['a', 'Z', '\n', '/', 'é', '€', '中', '😀'];
	let result = '';
	let state = seed;
	while (result.length < length) {
		state = (state * 1103515245 + 12345) >>> 0;
		const piece = pieces[state % pieces.length] as string;
		result += result.length + piece.length > length ? 'x' : piece;
	}
	return result;
}

describe('HmacSha1', () => {
	it('gives the HMAC-SHA-1 of node:crypto and noble for keys and messages of every length, either way it writes UTF-8', () => {
		const keyLengths = [0, 1, 20, 55, 63, 64, 65, 100, 200];
		const textLengths = [
			0, 1, 19, 20, 54, 55, 56, 57, 63, 64, 65, 118, 119, 120, 127, 128, 129, 300, 1400, 5000
		];
		// Both ways of writing the UTF-8: TextEncoder (Node's) and ASCII copied (a browser's).
		for (const keyLength of keyLengths)
			for (const encodeInto of [true, false]) {
				const key = new Uint8Array(randomBytes(keyLength));
				const hmac = new HmacSha1(key, { encodeInto });
				for (const [index, length] of textLengths.entries()) {
					const mixed = text(length, keyLength * 31 + index);
					// An ASCII text takes the copy all the way; a mixed one leaves it for TextEncoder.
					for (const message of [mixed, 'a/\n'.repeat(length).slice(0, length)]) {
						const expected = nodeDigest(key, message);
						expect(Buffer.from(hmac.sign(message).bytes())).toEqual(expected);
						expect(hmac.bytes()).toEqual(nobleHmac(sha1, key, utf8(message)));
					}
				}
			}
	});

	it('keeps each key apart and signs the same text the same way again', () => {
		const first = new HmacSha1(utf8('first-key'));
		const second = new HmacSha1(utf8('second-key'));
		const base =
			'1763800000\nbm9uY2U\nGET\n/account/profile/v1?client_id=c\nopen.tapapis.cn\n443\n\n';
		const a = first.sign(base).bytes();
		const b = second.sign(base).bytes();
		expect(Buffer.from(a)).toEqual(nodeDigest(utf8('first-key'), base));
		expect(Buffer.from(b)).toEqual(nodeDigest(utf8('second-key'), base));
		expect(first.sign(base).bytes()).toEqual(a);
	});

	it('signs a lone surrogate as U+FFFD, as TextEncoder and node:crypto do', () => {
		const key = utf8('k');
		const message = 'a\ud800b\udc00';
		expect(Buffer.from(new HmacSha1(key).sign(message).bytes())).toEqual(nodeDigest(key, message));
	});

	it('signs a long ASCII text with one character beyond ASCII at its end', () => {
		const key = utf8('k');
		const message = `${'a'.repeat(1000)}é`;
		expect(Buffer.from(new HmacSha1(key).sign(message).bytes())).toEqual(nodeDigest(key, message));
	});

	it('matches a mac only when it is the digest exactly as toBase64 writes it', () => {
		const key = utf8('k7Qx2mZpR4vN8sLwq1W2e3R4t5Y6u7I8');
		for (let round = 0; round < 300; round++) {
			const message = text(round, round);
			const hmac = new HmacSha1(key).sign(message);
			const mac = toBase64(hmac.bytes());
			expect(mac).toBe(nodeDigest(key, message).toString('base64'));
			expect(hmac.matches(mac)).toBe(true);
			// Any one character changed (to any Base64 character or another one) no longer matches.
			const at = round % 28;
			for (const replacement of ['A', '/', '+', '=', 'é', ' ']) {
				const changed = `${mac.slice(0, at)}${replacement}${mac.slice(at + 1)}`;
				if (changed !== mac) expect(hmac.matches(changed)).toBe(false);
			}
		}
	});

	it('does not match the same digest written another way', () => {
		const key = utf8('key');
		const hmac = new HmacSha1(key).sign('text');
		const digest = nodeDigest(key, 'text');
		const mac = digest.toString('base64');
		expect(hmac.matches(mac)).toBe(true);
		for (const other of [
			digest.toString('hex'),
			mac.replace(/=$/, ''),
			`${mac}=`,
			` ${mac}`,
			digest.toString('base64url'),
			'',
			// The same 20 bytes with the two spare bits set: decodes alike, but is not toBase64's text.
			`${mac.slice(0, 26)}${String.fromCharCode(mac.charCodeAt(26) + 1)}=`
		])
			if (other !== mac) expect(hmac.matches(other)).toBe(false);
	});
});

describe('base64Of', () => {
	it('writes the text toBase64 writes, for every length and byte', () => {
		for (let length = 0; length <= 70; length++) {
			const bytes = new Uint8Array(randomBytes(length));
			expect(base64Of(bytes)).toBe(toBase64(bytes));
		}
		const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
		expect(base64Of(every)).toBe(toBase64(every));
	});
});
