import { describe, expect, it } from 'vitest';
import { browserRewrites, requestTarget, writtenTarget } from '$lib/mac';

describe('requestTarget', () => {
	it('splits an https URL into URI, host and the default port 443', () => {
		expect(requestTarget('https://open.tapapis.cn/account/profile/v1?client_id=abc')).toMatchObject(
			{
				uri: '/account/profile/v1?client_id=abc',
				host: 'open.tapapis.cn',
				port: '443'
			}
		);
	});

	it('uses 80 for http and the explicit port when there is one', () => {
		expect(requestTarget('http://example.com/r').port).toBe('80');
		expect(requestTarget('https://example.com:8443/r')).toMatchObject({
			host: 'example.com',
			port: '8443'
		});
		expect(requestTarget('https://example.com:443/r').port).toBe('443');
	});

	it('lower-cases the host and never puts the port on the host line', () => {
		expect(requestTarget('https://Open.TapAPIs.CN:9000/x').host).toBe('open.tapapis.cn');
	});

	it('keeps the query exactly: order, escapes and their case, no re-encoding', () => {
		const url = 'https://h.example/p/a%2Fb?b=1&a=%e2%9c%93&c=x+y&d=%20';
		expect(requestTarget(url).uri).toBe('/p/a%2Fb?b=1&a=%e2%9c%93&c=x+y&d=%20');
	});

	it('neither adds nor drops a "?"', () => {
		expect(requestTarget('https://h.example/p').uri).toBe('/p');
		expect(requestTarget('https://h.example/p?').uri).toBe('/p?');
	});

	it('drops the fragment, which is never sent', () => {
		expect(requestTarget('https://h.example/p?x=1#frag').uri).toBe('/p?x=1');
	});

	it('gives "/" for a URL with no path, as the request line does', () => {
		expect(requestTarget('https://h.example').uri).toBe('/');
	});

	it('escapes what the browser escapes when sending (a space), so the URI is what goes on the wire', () => {
		expect(requestTarget('https://h.example/a b?q=c d').uri).toBe('/a%20b?q=c%20d');
	});

	it.each([
		['', /empty/],
		['open.tapapis.cn/account', /no scheme/],
		['ftp://h.example/x', /Only https/],
		['https://user:pw@h.example/', /user name or password/],
		['https://exa mple.com/', /not a valid URL/]
	])('refuses %j with a clear message', (url, message) => {
		expect(() => requestTarget(url)).toThrow(message);
	});

	it("writes ' in the query as %27 by default, as a browser sends it", () => {
		expect(requestTarget("https://h.example/p?state=it's").uri).toBe('/p?state=it%27s');
	});
});

describe('requestTarget as written (curl, a raw request)', () => {
	const asWritten = (url: string) => requestTarget(url, { uri: 'as-written' });

	it('keeps \' " < > ` { } | ^ \\ and /./ as the text writes them, as curl sends them', () => {
		const url = 'https://Open.TapAPIs.CN/a/./b/../c\\d?state=it\'s&q="<>`{}|^';
		expect(asWritten(url)).toEqual({
			uri: '/a/./b/../c\\d?state=it\'s&q="<>`{}|^',
			host: 'open.tapapis.cn',
			port: '443',
			href: 'https://open.tapapis.cn/a/./b/../c\\d?state=it\'s&q="<>`{}|^'
		});
	});

	it('keeps escapes as typed, and a bare "?"', () => {
		expect(asWritten('https://h.example/p%2f?a=%e2%9c%93&b=%zz').uri).toBe(
			'/p%2f?a=%e2%9c%93&b=%zz'
		);
		expect(asWritten('https://h.example/p?').uri).toBe('/p?');
	});

	it('sends an empty path as "/" and drops the fragment', () => {
		expect(asWritten('https://h.example?x=1#frag').uri).toBe('/?x=1');
		expect(asWritten('https://h.example:8443').uri).toBe('/');
	});

	it('percent-encodes only what a request line cannot carry: spaces, controls, non-ASCII', () => {
		expect(asWritten('https://h.example/é b?q=ü\tx').uri).toBe('/%C3%A9%20b?q=%C3%BC%09x');
	});

	it('refuses what it cannot sign, as the browser form does', () => {
		expect(() => asWritten('ftp://h.example/x')).toThrow(/Only https/);
		expect(() => asWritten('h.example/x')).toThrow(/no scheme/);
	});
});

describe('writtenTarget', () => {
	it('gives the host and URI as typed: case, port taken off, no "/" added', () => {
		expect(writtenTarget('https://Example.COM:8443?b=1#f')).toEqual({
			host: 'Example.COM',
			uri: '?b=1'
		});
		expect(writtenTarget('http://[::1]:80/p;x=1?q')).toEqual({ host: '[::1]', uri: '/p;x=1?q' });
	});
});

describe('browserRewrites', () => {
	it("says what the browser changes: ' as %27, a space, the host's case, an empty path", () => {
		expect(browserRewrites("https://h.example/p?state=it's")).toEqual(["' is sent as %27"]);
		expect(browserRewrites('https://H.example?q=a b"')).toEqual([
			'the host is sent in lower case',
			'the empty path is sent as /',
			'a space is sent as %20',
			'" is sent as %22'
		]);
		expect(browserRewrites('https://h.example/a/../b')).toEqual([
			'the path is resolved (/./ and /../ taken out)'
		]);
	});

	it('is empty when the URL goes out as written, or cannot be signed', () => {
		expect(browserRewrites('https://h.example/p?client_id=abc%27')).toEqual([]);
		expect(browserRewrites('not a url')).toEqual([]);
	});
});
