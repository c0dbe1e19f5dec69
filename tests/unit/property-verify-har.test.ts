// Property tests of the HAR and fetch readers: any JSON or text gives a request or a MacInputError,
// never another exception, and answers quickly on huge input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	SIGNED_REQUEST_FIELD,
	detectKind,
	parseFetch,
	parseHar,
	parseSignedRequest
} from '$lib/read';
import {
	RUNS,
	hostile,
	huge,
	jsonValueText,
	mutated,
	outcome,
	quickly
} from './property-arbitraries';
import { fetchText, harText } from './verify-arbitraries-json';
import { englishAll } from './verify-english';

describe('parseHar (property)', () => {
	it('gives the first MAC-signed request or a MacInputError for any JSON, HAR-shaped or not', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					{ weight: 4, arbitrary: harText },
					{ weight: 1, arbitrary: mutated(harText) },
					{ weight: 1, arbitrary: jsonValueText },
					{ weight: 1, arbitrary: hostile }
				),
				(text) => {
					const result = outcome(() => parseHar(text));
					if (!result.ok) {
						expect(result.error.field).toBe(SIGNED_REQUEST_FIELD);
						return;
					}
					const request = result.value;
					if (request.url !== undefined) expect(typeof request.url).toBe('string');
					expect(request.method).not.toBe('');
					for (const header of request.headers) {
						expect(typeof header.name).toBe('string');
						expect(typeof header.value).toBe('string');
					}
					// It was chosen for its MAC header, so that header is among those given back.
					expect(
						request.headers.some(
							(header) =>
								header.name.toLowerCase() === 'authorization' &&
								/^mac(?:\s|$)/i.test(header.value.trim())
						)
					).toBe(true);
					expect(englishAll(request.understood).length).toBeGreaterThan(0);
				}
			),
			RUNS
		);
	});
});

// ---- parseFetch ----------------------------------------------------------------------------------

describe('parseFetch (property)', () => {
	it('gives the URL, method and headers of a fetch call or a MacInputError for any paste', () => {
		fc.assert(
			fc.property(fc.oneof(fetchText, fetchText, mutated(fetchText), hostile), (text) => {
				const result = outcome(() => parseFetch(text));
				if (!result.ok) {
					expect(result.error.field).toBe(SIGNED_REQUEST_FIELD);
					return;
				}
				const request = result.value;
				expect(typeof request.url).toBe('string');
				expect(request.method).not.toBe('');
				for (const header of request.headers) {
					expect(typeof header.name).toBe('string');
					expect(typeof header.value).toBe('string');
				}
				expect(englishAll(request.understood)[0]).toBe('URL from the fetch call.');
			}),
			RUNS
		);
	});
});

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('parseHar, parseFetch, parseSignedRequest and detectKind answer quickly on 50-250 kB of HAR- or fetch-like text', () => {
		fc.assert(
			fc.property(
				huge(
					[
						'{"log":{"entries":[',
						'{"log":{"entries":[{"request":{"headers":[',
						'{"log":',
						'fetch("https://h/", {"headers": {',
						'await fetch("',
						'fetch("https://h/", '
					],
					[
						'{},',
						'null,',
						'{"name":"Authorization","value":"MAC id=\\"a\\""},',
						'{"request":{"headers":[]}},',
						'"a":"b",',
						'[',
						'{',
						'"',
						'\\"',
						')',
						' ',
						'\n'
					]
				),
				(text) => {
					quickly(() => parseHar(text));
					quickly(() => parseFetch(text));
					quickly(() => parseSignedRequest(text));
					quickly(() => detectKind(text));
				}
			),
			{ numRuns: 25 }
		);
	});
});
