import { describe, expect, it } from 'vitest';
import { isIpLiteral, isPublicAddress } from '$lib/http/ip';
import { originAllowed, upstreamFromTarget } from '$lib/relay/handler';
import { splitHttpUrl } from '$lib/http/url';

describe('isPublicAddress', () => {
	it.each([
		'127.0.0.1',
		'127.8.9.1',
		'10.1.2.3',
		'172.16.0.1',
		'172.31.255.255',
		'192.168.1.1',
		'169.254.169.254',
		'100.64.0.1',
		'0.0.0.0',
		'224.0.0.1',
		'::1',
		'[::1]',
		'::',
		'fe80::1',
		'fd00::1',
		'::ffff:127.0.0.1',
		'::ffff:10.0.0.1',
		// The forms the URL parser and resolvers produce for the same places.
		'[::ffff:7f00:1]',
		'::ffff:a00:1',
		'::ffff:0:7f00:1',
		'::127.0.0.1',
		'::7f00:1',
		'64:ff9b::7f00:1',
		'64:ff9b::a9fe:a9fe',
		'64:ff9b:1::1',
		'2002:7f00:1::1',
		'2002:c0a8:101::',
		'fec0::1',
		'fe90::1',
		'ff02::1',
		'100::1',
		'2001:db8::1',
		'2001::1',
		'198.18.0.1',
		'192.0.2.1',
		'255.255.255.255',
		// Not an address at all: refused, never guessed.
		'1:2:3:4:5:6:7:8:9',
		':::',
		'::ffff:999.0.0.1',
		'fe80::1%eth0',
		'localhost'
	])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

	it.each([
		'93.184.216.34',
		'172.32.0.1',
		'8.8.8.8',
		'2606:4700::1111',
		'[2a00:1450:4001:80b::200e]',
		'::ffff:8.8.8.8',
		'::ffff:808:808',
		'64:ff9b::808:808',
		'2002:808:808::1'
	])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true));

	it('tells IP literals from names', () => {
		expect(isIpLiteral('10.0.0.1')).toBe(true);
		expect(isIpLiteral('[::1]')).toBe(true);
		expect(isIpLiteral('open.tapapis.cn')).toBe(false);
	});
});

describe('upstreamFromTarget', () => {
	it('reads the template form ?url=<encoded>', () => {
		const upstream = 'https://open.tapapis.cn/account/basic-info/v1?client_id=a%20b&x=+';
		expect(upstreamFromTarget(`/?url=${encodeURIComponent(upstream)}`)).toBe(upstream);
	});

	it('reads the prefix form, keeping the URI bytes as they came', () => {
		expect(upstreamFromTarget("/https://open.tapapis.cn/a%2Fb?q=%7e&r=+&s=it's")).toBe(
			"https://open.tapapis.cn/a%2Fb?q=%7e&r=+&s=it's"
		);
	});

	it('gives null for anything else', () => {
		expect(upstreamFromTarget('/')).toBeNull();
		expect(upstreamFromTarget('/favicon.ico')).toBeNull();
		expect(upstreamFromTarget('/?u=https://x/')).toBeNull();
	});
});

describe('splitHttpUrl', () => {
	it('keeps the path and query bytes and drops the fragment', () => {
		expect(splitHttpUrl('https://Open.Tapapis.cn:443/a/../b?q="<it\'s>"#frag')).toEqual({
			protocol: 'https:',
			hostname: 'open.tapapis.cn',
			port: 443,
			host: 'open.tapapis.cn',
			path: '/a/../b?q="<it\'s>"'
		});
		expect(splitHttpUrl('http://[::1]:8080?x')).toMatchObject({
			hostname: '[::1]',
			port: 8080,
			path: '/?x'
		});
	});

	it('ends the host where a browser ends it', () => {
		expect(splitHttpUrl('https://evil.example\\@open.tapapis.cn/')).toBe(
			'A backslash cannot start the path; write /.'
		);
		expect(splitHttpUrl('https://evil.example?@open.tapapis.cn/')).toMatchObject({
			hostname: 'evil.example',
			path: '/?@open.tapapis.cn/'
		});
		expect(splitHttpUrl('https://a@open.tapapis.cn/')).toMatch(/user name/);
		expect(splitHttpUrl('https://2130706433/')).toMatchObject({ hostname: '127.0.0.1' });
	});

	it('refuses bytes that cannot go on the wire and other schemes', () => {
		expect(splitHttpUrl('https://h/a b')).toMatch(/visible ASCII/);
		expect(splitHttpUrl('https://h/\r\nx: y')).toMatch(/visible ASCII/);
		expect(splitHttpUrl('file:///etc/passwd')).toMatch(/Only http/);
		expect(splitHttpUrl('https://a b/')).toMatch(/not a URL/);
	});
});

describe('originAllowed', () => {
	const patterns = ['https://*.github.io', 'http://localhost:5173'];
	it.each(['https://someone.github.io', 'https://a.b.github.io', 'http://localhost:5173'])(
		'allows %s',
		(origin) => expect(originAllowed(origin, patterns)).toBe(true)
	);
	it.each([
		'https://evil.com#.github.io',
		'https://evil.com/.github.io',
		'https://evil.com?.github.io',
		'https://evilgithub.io',
		'https://github.io',
		'https://.github.io',
		'https://a..github.io',
		'http://someone.github.io',
		'https://someone.github.io:8443',
		'https://someone.github.io.evil.com',
		'https://u@someone.github.io',
		'http://localhost:5174',
		'http://localhost:5173/',
		'null',
		'not an origin'
	])('refuses %s', (origin) => expect(originAllowed(origin, patterns)).toBe(false));
});
