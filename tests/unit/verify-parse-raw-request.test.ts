import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { parseRawRequest } from '$lib/read';
import { englishAll, thrownEnglish } from './verify-english';

const auth = 'MAC id="kid-1",ts="1700000000",nonce="bm9uY2Ux",mac="q/+Ab=="';

describe('parseRawRequest', () => {
	it('reads a CRLF request: method and URI from the request line, host from Host, https assumed', () => {
		const raw = [
			'GET /account/profile/v1?client_id=abc123 HTTP/1.1',
			'Host: open.tapapis.cn',
			`Authorization: ${auth}`,
			'Accept: */*',
			'',
			''
		].join('\r\n');
		const request = parseRawRequest(raw);
		expect(request.method).toBe('GET');
		expect(request.target).toBe('/account/profile/v1?client_id=abc123');
		expect(request.url).toBe('https://open.tapapis.cn/account/profile/v1?client_id=abc123');
		expect(request.headers.find((h) => h.name === 'Authorization')?.value).toBe(auth);
		expect(englishAll(request.understood)).toContain('Method GET from the request line.');
		expect(englishAll(request.understood)).toContain(
			'Port 443 assumed: a raw request does not say its scheme.'
		);
	});

	it('uses http for Host with port 80, and keeps another explicit port with https assumed', () => {
		expect(parseRawRequest('GET /p HTTP/1.1\nHost: h.example:80\n').url).toBe(
			'http://h.example:80/p'
		);
		const other = parseRawRequest('GET /p HTTP/1.1\nHost: h.example:8443\n');
		expect(other.url).toBe('https://h.example:8443/p');
		expect(englishAll(other.understood).join(' ')).toMatch(
			/Port 8443 from the Host header; https assumed/
		);
	});

	it('takes scheme, host and port from an absolute-form request line', () => {
		const request = parseRawRequest('GET http://h.example:8080/p?q=1 HTTP/1.1\nHost: ignored\n');
		expect(request.url).toBe('http://h.example:8080/p?q=1');
	});

	it('reads the HTTP/2 pseudo-headers devtools shows, with :scheme', () => {
		const request = parseRawRequest(
			[
				':authority: open.tapapis.com',
				':method: GET',
				':path: /account/basic-info/v1?client_id=abc',
				':scheme: https',
				`authorization: ${auth}`
			].join('\n')
		);
		expect(request.method).toBe('GET');
		expect(request.url).toBe('https://open.tapapis.com/account/basic-info/v1?client_id=abc');
	});

	it('joins a folded header line, keeping the break for the header parser', () => {
		const request = parseRawRequest(
			'GET /p HTTP/1.1\nHost: h\nAuthorization: MAC id="a",\n  ts="1",nonce="n",mac="m"\n'
		);
		expect(request.headers.at(-1)?.value).toBe('MAC id="a",\n  ts="1",nonce="n",mac="m"');
	});

	it('ignores the body and says so', () => {
		const request = parseRawRequest('POST /p HTTP/1.1\nHost: h\n\n{"a":1}\nX-Not: header');
		expect(request.headers.map((h) => h.name)).toEqual(['Host']);
		expect(englishAll(request.understood).join(' ')).toMatch(/body/);
	});

	it('leaves the URL undefined without a Host, and says the host is unknown', () => {
		const request = parseRawRequest('GET /p HTTP/1.1\nAuthorization: x\n');
		expect(request.url).toBeUndefined();
		expect(request.target).toBe('/p');
		expect(englishAll(request.understood).join(' ')).toMatch(/No Host header/);
	});

	it('refuses a request target that is not a path', () => {
		expect(() => parseRawRequest('OPTIONS * HTTP/1.1\nHost: h\n')).toThrow(MacInputError);
		expect(thrownEnglish(() => parseRawRequest('OPTIONS * HTTP/1.1\nHost: h\n'))).toMatch(
			/not a path/
		);
	});
});
