import { describe, expect, it } from 'vitest';
import { escapeLineBreaks, visibleSegments, visibleText } from '$lib/ui/visible';
import { unescapeBaseString } from '$lib/diagnosis/base-string-diff';

describe('visibleText', () => {
	it('marks every LF, CR and tab', () => {
		expect(visibleText('a\r\nb\tc\n')).toBe('a\\r↵b\\tc↵');
	});

	it('marks spaces at the ends of a line but not inside it', () => {
		expect(visibleText(' a b  \nc')).toBe('·a b··↵c');
	});

	it('marks the spaces at the end of a line after a character outside the BMP', () => {
		expect(visibleText('😀  \n 😀')).toBe('😀··↵·😀');
	});

	it('shows control and zero-width characters by code point', () => {
		expect(visibleText('a\u0000b\u200bc\u00a0')).toBe('a<U+0000>b<U+200B>c<U+00A0>');
	});

	it('leaves ordinary text alone', () => {
		expect(visibleText('/p?q=%20&ü=✓')).toBe('/p?q=%20&ü=✓');
	});
});

describe('visibleSegments', () => {
	it('gives each mark a spoken label and merges plain text', () => {
		expect(visibleSegments('ab\n')).toEqual([
			{ kind: 'text', shown: 'ab' },
			{ kind: 'lf', shown: '↵', label: 'line feed' }
		]);
	});
});

describe('escapeLineBreaks', () => {
	it('writes backslash, LF and CR as escapes and leaves the rest, tabs and spaces included', () => {
		expect(escapeLineBreaks('1\nn\\o\r\nGET\t ü\n\n')).toBe('1\\nn\\\\o\\r\\nGET\t ü\\n\\n');
	});

	it('is undone by the verify page reading a logged base string back', () => {
		for (const base of ['1\nn\nGET\n/p?a=\\n\nh\n443\n\n', 'a\r\nb\\\\r\n', '\\t\n\n']) {
			expect(unescapeBaseString(escapeLineBreaks(base))).toBe(base);
		}
	});
});
