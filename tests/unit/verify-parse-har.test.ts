import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { diagnose } from '$lib/diagnosis';
import { parseHar, parseSignedRequest } from '$lib/read';
import { GOOD_MAC, KEY, KID, NONCE, TS, URL_CN, diagnosePaste, mac } from './verify-paste-fixtures';
import { englishAll, thrownEnglish } from './verify-english';

function macHeader(id = KID, signature = GOOD_MAC): string {
	return `MAC id="${id}",ts="${TS}",nonce="${NONCE}",mac="${signature}"`;
}

type Header = { name: string; value: string };

/** A request entry as Chrome writes it for HTTP/2: pseudo-headers first, lower-case names. */
function chromeEntry(url: string, headers: Header[], method = 'GET', path?: string) {
	const parsed = new URL(url);
	return {
		_initiator: { type: 'script', stack: { callFrames: [] } },
		_priority: 'High',
		_resourceType: 'fetch',
		cache: {},
		connection: '443',
		request: {
			method,
			url,
			httpVersion: 'http/2.0',
			headers: [
				{ name: ':authority', value: parsed.host },
				{ name: ':method', value: method },
				{ name: ':path', value: path ?? `${parsed.pathname}${parsed.search}` },
				{ name: ':scheme', value: 'https' },
				{ name: 'accept', value: '*/*' },
				...headers,
				{ name: 'origin', value: 'https://game.example' },
				{ name: 'user-agent', value: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0' }
			],
			queryString: [...parsed.searchParams].map(([name, value]) => ({ name, value })),
			cookies: [],
			headersSize: -1,
			bodySize: 0
		},
		response: {
			status: 401,
			statusText: '',
			httpVersion: 'http/2.0',
			headers: [{ name: 'content-type', value: 'application/json' }],
			cookies: [],
			content: { size: 57, mimeType: 'application/json', text: '{"success":false}' },
			redirectURL: '',
			headersSize: -1,
			bodySize: -1,
			_transferSize: 180
		},
		serverIPAddress: '203.0.113.7',
		startedDateTime: '2026-11-22T10:15:30.123Z',
		time: 81.4,
		timings: { blocked: 1.2, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 79, receive: 1.1 }
	};
}

function har(entries: unknown[]): string {
	return JSON.stringify(
		{
			log: {
				version: '1.2',
				creator: { name: 'WebInspector', version: '537.36' },
				pages: [],
				entries
			}
		},
		null,
		2
	);
}

// The CORS preflight the browser sends first carries no Authorization; the GET after it is signed.
const preflight = chromeEntry(
	URL_CN,
	[
		{ name: 'access-control-request-headers', value: 'authorization' },
		{ name: 'access-control-request-method', value: 'GET' }
	],
	'OPTIONS'
);
const CHROME_HAR = har([
	preflight,
	chromeEntry(URL_CN, [{ name: 'authorization', value: macHeader() }])
]);

describe('parseHar', () => {
	it('takes the MAC-signed entry of a Chrome HAR, with its method, URL and headers', () => {
		const request = parseHar(CHROME_HAR);
		expect(request.url).toBe(URL_CN);
		expect(request.method).toBe('GET');
		expect(request.headers).toContainEqual({ name: 'authorization', value: macHeader() });
		expect(englishAll(request.understood)).toEqual([
			"The one MAC-signed request of the HAR's 2 requests is used.",
			'Method GET from the HAR entry.',
			'URL from the HAR entry.'
		]);
	});

	it('says how many requests are signed when there are several, and uses the first', () => {
		const request = parseHar(
			har([
				preflight,
				chromeEntry(URL_CN, [{ name: 'Authorization', value: macHeader('kid-first-one') }]),
				chromeEntry(`${URL_CN}&page=2`, [
					{ name: 'Authorization', value: macHeader('kid-second-one') }
				])
			])
		);
		expect(request.url).toBe(URL_CN);
		expect(request.headers).toContainEqual({
			name: 'Authorization',
			value: macHeader('kid-first-one')
		});
		expect(englishAll(request.understood)[0]).toBe(
			'The HAR holds 2 MAC-signed requests (of 3); the first is used. To check another, paste it alone, e.g. copied as cURL.'
		);
	});

	it('matches the header name and the MAC scheme in any case, after white space', () => {
		const request = parseHar(
			har([
				chromeEntry(URL_CN, [{ name: 'AUTHORIZATION', value: 'Bearer abc' }]),
				chromeEntry(URL_CN, [{ name: 'AUTHORIZATION', value: `  mac id="x",ts="1"` }])
			])
		);
		expect(request.headers).toContainEqual({ name: 'AUTHORIZATION', value: '  mac id="x",ts="1"' });
	});

	it('builds the URL from the HTTP/2 :path when it differs from the URL the HAR records', () => {
		const sent = '/account/profile/v1?client_id=abc%2D123';
		const request = parseHar(
			har([
				chromeEntry(
					'https://open.tapapis.cn/account/profile/v1?client_id=abc-123',
					[{ name: 'authorization', value: macHeader() }],
					'GET',
					sent
				)
			])
		);
		expect(request.url).toBe(`https://open.tapapis.cn${sent}`);
		expect(englishAll(request.understood)).toContain(
			'The URL says "/account/profile/v1?client_id=abc-123" but the HTTP/2 :path pseudo-header says "/account/profile/v1?client_id=abc%2D123": the URL is built from :path, the bytes actually sent.'
		);
	});

	it('keeps a non-default port when building the URL from :path', () => {
		const request = parseHar(
			har([
				chromeEntry(
					'https://sandbox.example:8443/p?a=1',
					[{ name: 'authorization', value: macHeader() }],
					'GET',
					'/p?a=%31'
				)
			])
		);
		expect(request.url).toBe('https://sandbox.example:8443/p?a=%31');
	});

	it('ignores a :path that is not a path, and says so', () => {
		const request = parseHar(
			har([chromeEntry(URL_CN, [{ name: 'authorization', value: macHeader() }], 'GET', '*')])
		);
		expect(request.url).toBe(URL_CN);
		expect(englishAll(request.understood)).toContain(
			'The :path pseudo-header "*" is not a path, so it was not used.'
		);
	});

	it('assumes GET and leaves the URL to the user when the entry has neither', () => {
		const request = parseHar(
			JSON.stringify({
				log: {
					entries: [
						{ request: { method: 7, headers: [{ name: 'Authorization', value: 'MAC x' }] } }
					]
				}
			})
		);
		expect(request.method).toBe('GET');
		expect(request.url).toBeUndefined();
		expect(englishAll(request.understood)).toEqual([
			'The HAR entry names no method; GET assumed.',
			'The HAR entry has no URL: give the URL.'
		]);
	});

	it('skips entries and headers of the wrong shape, and reads the first good one', () => {
		const good = {
			request: {
				method: 'GET',
				url: URL_CN,
				headers: [{ name: 'Authorization', value: macHeader() }]
			}
		};
		const request = parseHar(
			JSON.stringify({
				log: {
					entries: [
						null,
						1,
						'MAC id="x"',
						[],
						{ request: null },
						{ request: { headers: 'Authorization: MAC id="x"' } },
						{
							request: {
								headers: [null, 1, { name: 1, value: 'MAC a' }, { name: 'Authorization' }]
							}
						},
						{ request: { headers: { name: 'Authorization', value: 'MAC b' } } },
						good
					]
				}
			})
		);
		expect(request.url).toBe(URL_CN);
		expect(request.headers).toEqual([{ name: 'Authorization', value: macHeader() }]);
	});

	it('reads only own members: a "__proto__" key does not stand in for the log, entries or request', () => {
		const signed = {
			request: { url: URL_CN, headers: [{ name: 'Authorization', value: macHeader() }] }
		};
		const wrapped = (inner: string) => `{"__proto__": ${inner}}`;
		const cases = [
			wrapped(JSON.stringify({ log: { entries: [signed] } })),
			`{"log": ${wrapped(JSON.stringify({ entries: [signed] }))}}`,
			`{"log": {"entries": [${wrapped(JSON.stringify(signed))}]}}`
		];
		for (const text of cases) {
			expect(() => parseHar(text), text).toThrow(MacInputError);
		}
		expect(({} as Record<string, unknown>).log).toBeUndefined();
	});

	it.each([
		['{"log": {"entries": [', /^The HAR is cut short: it ends at entry 1\./],
		['{"log": {"version": "1.2", "pages": [}', /^The HAR's JSON is broken before its first entry/],
		['{"log": 1}', /not a HAR file: a HAR has a "log" object/],
		['{"log": null}', /not a HAR file/],
		['{"log": {"entries": {}}}', /no "log.entries" list/],
		['{"log": {"entries": []}}', /holds no requests \(log\.entries is empty\)/],
		[
			'{"log": {"entries": [1, "a"]}}',
			/None of the HAR's 2 requests sends an Authorization header/
		],
		['{"log": {"entries": [1]}}', /^The HAR's one request sends no Authorization header\./]
	])('refuses %j with a MacInputError saying why', (text, message) => {
		expect(() => parseHar(text)).toThrow(MacInputError);
		expect(thrownEnglish(() => parseHar(text))).toMatch(message);
	});

	it('says when no request sends Authorization, and how to export a HAR that keeps it', () => {
		expect(thrownEnglish(() => parseHar(har([preflight, chromeEntry(URL_CN, [])])))).toMatch(
			`None of the HAR's 2 requests sends an Authorization header. Chrome leaves it out of a HAR unless "Allow to generate HAR with sensitive data" is on in DevTools settings: turn it on and export again, or copy the signed request alone as cURL or fetch.`
		);
	});

	it('names the other schemes when Authorization headers are there but none is MAC', () => {
		const text = har([
			chromeEntry(URL_CN, [{ name: 'authorization', value: 'Bearer eyJhbGciOi' }]),
			chromeEntry(URL_CN, [{ name: 'Authorization', value: 'Basic dXNlcjpwdw==' }]),
			chromeEntry(URL_CN, [{ name: 'Authorization', value: 'MACHINE x' }]),
			chromeEntry(URL_CN, [])
		]);
		expect(thrownEnglish(() => parseHar(text))).toMatch(
			`None of the HAR's 4 requests is signed with MAC: its Authorization headers use "Bearer", "Basic", "MACHINE", not MAC.`
		);
	});
});

describe('parseSignedRequest on a HAR', () => {
	it('reads it as a HAR, with the header parameters and nothing missing but the key', () => {
		const result = parseSignedRequest(CHROME_HAR);
		expect(result).toMatchObject({
			kind: 'har',
			method: 'GET',
			url: URL_CN,
			authorization: { id: KID, ts: TS, nonce: NONCE, mac: GOOD_MAC },
			missing: ['mac_key']
		});
	});

	it('matches the signature of the HAR request, end to end, and the case file says it was a HAR', async () => {
		expect(await diagnosePaste(CHROME_HAR, KEY)).toEqual({
			verdict: 'match',
			pastedAs: 'HAR file'
		});
	});

	it('matches a signature over the :path bytes, which the HAR URL alone would not', async () => {
		// Signed over %2D as sent; the HAR's URL shows the decoded "-".
		const signature = mac(
			`${TS}\n${NONCE}\nGET\n/account/profile/v1?client_id=abc%2D123\nopen.tapapis.cn\n443\n\n`
		);
		const text = har([
			chromeEntry(
				'https://open.tapapis.cn/account/profile/v1?client_id=abc-123',
				[{ name: 'authorization', value: macHeader(KID, signature) }],
				'GET',
				'/account/profile/v1?client_id=abc%2D123'
			)
		]);
		const request = parseSignedRequest(text);
		const verdict = async (url: string) =>
			(await diagnose({ authorization: request.authorization, url, macKey: KEY })).verdict;
		expect(await verdict(request.url ?? '')).toBe('match');
		expect(await verdict('https://open.tapapis.cn/account/profile/v1?client_id=abc-123')).not.toBe(
			'match'
		);
	});

	it('reads a HAR with many entries, whatever their shape', () => {
		const filler = Array.from({ length: 40_000 }, (_, index) => (index % 2 ? '{}' : 'null'));
		const text = `{"log":{"entries":[${filler.join(',')},${JSON.stringify(
			chromeEntry(URL_CN, [{ name: 'authorization', value: macHeader() }])
		)}]}}`;
		const result = parseSignedRequest(text);
		expect(result.url).toBe(URL_CN);
		expect(englishAll(result.understood)[0]).toBe(
			"The one MAC-signed request of the HAR's 40001 requests is used."
		);
	});

	it('reads a HAR of a few megabytes, response bodies and all, as devtools saves it', () => {
		const text = har([
			chromeEntry(URL_CN, [{ name: 'Authorization', value: macHeader() }])
		]).replace('"pages": []', `"pages": [${'"some page data",'.repeat(150_000)}"x"]`);
		expect(text.length).toBeGreaterThan(2_000_000);
		expect(parseSignedRequest(text).url).toBe(URL_CN);
	});

	it('says a HAR too large to read here is a log for /triage (the paste box says it first)', () => {
		const text = har([
			chromeEntry(URL_CN, [{ name: 'Authorization', value: macHeader() }])
		]).replace('"pages": []', `"pages": [${'"x",'.repeat(1_300_000)}"x"]`);
		expect(thrownEnglish(() => parseSignedRequest(text))).toMatch(
			/^The paste is 5\.\d MB; the box reads up to 5 MB: use \/triage for logs\.$/
		);
	});

	it('fails with the header parser’s own message when the chosen header is not a valid MAC header', () => {
		const text = har([chromeEntry(URL_CN, [{ name: 'Authorization', value: 'MAC id="a"' }])]);
		expect(thrownEnglish(() => parseSignedRequest(text))).toMatch(/Missing ts, nonce, mac/);
	});
});
