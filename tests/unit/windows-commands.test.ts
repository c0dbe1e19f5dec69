import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	authorizationHeader,
	cmdCurlCommand,
	cmdQuote,
	powershellCommand,
	powershellQuote,
	type MacHeaderParams
} from '$lib/mac';
import { parseCurlCommand, parsePowerShell, parseSignedRequest, shellWords } from '$lib/read';
import { RUNS, headerParams } from './property-arbitraries';

const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=a%41b&x=1';
const HEADER = 'MAC id="k",ts="1700000000",nonce="n+/=",mac="m=="';

/** The params as parseAuthorization gives them back: an empty ext is not written. */
function written(params: MacHeaderParams): MacHeaderParams {
	const { ext, ...rest } = params;
	return ext ? { ...rest, ext } : rest;
}

describe('cmdCurlCommand', () => {
	it('writes the URL and the header as devtools\' "Copy as cURL (cmd)" does', () => {
		expect(cmdCurlCommand(URL, HEADER)).toBe(
			'curl --globoff --path-as-is ' +
				'^"https://open.tapapis.cn/account/profile/v1?client_id=a^%^41b^&x=1^" ' +
				'-H ^"Authorization: MAC id=^\\^"k^\\^",ts=^\\^"1700000000^\\^",nonce=^\\^"n+/=^\\^",mac=^\\^"m==^\\^"^"'
		);
	});

	it('is read back by the verify page as cmd, word for word', () => {
		const words = shellWords(cmdCurlCommand(URL, HEADER), 'auto');
		expect(words).toEqual([
			'curl',
			'--globoff',
			'--path-as-is',
			URL,
			'-H',
			`Authorization: ${HEADER}`
		]);
	});

	it('doubles the backslashes before a quote and at the end, and keeps the others', () => {
		for (const word of ['a\\"b', 'a\\\\"b', 'a\\b', 'end\\', 'end\\\\', 'x\\\\y"']) {
			expect(shellWords(`curl ${cmdQuote(word)}`, 'cmd')).toEqual(['curl', word]);
		}
	});

	it('puts a caret after a % that starts a name, so cmd expands no variable', () => {
		expect(cmdQuote('%PATH%')).toBe('^"^%^PATH^%^"');
		expect(cmdQuote('100%')).toBe('^"100^%^"');
	});
});

describe('powershellCommand', () => {
	it('writes single-quoted strings, a quote doubled, typographic quotes too', () => {
		expect(powershellQuote("it's")).toBe("'it''s'");
		expect(powershellQuote('a\u2019b$x`y"')).toBe("'a\u2019\u2019b$x`y\"'");
		expect(powershellCommand(URL, HEADER)).toBe(
			`Invoke-RestMethod -Method Get -Uri '${URL}' \`\n  -Headers @{ 'Authorization' = '${HEADER}' }`
		);
	});

	it('is read back by the verify page as PowerShell', () => {
		const request = parsePowerShell(powershellCommand(URL, HEADER));
		expect(request.url).toBe(URL);
		expect(request.method.toUpperCase()).toBe('GET');
		expect(request.headers).toContainEqual({ name: 'Authorization', value: HEADER });
	});
});

describe('the Windows commands read back as the request signed (property)', () => {
	const params = fc.oneof(
		fc.record({
			id: fc.stringMatching(/^[A-Za-z0-9]{8,24}$/),
			ts: fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map(String),
			nonce: fc.stringMatching(/^[A-Za-z0-9+/]{8,16}={0,2}$/),
			mac: fc.stringMatching(/^[A-Za-z0-9+/]{27}=$/)
		}),
		headerParams
	);
	const url = fc.webUrl({ withQueryParameters: true, withFragments: false });

	it('cmd: parse-curl gives the same method, URL and Authorization header', () => {
		fc.assert(
			fc.property(params, fc.boolean(), url, (signed, space, href) => {
				const header = authorizationHeader(signed, { space });
				const command = cmdCurlCommand(href, header);
				const request = parseCurlCommand(command);
				expect(request.method).toBe('GET');
				expect(request.url).toBe(href);
				expect(request.headers.filter((h) => h.name.toLowerCase() === 'authorization')).toEqual([
					{ name: 'Authorization', value: header }
				]);
				const read = parseSignedRequest(command);
				expect(read.kind).toBe('curl');
				expect(read.authorization).toEqual(written(signed));
			}),
			RUNS
		);
	});

	it('PowerShell: parse-powershell gives the same method, URL and Authorization header', () => {
		fc.assert(
			fc.property(params, fc.boolean(), url, (signed, space, href) => {
				const header = authorizationHeader(signed, { space });
				const command = powershellCommand(href, header);
				const request = parsePowerShell(command);
				expect(request.method.toUpperCase()).toBe('GET');
				expect(request.url).toBe(href);
				expect(request.headers.filter((h) => h.name.toLowerCase() === 'authorization')).toEqual([
					{ name: 'Authorization', value: header }
				]);
				const read = parseSignedRequest(command);
				expect(read.kind).toBe('powershell');
				expect(read.authorization).toEqual(written(signed));
			}),
			RUNS
		);
	});

	// cmd drops CR and stops at NUL, so no quoting carries those; a signed URL or header has neither.
	it('any other text survives cmd quoting and PowerShell quoting', () => {
		const text = fc.oneof(
			fc.string({ unit: 'grapheme', maxLength: 40 }),
			fc.string({ unit: 'binary', maxLength: 40 }),
			fc.string({
				unit: fc.constantFrom('\\', '"', '^', '%', '!', '&', 'a', ' ', '\n'),
				maxLength: 12
			})
		);
		fc.assert(
			fc.property(
				text.filter((value) => !/[\r\0]/.test(value)),
				(value) => {
					expect(shellWords(`curl ${cmdQuote(value)}`, 'cmd')).toEqual(['curl', value]);
					const command = powershellCommand('https://h/', value);
					expect(parsePowerShell(command).headers).toContainEqual({
						name: 'Authorization',
						value
					});
				}
			),
			RUNS
		);
	});
});
