import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { parseFetch, parseSignedRequest } from '$lib/read';
import { GOOD_MAC, KEY, KID, NONCE, TS, URL_CN, diagnosePaste } from './verify-paste-fixtures';
import { englishAll, thrownEnglish } from './verify-english';

const PARAMS = { id: KID, ts: TS, nonce: NONCE, mac: GOOD_MAC };
// The header value as it sits inside a JSON string: every quote escaped.
const ESCAPED = `MAC id=\\"${KID}\\",ts=\\"${TS}\\",nonce=\\"${NONCE}\\",mac=\\"${GOOD_MAC}\\"`;

// Chrome, "Copy as fetch".
const CHROME = `fetch("${URL_CN}", {
  "headers": {
    "accept": "*/*",
    "accept-language": "en-US,en;q=0.9",
    "authorization": "${ESCAPED}",
    "sec-ch-ua": "\\"Chromium\\";v=\\"131\\", \\"Not_A Brand\\";v=\\"24\\"",
    "sec-ch-ua-mobile": "?0",
    "sec-fetch-dest": "empty",
    "sec-fetch-mode": "cors",
    "sec-fetch-site": "cross-site"
  },
  "referrer": "https://game.example/",
  "referrerPolicy": "strict-origin-when-cross-origin",
  "body": null,
  "method": "GET",
  "mode": "cors",
  "credentials": "omit"
});`;

// Chrome, "Copy as fetch (Node.js)".
const CHROME_NODE = `fetch("${URL_CN}", {
  "headers": {
    "accept": "*/*",
    "authorization": "${ESCAPED}",
    "Referer": "https://game.example/",
    "Referrer-Policy": "strict-origin-when-cross-origin"
  },
  "body": null,
  "method": "GET"
});`;

// Firefox, "Copy as Fetch": await, four-space indent, no body.
const FIREFOX = `await fetch("${URL_CN}", {
    "credentials": "omit",
    "headers": {
        "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Accept": "*/*",
        "Accept-Language": "en-US,en;q=0.5",
        "Authorization": "${ESCAPED}",
        "Sec-Fetch-Dest": "empty",
        "Sec-Fetch-Mode": "cors",
        "Sec-Fetch-Site": "cross-site"
    },
    "referrer": "https://game.example/",
    "method": "GET",
    "mode": "cors"
});`;

const SNIPPETS = [
	['Chrome', CHROME],
	['Chrome (Node.js)', CHROME_NODE],
	['Firefox', FIREFOX]
];

describe('parseFetch', () => {
	it.each(SNIPPETS)('reads the URL, method and headers of a %s snippet', (_, text) => {
		const request = parseFetch(text);
		expect(request.url).toBe(URL_CN);
		expect(request.method).toBe('GET');
		const authorization = request.headers.find((h) => h.name.toLowerCase() === 'authorization');
		expect(authorization?.value).toBe(
			`MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${GOOD_MAC}"`
		);
		expect(englishAll(request.understood)).toEqual([
			'URL from the fetch call.',
			'Method GET from the fetch options.'
		]);
	});

	it('reads every header in order, quotes in values unescaped', () => {
		expect(parseFetch(CHROME).headers[3]).toEqual({
			name: 'sec-ch-ua',
			value: '"Chromium";v="131", "Not_A Brand";v="24"'
		});
		expect(parseFetch(CHROME_NODE).headers.map((h) => h.name)).toEqual([
			'accept',
			'authorization',
			'Referer',
			'Referrer-Policy'
		]);
	});

	it('uses GET when the options name no method, and upper-cases the methods fetch upper-cases', () => {
		const none = parseFetch(`fetch("${URL_CN}", {"headers": {}})`);
		expect(none.method).toBe('GET');
		expect(englishAll(none.understood)).toContain(
			'Method GET: fetch’s default when the options name none.'
		);
		const lower = parseFetch(`fetch("${URL_CN}", {"method": "get"})`);
		expect(lower.method).toBe('GET');
		expect(englishAll(lower.understood)).toContain('Method GET: fetch sends "get" upper-cased.');
		// fetch leaves other methods as written.
		expect(parseFetch(`fetch("${URL_CN}", {"method": "patch"})`).method).toBe('patch');
	});

	it('tolerates no options, white space, no semicolon and a trailing comma', () => {
		for (const text of [
			`fetch("${URL_CN}")`,
			`\ufeff  await   fetch ( "${URL_CN}" ) ;  \n`,
			`fetch("${URL_CN}",)`,
			`fetch(\n  "${URL_CN}",\n  {"method": "GET"},\n)`
		]) {
			const request = parseFetch(text);
			expect(request.url, text).toBe(URL_CN);
			expect(request.method).toBe('GET');
			expect(request.headers).toEqual([]);
		}
	});

	it('unescapes the URL as JSON', () => {
		expect(parseFetch('fetch("https://h/p?a=\\u0062&c=\\/d")').url).toBe('https://h/p?a=b&c=/d');
	});

	it('is not fooled by brackets and parentheses inside strings', () => {
		const request = parseFetch(
			`fetch("https://h/p?q=)", {"headers": {"x-a": "}) ] {", "authorization": "MAC id=\\"a\\""}})`
		);
		expect(request.url).toBe('https://h/p?q=)');
		expect(request.headers).toEqual([
			{ name: 'x-a', value: '}) ] {' },
			{ name: 'authorization', value: 'MAC id="a"' }
		]);
	});

	it('reads the first call of several ("Copy all as fetch"), and says so', () => {
		const request = parseFetch(`${CHROME}\n\nfetch("https://h/other", {"method": "GET"});`);
		expect(request.url).toBe(URL_CN);
		expect(englishAll(request.understood)).toContain(
			'The paste holds more than one fetch call; the first is read. Paste the signed one alone to check it.'
		);
		const then = parseFetch(`${CHROME_NODE.slice(0, -1)}.then((r) => r.json());`);
		expect(then.url).toBe(URL_CN);
		expect(englishAll(then.understood)).toContain(
			'Ignored what follows the fetch call: ".then((r) => r.json());".'
		);
	});

	it('says the body is ignored when there is one', () => {
		const request = parseFetch(`fetch("${URL_CN}", {"body": "{\\"a\\":1}", "method": "POST"})`);
		expect(request.method).toBe('POST');
		expect(englishAll(request.understood)).toContain('The body is not signed, so it was ignored.');
	});

	it('reads only own members, and a "__proto__" header is just a header', () => {
		const hidden = parseFetch(
			`fetch("${URL_CN}", {"__proto__": {"headers": {"authorization": "MAC id=\\"a\\""}, "method": "POST"}})`
		);
		expect(hidden.headers).toEqual([]);
		expect(hidden.method).toBe('GET');
		const named = parseFetch(
			`fetch("${URL_CN}", {"headers": {"__proto__": "x", "authorization": "MAC id=\\"a\\""}})`
		);
		expect(named.headers).toEqual([
			{ name: '__proto__', value: 'x' },
			{ name: 'authorization', value: 'MAC id="a"' }
		]);
		expect(({} as Record<string, unknown>).authorization).toBeUndefined();
	});

	it('never runs the paste: code in the options is refused as not JSON', () => {
		const globals = globalThis as Record<string, unknown>;
		const text = `fetch("${URL_CN}", {"method": (() => { globalThis.pwned = 1; return "GET"; })()})`;
		expect(thrownEnglish(() => parseFetch(text))).toMatch(
			/The fetch call’s options object is not JSON/
		);
		expect(globals.pwned).toBeUndefined();
	});

	it.each([
		['curl https://h/', /Expected a fetch call/],
		["fetch('https://h/')", /URL must be a double-quoted string/],
		['fetch(url, {})', /URL must be a double-quoted string/],
		['fetch("https://h/', /URL string is never closed: was the paste cut short\?/],
		['fetch("https://h/"', /never closes with "\)": was the paste cut short\?/],
		[
			'fetch("https://h/", {"method": "GET"}\n',
			/never closes with "\)": was the paste cut short\?/
		],
		['fetch("https://h/\\x41")', /The fetch call’s URL is not JSON as devtools writes it/],
		[
			'fetch("https://h/", options)',
			/second argument must be the options object .* not "options\)"/
		],
		['fetch("https://h/", {"headers": {', /options are never closed: was the paste cut short\?/],
		['fetch("https://h/", {headers: {}})', /options object is not JSON as devtools writes it/],
		[
			'fetch("https://h/", {"headers": {}} x)',
			/should end with "\)" after its options, but "x\)" follows/
		],
		['fetch("https://h/", ["a"])', /second argument must be the options object/],
		['fetch("https://h/", {"method": 1})', /"method" is not a method name/],
		['fetch("https://h/", {"method": ""})', /"method" is not a method name/],
		['fetch("https://h/", {"headers": "Authorization: MAC x"})', /"headers" must be an object/],
		[
			'fetch("https://h/", {"headers": [["authorization", "MAC x"]]})',
			/"headers" must be an object/
		],
		['fetch("https://h/", {"headers": null})', /"headers" must be an object/],
		[
			'fetch("https://h/", {"headers": {"authorization": 1}})',
			/header "authorization" is not a string/
		]
	])('refuses %j with a MacInputError saying why', (text, message) => {
		expect(() => parseFetch(text)).toThrow(MacInputError);
		expect(thrownEnglish(() => parseFetch(text))).toMatch(message);
	});
});

describe('parseSignedRequest on a fetch call', () => {
	it.each(SNIPPETS)('reads a %s snippet with nothing missing but the key', (_, text) => {
		expect(parseSignedRequest(text)).toMatchObject({
			kind: 'fetch',
			method: 'GET',
			url: URL_CN,
			authorization: PARAMS,
			missing: ['mac_key']
		});
	});

	it.each(SNIPPETS)(
		'matches the signature of a %s snippet, end to end, and the case file says it was fetch',
		async (_, text) => {
			expect(await diagnosePaste(text, KEY)).toEqual({
				verdict: 'match',
				pastedAs: 'fetch call'
			});
		}
	);

	it('says the call sends no Authorization header when it has no options or none among them', () => {
		for (const text of [
			`fetch("${URL_CN}");`,
			`fetch("${URL_CN}", {"headers": {"accept": "*/*"}, "method": "GET"});`
		]) {
			expect(thrownEnglish(() => parseSignedRequest(text))).toMatch(
				'The fetch call sends no Authorization header ("headers": {"Authorization": "MAC …"}).'
			);
		}
	});

	it('tells a Bearer header apart from MAC', () => {
		expect(
			thrownEnglish(() =>
				parseSignedRequest(`fetch("${URL_CN}", {"headers": {"authorization": "Bearer abc"}})`)
			)
		).toMatch(/"Bearer", not MAC/);
	});

	it('keeps a URL that cannot be signed to correct, and asks for the URL', () => {
		const result = parseSignedRequest(
			`fetch("/account/profile/v1", {"headers": {"authorization": "${ESCAPED}"}})`
		);
		expect(result.url).toBe('/account/profile/v1');
		expect(result.missing).toEqual(['url', 'mac_key']);
		expect(englishAll(result.understood).join(' ')).toMatch(
			/The URL cannot be signed: .*no scheme/
		);
	});
});
