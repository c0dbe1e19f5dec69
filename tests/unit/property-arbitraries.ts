// What the property tests (property-*.test.ts) share: the run count, the runner that lets only a
// MacInputError through, and the generators of hostile, damaged and header text. Not a test file.
import fc from 'fast-check';
import { expect } from 'vitest';
import {
	MAC_ERROR_MESSAGES,
	MacInputError,
	macErrorMessage,
	type MacHeaderParams,
	type Outcome
} from '$lib/mac';
import { ERROR_CODES } from '$lib/account-api/error-codes';

export const RUNS = { numRuns: 300 };

/**
 * Runs a parser: its value, or the MacInputError it threw; any other exception fails the property,
 * and so does an error whose code is not in the core's table or whose message is not that code's text.
 */
export function outcome<T>(run: () => T): Outcome<T> {
	try {
		return { ok: true, value: run() };
	} catch (error) {
		if (!(error instanceof MacInputError)) throw error;
		expect(error.message).not.toBe('');
		expect(typeof error.field).toBe('string');
		expect(Object.keys(MAC_ERROR_MESSAGES)).toContain(error.code);
		expect(error.message).toBe(macErrorMessage(error.code, error.params));
		return { ok: false, error };
	}
}

/** Characters that break naive parsers: quotes, escapes, separators, controls, odd Unicode. */
export const NASTY = [
	'"',
	"'",
	'\\',
	'^',
	'$',
	'`',
	'#',
	',',
	'=',
	';',
	':',
	'|',
	' ',
	'\t',
	'\n',
	'\r',
	'\r\n',
	'\u0000',
	'\u001b',
	'\u007f',
	'\u00a0',
	'\u2028',
	'\ufeff',
	'\ud800',
	'\udc00',
	'😀',
	'é',
	'İ',
	'“',
	'”',
	'{',
	'}',
	'[',
	']',
	'<',
	'>',
	'%',
	'%zz',
	'?',
	'&',
	'/',
	'@',
	'{url}',
	'__proto__',
	'constructor'
];

/** Any UTF-16 code unit, lone surrogates included. */
export const utf16Unit = fc
	.integer({ min: 0, max: 0xffff })
	.map((code) => String.fromCharCode(code));

/** Arbitrary text: any code point, any UTF-16 unit (lone surrogates), or a soup of nasty pieces. */
export const hostile = fc.oneof(
	fc.string({ unit: 'binary', maxLength: 80 }),
	fc.string({ unit: utf16Unit, maxLength: 80 }),
	fc.string({ unit: fc.constantFrom(...NASTY), maxLength: 30 }),
	fc.string({ unit: 'grapheme', maxLength: 40 })
);

/** Text from a grammar, then damaged: pieces inserted, cut, doubled or truncated, a quote swapped. */
export function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
	const edit = fc.tuple(
		fc.constantFrom('insert', 'delete', 'duplicate', 'truncate', 'swap-quote'),
		fc.nat(),
		fc.nat({ max: 12 }),
		fc.oneof(fc.constantFrom(...NASTY), hostile)
	);
	return fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([text, edits]) =>
		edits.reduce((current, [kind, at, length, piece]) => {
			const index = current.length === 0 ? 0 : at % (current.length + 1);
			switch (kind) {
				case 'insert':
					return current.slice(0, index) + piece + current.slice(index);
				case 'delete':
					return current.slice(0, index) + current.slice(index + length);
				case 'duplicate':
					return current.slice(0, index + length) + current.slice(index);
				case 'truncate':
					return current.slice(0, index);
				default:
					return current.replace(/["']/, (quote) => (quote === '"' ? "'" : '"'));
			}
		}, text)
	);
}

/** Usually `usual`, now and then `rare`: a grammar where each flaw is rare enough that some pass. */
export function mostly<T>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>): fc.Arbitrary<T> {
	return fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: rare, weight: 1 });
}

/** JSON text of an object whose keys may repeat or be `__proto__` (JSON.stringify cannot write those). */
export function objectText(entries: [string, string][]): string {
	return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** JSON text of a value a reader may meet: any JSON, and the strings and numbers readers trip on. */
export const jsonValueText = fc.oneof(
	fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
	fc.constantFrom('"hmac-sha-1"', '"HMAC-SHA-1 "', '"hmac-sha-256"', '""', '"  "', 'null', '[]'),
	fc
		.constantFrom(...Object.keys(ERROR_CODES), 'toString', 'constructor', '__proto__')
		.map((code) => JSON.stringify(code)),
	fc.constantFrom('1e999', '-1e999', '1e300', '-0', '1700000000', '1700000000.5', 'null', 'true'),
	fc.string({ maxLength: 20 }).map((value) => JSON.stringify(value))
);

// ---- Authorization header values ---------------------------------------------------------------

/** A character authorizationHeader accepts: printable ASCII without `"` and `\`. */
export const headerChar = fc
	.integer({ min: 0x20, max: 0x7e })
	.filter((code) => code !== 0x22 && code !== 0x5c)
	.map((code) => String.fromCharCode(code));

/** Values authorizationHeader accepts: printable ASCII without `"` and `\`. */
export const headerValue = fc.oneof(
	{ weight: 4, arbitrary: fc.string({ unit: headerChar, minLength: 1, maxLength: 40 }) },
	// Printable ASCII that shells and the header grammar treat specially, so their edges come up.
	{
		weight: 1,
		arbitrary: fc.string({
			unit: fc.constantFrom(' ', '^', "'", ',', '=', '$', '#', 'a', '`', '%', '!'),
			minLength: 1,
			maxLength: 8
		})
	}
);

/** The four parameters authorizationHeader needs, and now and then an ext. */
export const headerParams: fc.Arbitrary<MacHeaderParams> = fc.record(
	{ id: headerValue, ts: headerValue, nonce: headerValue, mac: headerValue, ext: headerValue },
	{ requiredKeys: ['id', 'ts', 'nonce', 'mac'] }
);

// ---- PowerShell strings --------------------------------------------------------------------------

/**
 * A string as devtools' "Copy as PowerShell" writes it: a backtick before ` $ and ", and every
 * character outside printable ASCII as $([char]N), one UTF-16 unit at a time.
 */
export function powershellString(text: string): string {
	const escaped = text
		.replace(/[`$"]/g, '`$&')
		.replace(/[^\x20-\x7E]/g, (char) => `$([char]${char.charCodeAt(0)})`);
	return `"${escaped}"`;
}

/** A single-quoted PowerShell string: each quote (PowerShell counts ‘ ’ ‚ ‛ as quotes too) doubled. */
export function powershellVerbatim(text: string): string {
	return `'${text.replace(/['\u2018-\u201b]/g, '$&$&')}'`;
}

/** How a value can be written in PowerShell: as devtools does, single-quoted, or carelessly. */
export const writePowerShell = fc.constantFrom<(text: string) => string>(
	powershellString,
	powershellString,
	powershellVerbatim,
	// Unescaped: a quote inside ends the string early, a $name would be expanded.
	(text) => `"${text}"`,
	// Bare, as a URL or a key is sometimes typed.
	(text) => text
);

// ---- Huge input ----------------------------------------------------------------------------------

/** 50 to 250 kB: a grammar fragment repeated, after a start that parses, with an end that may not. */
export function huge(
	starts: string[],
	fragments: string[],
	ends: string[] = ['', '"', "'", '^', '}', ']', '\\', '\n', 'x']
): fc.Arbitrary<string> {
	return fc
		.tuple(
			fc.constantFrom(...starts),
			fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 3 }),
			fc.integer({ min: 50_000, max: 250_000 }),
			fc.constantFrom(...ends)
		)
		.map(([start, pieces, size, end]) => {
			const unit = pieces.join('');
			return start + unit.repeat(Math.ceil(size / unit.length)) + end;
		});
}

/**
 * Runs a parser on huge input: a result or a MacInputError. A parser that backtracks hangs here past
 * the test's own time limit; how fast it reads is the bench's to measure, not a test's.
 */
export function quickly(run: () => unknown): void {
	const result = outcome(run);
	expect(result.ok ? result.value : result.error).not.toBeUndefined();
}
