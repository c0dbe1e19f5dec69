import { describe, expect, it } from 'vitest';
import { groupDigits, localDateTime } from '../../src/lib/i18n/plain-format';

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
	it('writes the local wall-clock time as toLocaleString does, in English and in Chinese', () => {
		const dates = [
			new Date(2026, 0, 2, 0, 5, 9),
			new Date(2012, 4, 7, 12, 0, 0),
			new Date(2026, 10, 26, 21, 53, 48, 999),
			new Date(1999, 11, 31, 23, 59, 59),
			new Date(2030, 6, 4, 11, 59, 1)
		];
		for (const date of dates) {
			expect(localDateTime(date, 'en')).toBe(date.toLocaleString('en'));
			expect(localDateTime(date, 'zh-CN')).toBe(date.toLocaleString('zh-CN'));
		}
		expect(localDateTime(new Date(2012, 4, 7, 12, 0, 0), 'zh-CN')).toBe('2012/5/7 12:00:00');
	});
});
