import { describe, expect, it } from 'vitest';
import { groupDigits, localDateTime } from '../../src/lib/ui/plain-format';

describe('groupDigits', () => {
	it('writes integers as Intl.NumberFormat does in English and Chinese', () => {
		for (const value of [0, 7, 999, 1000, 65_536, 1_234_567, -1234, Number.MAX_SAFE_INTEGER]) {
			expect(groupDigits(value)).toBe(new Intl.NumberFormat('en').format(value));
			expect(groupDigits(value)).toBe(new Intl.NumberFormat('zh-CN').format(value));
		}
	});

	it('writes what is not a safe integer as String() does', () => {
		expect(groupDigits(1.5)).toBe('1.5');
		expect(groupDigits(Number.NaN)).toBe('NaN');
	});
});

describe('localDateTime', () => {
	it('writes the local wall-clock time to the second', () => {
		expect(localDateTime(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05');
		expect(localDateTime(new Date(2026, 10, 26, 21, 53, 48, 999))).toBe('2026-11-26 21:53:48');
	});
});
