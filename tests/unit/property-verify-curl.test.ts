// Property tests of shell words and the curl reader: any text gives words or a MacInputError, never
// another exception, and a command the app writes reads back to what was written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '$lib/mac';
import {
	SIGNED_REQUEST_FIELD,
	detectDialect,
	detectKind,
	parseCurlCommand,
	parseRawRequest,
	shellWords
} from '$lib/read';
import { RUNS, hostile, huge, mutated, outcome, quickly } from './property-arbitraries';
import { curlText } from './verify-arbitraries-shell';
import { englishAll } from './verify-english';

const shellText = fc.oneof(
	hostile,
	fc
		.array(
			fc.constantFrom(
				"'",
				'"',
				"$'",
				'$"',
				'\\',
				'\\\n',
				'\\\r\n',
				'^',
				'^\n',
				'^\n\n',
				'^"',
				'\\"',
				' ',
				'\t',
				'\n',
				'#',
				'\\x41',
				'\\xc3\\xa9',
				'\\xff',
				'\\u00e9',
				'\\U0001F600',
				'\\UFFFFFFFF',
				'\\c',
				'\\cA',
				'\\0',
				'\\777',
				'\\q',
				'word',
				'é',
				'\u00a0',
				'""',
				"''",
				'\\\\"'
			),
			{ maxLength: 25 }
		)
		.map((parts) => parts.join(''))
);

describe('shellWords (property)', () => {
	it('gives a list of words or a MacInputError for any text, in every dialect', () => {
		fc.assert(
			fc.property(
				shellText,
				fc.constantFrom('auto', 'posix', 'cmd') as fc.Arbitrary<'auto' | 'posix' | 'cmd'>,
				(text, dialect) => {
					const result = outcome(() => shellWords(text, dialect));
					if (result.ok) {
						expect(Array.isArray(result.value)).toBe(true);
						for (const word of result.value) expect(typeof word).toBe('string');
					} else expect(result.error.field).toBe(SIGNED_REQUEST_FIELD);
				}
			),
			RUNS
		);
	});

	it('splits text without quotes, escapes or comments at blanks only', () => {
		fc.assert(
			fc.property(
				fc.string({
					unit: fc.constantFrom(
						'a',
						'Z',
						'0',
						'-',
						'=',
						'é',
						'😀',
						' ',
						'\t',
						'\n',
						'\r\n',
						'\u00a0',
						'.',
						'/'
					),
					maxLength: 40
				}),
				(text) => {
					expect(shellWords(text)).toEqual(
						text.split(/[ \t\r\n\u00a0]+/).filter((word) => word !== '')
					);
				}
			),
			RUNS
		);
	});

	it('gives back any shellQuote-d words in the default (auto) dialect, which parseCurlCommand uses', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.string({
						unit: fc.constantFrom('a', ' ', '^', '"', "'", '\\', '\n', '\r', '\u00a0', '$', '#'),
						maxLength: 10
					}),
					{ minLength: 1, maxLength: 5 }
				),
				(words) => {
					const command = words.map(shellQuote).join(' ');
					expect(shellWords(command)).toEqual(words);
				}
			),
			RUNS
		);
	});

	// Inside POSIX single quotes, cmd's ` ^"` is just characters of a value.
	it('detectDialect takes a single-quoted ` ^"` for POSIX, so shellQuote round-trips it', () => {
		expect(detectDialect(shellQuote(' ^"'))).toBe('posix');
		expect(shellWords(shellQuote(' ^"'))).toEqual([' ^"']);
	});
});

// ---- parseCurlCommand ----------------------------------------------------------------------------

describe('parseCurlCommand (property)', () => {
	it('gives the URL, method and headers or a MacInputError for any paste', () => {
		fc.assert(
			fc.property(fc.oneof(curlText, curlText, mutated(curlText), hostile), (text) => {
				const result = outcome(() => parseCurlCommand(text));
				if (!result.ok) return;
				const request = result.value;
				if (request.url !== undefined) expect(request.url).toMatch(/^[a-z][a-z0-9+.-]*:\/\//i);
				expect(typeof request.method).toBe('string');
				for (const header of request.headers) {
					expect(typeof header.name).toBe('string');
					expect(typeof header.value).toBe('string');
				}
				expect(englishAll(request.understood).length).toBeGreaterThan(0);
			}),
			RUNS
		);
	});
});

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('shellWords, parseCurlCommand, parseRawRequest and detectKind answer quickly on 50-250 kB', () => {
		fc.assert(
			fc.property(
				huge(
					[
						'curl ',
						"curl 'https://h/' -H '",
						'curl ^"',
						'$ curl -H "',
						'GET / HTTP/1.1\n',
						':method: GET\n',
						''
					],
					[
						'a',
						' ',
						"'",
						'"',
						'\\',
						'\\\n',
						'^',
						'^\n',
						'^"',
						"$'\\x41",
						'-H a:b ',
						'-sSL',
						'X-A: b\n',
						' folded\n',
						'#',
						'\u00a0',
						'😀'
					]
				),
				(text) => {
					quickly(() => shellWords(text, 'posix'));
					quickly(() => shellWords(text, 'cmd'));
					quickly(() => parseCurlCommand(text));
					quickly(() => parseRawRequest(text));
					quickly(() => detectKind(text));
				}
			),
			{ numRuns: 25 }
		);
	});
});
