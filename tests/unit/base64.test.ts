// The core's Base64 helpers, checked against Node's Buffer, an implementation written apart from them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MacInputError, fromBase64, isBase64, toBase64Url } from '$lib/mac';
import { RUNS } from './property-arbitraries';

describe('Base64 in the core', () => {
	it('writes bytes as URL-safe Base64 without padding, as Buffer does', () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
				expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
			}),
			RUNS
		);
	});

	it('reads back any bytes written in either alphabet, padded or not', () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
				const standard = Buffer.from(bytes).toString('base64');
				for (const text of [
					standard,
					standard.replace(/={1,2}$/, ''),
					Buffer.from(bytes).toString('base64url'),
					standard.replace(/\+/g, '-').replace(/\//g, '_')
				]) {
					expect(isBase64(text)).toBe(true);
					expect(fromBase64(text)).toEqual(new Uint8Array(bytes));
				}
			}),
			RUNS
		);
	});

	it('refuses text that is not Base64 with a MacInputError', () => {
		for (const text of ['a', 'ab=', 'abc==', 'a+b-', 'ab c', 'ab==cd', '====', '=', 'é', 'abcd==='])
			expect(isBase64(text)).toBe(false);
		expect(() => fromBase64('a+b-')).toThrow(MacInputError);
		expect(() => fromBase64('abcde')).toThrow(MacInputError);
	});
});
