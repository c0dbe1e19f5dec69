// A size is one figure wherever the site states it: /verify's limit message, the triage form and
// the triage page's progress line all write decimal units rounded up to one decimal.
import { describe, expect, it } from 'vitest';
import { decimalSize, pasteTooLarge, PASTE_BOX_MAX_BYTES } from '$lib/read/input-limits';
import { byteSize } from '$lib/triage-desk/byte-size';

describe('decimalSize', () => {
	it('rounds up to one decimal, never under the size', () => {
		expect(decimalSize(2_000_000)).toEqual({ value: 2, unit: 'megabyte' });
		expect(decimalSize(2_000_001)).toEqual({ value: 2.1, unit: 'megabyte' });
		expect(decimalSize(6_050_000)).toEqual({ value: 6.1, unit: 'megabyte' });
		expect(decimalSize(999_900)).toEqual({ value: 999.9, unit: 'kilobyte' });
		// Never "1,000 kB": the unit changes where the rounded figure would reach it.
		expect(decimalSize(999_901)).toEqual({ value: 1, unit: 'megabyte' });
		expect(decimalSize(1_234)).toEqual({ value: 1.3, unit: 'kilobyte' });
		expect(decimalSize(0)).toEqual({ value: 0, unit: 'kilobyte' });
	});
});

describe('byteSize', () => {
	it('writes the figure with its unit in each language', () => {
		expect(byteSize(6_050_000, 'en')).toBe('6.1 MB');
		expect(byteSize(1_234, 'en')).toBe('1.3 kB');
		expect(byteSize(6_050_000, 'zh-CN')).toBe(
			new Intl.NumberFormat('zh-CN', { style: 'unit', unit: 'megabyte' }).format(6.1)
		);
	});

	it("states a paste as /verify's limit message does", () => {
		const paste = 'x'.repeat(PASTE_BOX_MAX_BYTES + 1_050_000);
		const told = pasteTooLarge(paste);
		expect(told?.params.size).toBe('6.1');
		expect(byteSize(paste.length, 'en')).toBe('6.1 MB');
	});
});
