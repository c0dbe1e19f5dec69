import { describe, expect, it } from 'vitest';
import { requestTarget } from '$lib/mac';

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
});
