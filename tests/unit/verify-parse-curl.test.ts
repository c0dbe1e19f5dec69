import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { parseCurl, parseCurlCommand } from '$lib/read';
import { englishAll, thrownEnglish } from './verify-english';

const url = 'https://open.tapapis.cn/account/profile/v1?client_id=abc123';
const auth = 'Authorization: MAC id="kid-1",ts="1700000000",nonce="bm9uY2Ux",mac="q/+Ab=="';

describe('parseCurl', () => {
	it('takes the positional URL, GET by default, and the headers', () => {
		const request = parseCurl(['curl', url, '-H', auth, '-H', 'accept: */*']);
		expect(request.url).toBe(url);
		expect(request.method).toBe('GET');
		expect(request.headers).toEqual([
			{ name: 'Authorization', value: auth.slice('Authorization: '.length) },
			{ name: 'accept', value: '*/*' }
		]);
		expect(englishAll(request.understood).join(' ')).toMatch(/Method GET/);
	});

	it('takes --url, -X and the glued forms -XPOST and -H…', () => {
		const request = parseCurl(['curl', '-XPOST', `-H${auth}`, '--url', url]);
		expect(request).toMatchObject({ url, method: 'POST' });
		expect(request.headers[0]?.name).toBe('Authorization');
	});

	it('skips the arguments of options that take one, so they are not read as the URL', () => {
		const request = parseCurl([
			'curl',
			'-o',
			'out.json',
			'-A',
			'Mozilla/5.0',
			'-e',
			'https://referrer.example/',
			'-b',
			'a=1',
			'-u',
			'user:pw',
			'--connect-timeout',
			'5',
			'-sSkLv',
			'--compressed',
			'-g',
			'--path-as-is',
			url
		]);
		expect(request.url).toBe(url);
		expect(request.method).toBe('GET');
		expect(englishAll(request.understood).join(' ')).toMatch(/-u\/--user/);
	});

	it('takes the value glued to the last of combined short flags (-sH…)', () => {
		expect(parseCurl(['curl', '-sH', 'x: 1', url]).headers).toEqual([{ name: 'x', value: '1' }]);
		expect(parseCurl(['curl', '-sXPUT', url]).method).toBe('PUT');
	});

	it('uses POST when there is a body, HEAD for -I, and -X over both', () => {
		expect(parseCurl(['curl', url, '-d', 'a=1']).method).toBe('POST');
		expect(parseCurl(['curl', url, '--data-raw', '{}']).method).toBe('POST');
		expect(parseCurl(['curl', url, '-F', 'f=@x']).method).toBe('POST');
		expect(parseCurl(['curl', '-I', url]).method).toBe('HEAD');
		expect(parseCurl(['curl', '--head', url]).method).toBe('HEAD');
		expect(parseCurl(['curl', '-X', 'GET', '-d', 'a=1', url]).method).toBe('GET');
	});

	it('appends -d data to the query with -G, encoding --data-urlencode content as curl does', () => {
		const request = parseCurl([
			'curl',
			'-G',
			'https://open.tapapis.cn/account/profile/v1',
			'-d',
			'client_id=abc123',
			'--data-urlencode',
			'note=a b/c'
		]);
		expect(request.method).toBe('GET');
		expect(request.url).toBe(
			'https://open.tapapis.cn/account/profile/v1?client_id=abc123&note=a+b%2Fc'
		);
	});

	it('assumes http:// for a URL without a scheme, as curl does, and says so', () => {
		const request = parseCurl(['curl', 'open.tapapis.cn/account/profile/v1']);
		expect(request.url).toBe('http://open.tapapis.cn/account/profile/v1');
		expect(englishAll(request.understood).join(' ')).toMatch(/no scheme.*http:\/\/ \(port 80\)/);
	});

	it('stops at a shell pipe, and takes the first of several URLs', () => {
		const request = parseCurl(['curl', url, '|', 'jq', '.']);
		expect(request.url).toBe(url);
		const two = parseCurl(['curl', url, 'https://other.example/']);
		expect(two.url).toBe(url);
		expect(englishAll(two.understood).join(' ')).toMatch(/2 URLs/);
	});

	it('accepts curl.exe and a leading $ prompt', () => {
		expect(parseCurl(['$', 'curl', url]).url).toBe(url);
		expect(parseCurl(['C:\\bin\\curl.exe', url]).url).toBe(url);
	});

	it('leaves the URL undefined when there is none', () => {
		expect(parseCurl(['curl', '-H', auth]).url).toBeUndefined();
	});

	it.each([
		[['wget', url], /Expected a curl command/],
		[[], /Expected a curl command/],
		[['curl', url, '-H'], /-H needs a value/]
	])('refuses %j with a typed error', (words, message) => {
		expect(() => parseCurl(words)).toThrow(MacInputError);
		expect(thrownEnglish(() => parseCurl(words))).toMatch(message);
	});
});

describe('parseCurlCommand', () => {
	it('reads a multi-line bash paste end to end', () => {
		const request = parseCurlCommand(
			`curl '${url}' \\\n  -H 'accept: application/json' \\\n  -H '${auth}' \\\n  --compressed`
		);
		expect(request).toMatchObject({ url, method: 'GET' });
		expect(request.headers.map((header) => header.name)).toEqual(['accept', 'Authorization']);
	});
});
