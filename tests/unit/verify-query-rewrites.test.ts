import { describe, expect, it } from 'vitest';
import { reEncodings, safeDecode, sortQuery, splitUri } from '$lib/diagnosis/query-rewrites';
import { english } from './verify-english';

describe('query rewrites', () => {
	it('splits a request URI at the first ?, telling a bare ? from none', () => {
		expect(splitUri('/p?a=1?b')).toEqual({ path: '/p', query: 'a=1?b' });
		expect(splitUri('/p?')).toEqual({ path: '/p', query: '' });
		expect(splitUri('/p')).toEqual({ path: '/p', query: null });
	});

	it('decodes without throwing on a malformed escape', () => {
		expect(safeDecode('a%2Fb')).toBe('a/b');
		expect(safeDecode('a%E0%A4%A')).toBeNull();
	});

	it('lists each distinct re-encoding once, with how it was made', () => {
		const result = reEncodings("client_id=abc&q=a+b%7e!'");
		const byHow = Object.fromEntries(result.map(({ how, query }) => [english(how), query]));
		expect(byHow['encodeURIComponent of each decoded value']).toBe("client_id=abc&q=a%20b~!'");
		expect(byHow['encodeURIComponent of each value as sent, so % became %25']).toBe(
			"client_id=abc&q=a%2Bb%257e!'"
		);
		expect(byHow['form encoding (URLSearchParams): spaces as +']).toBe(
			'client_id=abc&q=a+b%7E%21%27'
		);
		expect(byHow['percent-escapes in upper case']).toBe("client_id=abc&q=a+b%7E!'");
		expect(byHow['spaces as %20 instead of +']).toBe("client_id=abc&q=a%20b%7e!'");
		expect(result.map(({ query }) => query)).not.toContain("client_id=abc&q=a+b%7e!'");
	});

	it('does not list a rewrite again when an earlier one gave the same query', () => {
		// '+' as %20 is what encodeURIComponent of the decoded value gives here.
		expect(reEncodings('q=a+b').map(({ how }) => english(how))).toEqual([
			'encodeURIComponent of each decoded value',
			'encodeURIComponent of each value as sent, so % became %25'
		]);
	});

	it('offers no decoded re-encoding when a value cannot be decoded', () => {
		const hows = reEncodings('a=%E0%A4%A').map(({ how }) => english(how));
		expect(hows).not.toContain('encodeURIComponent of each decoded value');
		expect(hows).toContain('encodeURIComponent of each value as sent, so % became %25');
	});

	it('sorts parameters by name and keeps equal names in order', () => {
		expect(sortQuery('z=1&a=2&m&a=1')).toBe('a=2&a=1&m&z=1');
	});
});
