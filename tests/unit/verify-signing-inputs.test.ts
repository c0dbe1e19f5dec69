import { describe, expect, it } from 'vitest';
import { baseString, hmac } from '$lib/mac';
import {
	canProduce,
	decodedLength,
	encodeDigest,
	renderBaseString,
	type SigningInputs
} from '$lib/diagnosis';
import { text } from '$lib/i18n/text';

const inputs: SigningInputs = {
	ts: '1700000000',
	nonce: 'n',
	method: 'GET',
	uri: '/p?q=1',
	host: 'h.example',
	port: '443',
	ext: '',
	lineEnd: '\n',
	ending: 'terminated',
	key: 'k',
	keyForm: text('diagnosis_key_as_given'),
	hash: 'SHA-1',
	encoding: 'base64'
};

describe('renderBaseString', () => {
	it("gives the core's base string for the spec's layout", () => {
		expect(renderBaseString(inputs)).toBe(baseString(inputs));
		expect(renderBaseString(inputs)).toBe('1700000000\nn\nGET\n/p?q=1\nh.example\n443\n\n');
	});

	it('joins without a final line end, adds one, or uses CRLF', () => {
		expect(renderBaseString({ ...inputs, ending: 'joined' })).toBe(
			'1700000000\nn\nGET\n/p?q=1\nh.example\n443\n'
		);
		expect(renderBaseString({ ...inputs, ending: 'extra-lf' })).toMatch(/443\n\n\n$/);
		expect(renderBaseString({ ...inputs, lineEnd: '\r\n' })).toBe(
			'1700000000\r\nn\r\nGET\r\n/p?q=1\r\nh.example\r\n443\r\n\r\n'
		);
	});
});

describe('digest encodings', () => {
	it('writes one digest in each encoding', async () => {
		const digest = await hmac('k', 'text-with-slash-3');
		const base64 = digest.base64;
		expect(encodeDigest(digest, 'base64')).toBe(base64);
		expect(encodeDigest(digest, 'hex')).toBe(Buffer.from(base64, 'base64').toString('hex'));
		expect(encodeDigest(digest, 'base64url-unpadded')).toBe(
			Buffer.from(base64, 'base64').toString('base64url')
		);
		expect(encodeDigest(digest, 'base64url')).toMatch(/^[\w-]{27}=$/);
		expect(encodeDigest(digest, 'base64-unpadded')).toBe(base64.slice(0, -1));
	});

	it('tells which hash and encoding can produce a mac of this shape', () => {
		const sha1Base64 = 'q/+AbcdefghijklmnopqrstuvwU=';
		expect(sha1Base64).toHaveLength(28);
		expect(decodedLength(sha1Base64, 'base64')).toBe(20);
		expect(canProduce(sha1Base64, 'SHA-1', 'base64')).toBe(true);
		expect(canProduce(sha1Base64, 'SHA-256', 'base64')).toBe(false);
		expect(canProduce(sha1Base64, 'SHA-1', 'base64url')).toBe(false);
		expect(canProduce('a'.repeat(40), 'SHA-1', 'hex')).toBe(true);
		expect(canProduce('a'.repeat(64), 'SHA-256', 'hex')).toBe(true);
		expect(canProduce('a'.repeat(40), 'SHA-1', 'base64')).toBe(false);
		expect(canProduce('a-_'.repeat(9), 'SHA-1', 'base64url-unpadded')).toBe(true);
		expect(decodedLength('abc', 'base64')).toBeNull();
		expect(decodedLength('xyz', 'hex')).toBeNull();
	});
});
