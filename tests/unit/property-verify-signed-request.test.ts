// Property tests of the paste as a whole: any paste of any format gives the signing inputs or a
// MacInputError and agrees with detectKind, and what the app and devtools write reads back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorizationHeader, curlCommand, requestTarget, type MacHeaderParams } from '$lib/mac';
import { SIGNED_REQUEST_FIELD, detectKind, parseSignedRequest } from '$lib/read';
import { RUNS, headerParams, hostile, outcome } from './property-arbitraries';
import { signedRequestText } from './verify-arbitraries';
import { fetchOf, fetchText, harEntryOf, harOf, harText } from './verify-arbitraries-json';
import { powershellOf, powershellStyle, powershellText } from './verify-arbitraries-powershell';
import { anyHeader, curlText, rawText, realisticParams, written } from './verify-arbitraries-shell';
import { englishAll } from './verify-english';

describe('parseSignedRequest (property)', () => {
	it('gives the signing inputs or a MacInputError for any paste, and agrees with detectKind', () => {
		fc.assert(
			fc.property(signedRequestText, (text) => {
				const kind = detectKind(text);
				expect([null, 'header', 'curl', 'raw', 'har', 'fetch', 'powershell']).toContain(kind);
				const result = outcome(() => parseSignedRequest(text));
				if (!result.ok) {
					// The header's own errors name the Authorization header; the others, the paste box.
					expect([SIGNED_REQUEST_FIELD, 'Authorization']).toContain(result.error.field);
					return;
				}
				const request = result.value;
				expect(request.kind).toBe(kind);
				for (const key of ['id', 'ts', 'nonce', 'mac'] as const)
					expect(request.authorization[key]).not.toBe('');
				expect(request.missing).toContain('mac_key');
				if (request.url === undefined) expect(request.missing).toContain('url');
				else if (!request.missing.includes('url'))
					expect(() => requestTarget(request.url ?? '')).not.toThrow();
			}),
			RUNS
		);
	});

	it('recovers the header, URL and method from the curl command the playground writes', () => {
		fc.assert(
			fc.property(
				fc.oneof(realisticParams, headerParams),
				fc.boolean(),
				fc.webUrl({ withQueryParameters: true, withFragments: false }),
				(params, space, url) => {
					const command = curlCommand(url, authorizationHeader(params, { space }));
					const request = parseSignedRequest(command);
					expect(request.kind).toBe('curl');
					expect(request.authorization).toEqual(written(params));
					expect(request.url).toBe(url);
					expect(request.method).toBe('GET');
					expect(request.missing).toEqual(['mac_key']);
				}
			),
			RUNS
		);
	});

	it('reads the curl command the playground writes for a kid ending in " ^" (not cmd)', () => {
		const params = { id: 'kid ^', ts: '1700000000', nonce: 'bm9uY2Ux', mac: 'q/+Ab==' };
		const command = curlCommand('https://open.tapapis.cn/p', authorizationHeader(params));
		expect(parseSignedRequest(command).authorization).toEqual(params);
	});

	it('recovers the header and the request target from a raw request with a Host line', () => {
		fc.assert(
			fc.property(
				fc.oneof(realisticParams, headerParams),
				fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }),
				fc.constantFrom('\r\n', '\n'),
				(params, url, eol) => {
					const sent = requestTarget(url);
					const parsed = new URL(url);
					const text = [
						`GET ${sent.uri} HTTP/1.1`,
						`Host: ${parsed.host}`,
						`Authorization: ${authorizationHeader(params)}`,
						'',
						''
					].join(eol);
					const request = parseSignedRequest(text);
					expect(request.kind).toBe('raw');
					expect(request.authorization).toEqual(written(params));
					const read = requestTarget(request.url ?? '');
					expect({ uri: read.uri, host: read.host, port: read.port }).toEqual({
						uri: sent.uri,
						host: sent.host,
						port: sent.port
					});
				}
			),
			RUNS
		);
	});

	it('recovers the header, URL and method from a fetch call as Chrome or Firefox copies it', () => {
		fc.assert(
			fc.property(
				fc.oneof(realisticParams, headerParams),
				fc.boolean(),
				fc.webUrl({ withQueryParameters: true, withFragments: false }),
				fc.constantFrom('chrome', 'node', 'firefox') as fc.Arbitrary<'chrome' | 'node' | 'firefox'>,
				(params, space, url, style) => {
					const request = parseSignedRequest(
						fetchOf(url, authorizationHeader(params, { space }), style)
					);
					expect(request.kind).toBe('fetch');
					expect(request.authorization).toEqual(written(params));
					expect(request.url).toBe(url);
					expect(request.method).toBe('GET');
					expect(request.missing).toEqual(['mac_key']);
				}
			),
			RUNS
		);
	});

	it('recovers the header, URL and method from a PowerShell command as devtools copies it', () => {
		fc.assert(
			fc.property(
				fc.oneof(realisticParams, headerParams),
				fc.boolean(),
				fc.webUrl({ withQueryParameters: true, withFragments: false }),
				powershellStyle,
				fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
				fc.constantFrom('\n', '\r\n'),
				(params, space, url, style, method, eol) => {
					const text = powershellOf(
						url,
						authorizationHeader(params, { space }),
						style,
						method
					).replace(/\n/g, eol);
					const request = parseSignedRequest(text);
					expect(request.kind).toBe('powershell');
					expect(request.authorization).toEqual(written(params));
					expect(request.url).toBe(url);
					expect(request.method).toBe(method);
					expect(request.missing).toEqual(['mac_key']);
				}
			),
			RUNS
		);
	});

	it('recovers the first MAC-signed request of a HAR, and says how many there are', () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(realisticParams, headerParams), { minLength: 1, maxLength: 3 }),
				fc.webUrl({ withQueryParameters: true, withFragments: false }),
				fc.array(fc.constantFrom(null, 'Bearer abc', 'Basic dTpw'), { maxLength: 3 }),
				fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
				(signed, url, others, name) => {
					const entries = [
						...others.map((value) => harEntryOf(url, value)),
						...signed.map((params) => harEntryOf(url, authorizationHeader(params), name))
					];
					const request = parseSignedRequest(JSON.stringify(harOf(entries), null, 2));
					expect(request.kind).toBe('har');
					expect(request.authorization).toEqual(written(signed[0] as MacHeaderParams));
					expect(request.url).toBe(url);
					expect(request.method).toBe('GET');
					expect(request.missing).toEqual(['mac_key']);
					const counted = englishAll(request.understood).find((line) =>
						/MAC-signed requests \(of/.test(line)
					);
					expect(counted).toBe(
						signed.length > 1
							? `The HAR holds ${signed.length} MAC-signed requests (of ${entries.length}); the first is used. To check another, paste it alone, e.g. copied as cURL.`
							: undefined
					);
				}
			),
			RUNS
		);
	});

	it('refuses a huge paste quickly, with a MacInputError or a result', () => {
		fc.assert(
			fc.property(
				fc.oneof(curlText, rawText, harText, fetchText, powershellText, anyHeader, hostile),
				fc.constantFrom(' -H a:b', '\nX-A: b', ',', "'", '"', '\\', ' ', '^\n', 'x'),
				fc.integer({ min: 10_000, max: 120_000 }),
				(text, filler, times) => {
					const huge = text + filler.repeat(times);
					outcome(() => parseSignedRequest(huge));
				}
			),
			{ numRuns: 40 }
		);
	});
});
