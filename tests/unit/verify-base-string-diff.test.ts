import { describe, expect, it } from 'vitest';
import {
	diffBaseString,
	hasEscapedLineBreaks,
	segmentDiff,
	unescapeBaseString
} from '$lib/diagnosis';
import { withoutTrailing } from '$lib/mac/encoding';
import { englishAll } from './verify-english';

const expected =
	'1700000000\nbm9uY2Ux\nGET\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn\n443\n\n';

describe('diffBaseString', () => {
	it('finds nothing to mark when the strings are equal', () => {
		const diff = diffBaseString(expected, expected);
		expect(diff.same).toBe(true);
		expect(diff.firstDifference).toBeNull();
		expect(diff.lines).toHaveLength(7);
		expect(diff.lines.every((line) => line.same)).toBe(true);
		expect(diff.lines.map((line) => line.name)).toEqual([
			'ts',
			'nonce',
			'HTTP method',
			'request URI',
			'host',
			'port',
			'ext (extra data)'
		]);
	});

	it('marks the differing characters of a line with a common prefix and suffix', () => {
		const actual = expected.replace('open.tapapis.cn\n', 'open.tapapis.cn:443\n');
		const diff = diffBaseString(expected, actual);
		expect(diff.firstDifference).toBe(5);
		const host = diff.lines[4];
		expect(host).toMatchObject({
			same: false,
			expected: 'open.tapapis.cn',
			actual: 'open.tapapis.cn:443'
		});
		expect(host?.actualSegments).toEqual([
			{ text: 'open.tapapis.cn', changed: false },
			{ text: ':443', changed: true }
		]);
		expect(host?.expectedSegments).toEqual([{ text: 'open.tapapis.cn', changed: false }]);
		expect(diff.lines.filter((line) => !line.same).map((line) => line.number)).toEqual([5]);
	});

	it('flags CR, tabs, trailing spaces and zero-width characters that a log hides', () => {
		const actual = expected
			.replace(/\n/g, '\r\n')
			.replace('GET', 'GET \t')
			.replace('443', '\u200b443');
		const diff = diffBaseString(expected, actual);
		expect(diff.lines[0]?.invisible).toEqual([{ kind: 'cr', index: 10 }]);
		expect(diff.lines[2]?.invisible.map((mark) => mark.kind)).toEqual([
			'trailing-space',
			'tab',
			'cr'
		]);
		expect(diff.lines[5]?.invisible.map((mark) => mark.kind)).toEqual(['zero-width', 'cr']);
		expect(englishAll(diff.notes).join(' ')).toMatch(/CR LF/);
	});

	it('shows a missing ext line and a missing final LF, and notes that logs drop them', () => {
		const actual = withoutTrailing(expected, '\n');
		const diff = diffBaseString(expected, actual);
		expect(diff.lines[5]).toMatchObject({ actual: '443', actualTerminated: false, same: false });
		expect(diff.lines[6]).toMatchObject({ expected: '', actual: null, same: false });
		expect(englishAll(diff.notes).join(' ')).toMatch(/Only the line feeds at the end differ/);
	});

	it('shows an extra line past the seventh', () => {
		const diff = diffBaseString(expected, `${expected}\n`);
		expect(diff.lines).toHaveLength(8);
		expect(diff.lines[7]).toMatchObject({ name: 'extra line', expected: null, actual: '' });
	});
});

describe('escaped pastes', () => {
	const escaped =
		'1700000000\\nbm9uY2Ux\\nGET\\n/account/profile/v1?client_id=abc123\\nopen.tapapis.cn\\n443\\n\\n';

	it('offers unescaping only for \\n as text without real line breaks', () => {
		expect(hasEscapedLineBreaks(escaped)).toBe(true);
		expect(hasEscapedLineBreaks(`${escaped}\n`)).toBe(true);
		expect(hasEscapedLineBreaks(expected)).toBe(false);
		expect(hasEscapedLineBreaks('a\\nb\nc')).toBe(false);
		expect(diffBaseString(expected, escaped).canUnescape).toBe(true);
	});

	it('unescapes plain escapes and a JSON string literal', () => {
		expect(unescapeBaseString(escaped)).toBe(expected);
		expect(unescapeBaseString(JSON.stringify(expected))).toBe(expected);
		expect(unescapeBaseString('a\\r\\n\\tb\\\\n')).toBe('a\r\n\tb\\n');
	});
});

describe('segmentDiff', () => {
	it('marks the middle only and handles a line that is missing entirely', () => {
		expect(segmentDiff('abcXdef', 'abcYYdef')).toEqual([
			[
				{ text: 'abc', changed: false },
				{ text: 'X', changed: true },
				{ text: 'def', changed: false }
			],
			[
				{ text: 'abc', changed: false },
				{ text: 'YY', changed: true },
				{ text: 'def', changed: false }
			]
		]);
		expect(segmentDiff('', 'new')).toEqual([[], [{ text: 'new', changed: true }]]);
		expect(segmentDiff('aa', 'aaa')[1]).toEqual([
			{ text: 'aa', changed: false },
			{ text: 'a', changed: true }
		]);
	});
});
