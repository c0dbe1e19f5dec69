// The base-string diff's segments and invisible-character marks are computed in one scan of each
// line (code units, moved off the middle of a surrogate pair), no longer through arrays of code
// points: they must say exactly what the code-point definitions below say, for any text, and read
// hostile lines (a megabyte of spaces, tabs and CRs) to the end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffBaseString, segmentDiff, type DiffSegment, type Invisible } from '$lib/diagnosis';
import { MAX_DIFF_LINES } from '$lib/diagnosis/base-string-diff';
import { englishAll } from './verify-english';

/** The common prefix and suffix in code points, the middle marked. */
function segmentsByCodePoint(expected: string, actual: string): [DiffSegment[], DiffSegment[]] {
	const a = Array.from(expected);
	const b = Array.from(actual);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
	let suffix = 0;
	while (
		suffix < a.length - prefix &&
		suffix < b.length - prefix &&
		a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
	)
		suffix += 1;
	const segments = (chars: string[]): DiffSegment[] =>
		[
			{ text: chars.slice(0, prefix).join(''), changed: false },
			{ text: chars.slice(prefix, chars.length - suffix).join(''), changed: true },
			{ text: chars.slice(chars.length - suffix).join(''), changed: false }
		].filter((segment) => segment.text !== '');
	return [segments(a), segments(b)];
}

/** Each invisible character by its code-point index; a space is leading or trailing with only blanks beyond it. */
function marksByCodePoint(line: string): Invisible[] {
	const chars = Array.from(line);
	const blank = (char: string | undefined) => char === ' ' || char === '\t' || char === '\r';
	const lead = chars.findIndex((char) => !blank(char));
	const leadEnd = lead < 0 ? chars.length : lead;
	let trailStart = chars.length;
	while (trailStart > leadEnd && blank(chars[trailStart - 1])) trailStart -= 1;
	const found: Invisible[] = [];
	chars.forEach((char, index) => {
		const code = char.codePointAt(0) ?? 0;
		const kind =
			char === '\r'
				? 'cr'
				: char === '\t'
					? 'tab'
					: char === ' ' && index < leadEnd
						? 'leading-space'
						: char === ' ' && index >= trailStart
							? 'trailing-space'
							: char === '\u00a0'
								? 'no-break-space'
								: /[\u200b-\u200d\u2060\ufeff]/.test(char)
									? 'zero-width'
									: code < 0x20 || code === 0x7f
										? 'control'
										: null;
		if (kind !== null) found.push({ kind, index });
	});
	return found;
}

/** Text made of the characters that matter here: pairs, lone halves, blanks and invisibles. */
const line = fc
	.array(
		fc.constantFrom(
			'a',
			'b',
			'😀',
			'😁',
			'\ud83d',
			'\ude00',
			'\ude01',
			' ',
			'\t',
			'\r',
			'\u00a0',
			'\u200b',
			'\ufeff',
			'\u0001',
			'\u007f'
		),
		{ maxLength: 12 }
	)
	.map((chars) => chars.join(''));

describe('the diff of two lines', () => {
	it('marks the same middle as the code-point definition, for any two lines', () => {
		fc.assert(
			fc.property(line, line, (expected, actual) => {
				expect(segmentDiff(expected, actual)).toEqual(segmentsByCodePoint(expected, actual));
			}),
			{ numRuns: 2000 }
		);
	});

	it('marks the same invisible characters as the code-point definition, for any line', () => {
		fc.assert(
			fc.property(line, (actual) => {
				expect(diffBaseString('x\n', `${actual}\n`).lines[0]?.invisible).toEqual(
					marksByCodePoint(actual)
				);
			}),
			{ numRuns: 2000 }
		);
	});
});

// Hang guards, not speed tests: each hostile line is read to a result.
describe('hostile lines', () => {
	const MB = 1_000_000;

	it('marks a megabyte of spaces at the end of a line, each one', () => {
		const diff = diffBaseString('1700000000\n', `1700000000${' '.repeat(MB)}\n`);
		const marks = diff.lines[0]?.invisible ?? [];
		expect(marks).toHaveLength(MB);
		expect(marks.every((mark) => mark.kind === 'trailing-space')).toBe(true);
		expect(diff.lines[0]?.actualSegments.at(-1)).toEqual({ text: ' '.repeat(MB), changed: true });
	});

	it('reads a megabyte of spaces, tabs and CRs, then x, as one line', () => {
		const diff = diffBaseString('x\n', `${' \t\r'.repeat(333_333)}x\n`);
		expect(diff.lines).toHaveLength(1);
		expect(diff.lines[0]?.invisible).toHaveLength(999_999);
		expect(diff.lines[0]?.invisible.at(-1)).toEqual({ kind: 'cr', index: 999_998 });
		expect(diff.notes.length).toBeGreaterThan(0);
	});

	it('compares two lines of a megabyte that differ in the middle', () => {
		const half = 'a'.repeat(MB / 2);
		const [expected, actual] = segmentDiff(`${half}b${half}`, `${half}c${half}`);
		expect(expected.map((segment) => segment.text.length)).toEqual([MB / 2, 1, MB / 2]);
		expect(actual[1]).toEqual({ text: 'c', changed: true });
	});

	it('compares a paste of 200 000 lines on its first lines, and counts the rest', () => {
		const expected = '1700000000\nn\nGET\n/\nh\n443\n\n';
		const diff = diffBaseString(expected, `${expected}${'log line\n'.repeat(200_000)}`);
		expect(diff.lines).toHaveLength(MAX_DIFF_LINES);
		expect(diff.firstDifference).toBe(8);
		expect(englishAll(diff.notes).at(-1)).toBe(
			`Their base string goes on for ${200_000 + 7 - MAX_DIFF_LINES} more lines after these ${MAX_DIFF_LINES}; a base string has seven, so they were not compared one by one.`
		);
	});

	it('numbers the first line that differs even past the lines compared', () => {
		const text = 'same\n'.repeat(1000);
		const diff = diffBaseString(`${text}a\n`, `${text}b\n`);
		expect(diff.same).toBe(false);
		expect(diff.lines.every((line) => line.same)).toBe(true);
		expect(diff.firstDifference).toBe(1001);
	});
});
