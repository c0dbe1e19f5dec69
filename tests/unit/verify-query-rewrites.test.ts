import { describe, expect, it } from 'vitest';
import {
	asTyped,
	dotnetPathAndQuery,
	reEncodings,
	safeDecode,
	sortQuery,
	splitUri,
	whatwgPathAndSearch
} from '$lib/diagnosis/query-rewrites';
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

	it("writes a request URI as Node's WHATWG URL does: pathname + search", () => {
		expect(whatwgPathAndSearch('/p?state=it\'s&s=a b&q="<>`')).toBe(
			'/p?state=it%27s&s=a%20b&q=%22%3C%3E`'
		);
		expect(whatwgPathAndSearch('/p?name=小明')).toBe('/p?name=%E5%B0%8F%E6%98%8E');
		// The bare ? is dropped (search is empty), /./ and /../ are resolved, escapes are kept.
		expect(whatwgPathAndSearch('/p?')).toBe('/p');
		expect(whatwgPathAndSearch('/a/./b/../c?x=%2f')).toBe('/a/c?x=%2f');
		expect(whatwgPathAndSearch('/a b/{c}')).toBe('/a%20b/%7Bc%7D');
		expect(whatwgPathAndSearch('?q')).toBeNull();
	});

	// Each expected value is what Mono 6.8's `new Uri("https://h" + uri).PathAndQuery` printed.
	it.each([
		["/account/profile/v1?client_id=x&state=it's", "/account/profile/v1?client_id=x&state=it's"],
		['/p?state=a b', '/p?state=a%20b'],
		['/p?tag=~zoo&e=%7E&f=%7e', '/p?tag=~zoo&e=~&f=~'],
		['/p?next=%2Fhome', '/p?next=%2Fhome'],
		['/p?q=a+b', '/p?q=a+b'],
		['/p?name=小明', '/p?name=%E5%B0%8F%E6%98%8E'],
		['/p?name=%e5%b0%8f', '/p?name=%E5%B0%8F'],
		[
			'/p?p=a|b&c={d}&e=^&g=`&h="&i=<>&j=[]&k=\\',
			'/p?p=a%7Cb&c=%7Bd%7D&e=%5E&g=%60&h=%22&i=%3C%3E&j=[]&k=%5C'
		],
		['/p?', '/p?'],
		['/a b/小/v1;p=1/%41?client_id=x', '/a%20b/%E5%B0%8F/v1;p=1/A?client_id=x'],
		['/p?pct=%&pz=%zz&s=%20', '/p?pct=%25&pz=%25zz&s=%20'],
		['/p?x=%41%42%2e%2D%5F%7E%21', '/p?x=AB.-_~!'],
		['/p?x=%21', '/p?x=%21'],
		['/p?x=%41%27%2F', "/p?x=A'%2F"],
		['/p?x=%e5%b0%8f&y=%ab', '/p?x=%E5%B0%8F&y=%ab'],
		['/p?x=%41&y=%e5%b0%8f&z=%21', '/p?x=A&y=%E5%B0%8F&z=!'],
		['/a\\b?c=\\', '/a/b?c=%5C'],
		['/p?a=%C3', '/p?a=%C3'],
		['/p?a=😀', '/p?a=%F0%9F%98%80'],
		['/p%41?x=%3a%2a%28', '/pA?x=:*(']
	])(".NET's Uri.PathAndQuery of %s is %s", (uri, expected) => {
		expect(dotnetPathAndQuery(uri)).toBe(expected);
	});

	it('undoes what HTTP clients escape, keeping the escapes a person types', () => {
		expect(asTyped('/p?state=it%27s&next=%2Fhome&s=a%20b&n=%E5%B0%8F&p=%25&q=%2B')).toBe(
			"/p?state=it's&next=%2Fhome&s=a b&n=小&p=%25&q=%2B"
		);
		// Not a character in UTF-8 (a lone surrogate's bytes, a cut sequence): kept as escapes.
		expect(asTyped('/p?a=%ED%A0%80&b=%E5%B0')).toBe('/p?a=%ED%A0%80&b=%E5%B0');
		expect(asTyped('/p?a=%7c%7B%5e%60%5C%22%3C%3e')).toBe('/p?a=|{^`\\"<>');
	});
});
