// Property tests of the diagnosis: the base-string diff compares any two texts, diagnose settles
// with a verdict or a MacInputError for any input and says "match" for any correctly signed mac.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MacInputError, requestTarget, type MacHeaderParams } from '$lib/mac';
import { diagnose, diffBaseString, unescapeBaseString } from '$lib/diagnosis';
import { RUNS, headerParams, hostile, huge, utf16Unit } from './property-arbitraries';
import { realisticParams } from './verify-arbitraries-shell';

const baseStringLike = fc.oneof(
	fc.string({ unit: utf16Unit, maxLength: 60 }),
	fc
		.array(
			fc.string({
				unit: fc.constantFrom(
					'a',
					'1',
					' ',
					'\r',
					'\t',
					'\u00a0',
					'\u200b',
					'\\n',
					'é',
					'😀',
					'\ud800'
				),
				maxLength: 6
			}),
			{ maxLength: 9 }
		)
		.map((lines) => lines.join('\n')),
	fc
		.array(fc.string({ maxLength: 6 }), { maxLength: 9 })
		.map((lines) => lines.map((line) => `${line}\n`).join(''))
);

describe('diffBaseString (property)', () => {
	it('compares any two texts: segments rebuild each line, and "same" means equal texts', () => {
		fc.assert(
			fc.property(baseStringLike, baseStringLike, fc.boolean(), (expected, actual, equal) => {
				const pasted = equal ? expected : actual;
				const diff = diffBaseString(expected, pasted);
				expect(diff.same).toBe(expected === pasted);
				expect(diff.firstDifference === null).toBe(expected === pasted);
				for (const line of diff.lines) {
					expect(line.expectedSegments.map((segment) => segment.text).join('')).toBe(
						line.expected ?? ''
					);
					expect(line.actualSegments.map((segment) => segment.text).join('')).toBe(
						line.actual ?? ''
					);
				}
				expect(typeof unescapeBaseString(pasted)).toBe('string');
			}),
			RUNS
		);
	});
});

// ---- diagnose ------------------------------------------------------------------------------------

/** The correct mac, computed apart from the app: HMAC-SHA-1 over the seven LF-terminated lines. */
function referenceMac(params: MacHeaderParams, url: string, key: string): string {
	const target = requestTarget(url);
	const lines = [
		params.ts,
		params.nonce,
		'GET',
		target.uri,
		target.host,
		target.port,
		params.ext ?? ''
	];
	return createHmac('sha1', key)
		.update(lines.map((line) => `${line}\n`).join(''), 'utf8')
		.digest('base64');
}

describe('diagnose (property)', () => {
	it('settles with a verdict or rejects with a MacInputError for any header, URL and key', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(realisticParams, headerParams),
				fc.oneof(fc.webUrl(), hostile, fc.constantFrom('ftp://h/', 'https://h:99/p?')),
				fc.oneof(fc.string({ unit: utf16Unit, maxLength: 30 }), fc.constant('')),
				async (params, url, key) => {
					try {
						const diagnosis = await diagnose({ authorization: params, url, macKey: key });
						expect(['match', 'explained', 'unexplained']).toContain(diagnosis.verdict);
						expect(diagnosis.match).toBe(diagnosis.verdict === 'match');
						expect(diagnosis.keyOrUnseenInputs).toBe(diagnosis.verdict === 'unexplained');
						expect(diagnosis.explanations.length > 0).toBe(diagnosis.verdict === 'explained');
						// The key never appears in what the page shows.
						if (key.length >= 8)
							expect(JSON.stringify(diagnosis)).not.toContain(JSON.stringify(key).slice(1, -1));
					} catch (error) {
						expect(error).toBeInstanceOf(MacInputError);
					}
				}
			),
			{ numRuns: 60 }
		);
	});

	it('says "match" whenever the mac was signed correctly', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(realisticParams, headerParams),
				fc.webUrl({ withQueryParameters: true }),
				fc.string({ unit: utf16Unit, minLength: 1, maxLength: 40 }),
				async (params, url, key) => {
					const signed = { ...params, mac: referenceMac(params, url, key) };
					const diagnosis = await diagnose({ authorization: signed, url, macKey: key });
					expect(diagnosis.verdict).toBe('match');
					expect(diagnosis.expectedMac).toBe(signed.mac);
				}
			),
			{ numRuns: 100 }
		);
	});
});

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('diffBaseString and unescapeBaseString read 50-250 kB to the end', () => {
		fc.assert(
			fc.property(
				huge(['v1.', '#v1.', 'v1.eyJ', ''], ['A', 'eyJ', '_-', 'Zm9v', '\n', 'a\n', '\r\n', '\\n']),
				(text) => {
					expect(diffBaseString(text, `${text}x`).same).toBe(false);
					expect(unescapeBaseString(`${text}x`)).toMatch(/x$/);
				}
			),
			{ numRuns: 12 }
		);
	});

	// The page diffs the pasted base string on every change. Hang guards, not speed tests: work
	// quadratic in a run of line breaks takes tens of seconds on 200 000 of them, past the test's own
	// time limit; linear work, milliseconds.
	it('diffBaseString does not hang on 200 000 line breaks then "x"', () => {
		const pasted = `${'\n'.repeat(200_000)}x`;
		expect(diffBaseString('a\n', pasted).same).toBe(false);
	});

	it('unescapeBaseString does not hang on 200 000 line breaks then "x"', () => {
		expect(unescapeBaseString(`${'\n'.repeat(200_000)}x`)).toMatch(/x$/);
	});
});
