import { describe, expect, it } from 'vitest';
import { isTimestamp, padTimestamp, randomNonce, timestamp, timestampToDate } from '$lib/mac';

describe('timestamp', () => {
	it('is whole seconds, rounded down', () => {
		expect(timestamp(1_700_000_000_999)).toBe('1700000000');
	});

	it('left-pads to 10 digits when asked', () => {
		expect(timestamp(123_456_000, { pad10: true })).toBe('0000123456');
		expect(timestamp(123_456_000)).toBe('123456');
	});

	it('reads back into the instant it names', () => {
		expect(timestampToDate('1700000000')?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
		expect(timestampToDate('0000123456')?.getTime()).toBe(123_456_000);
		expect(timestampToDate('17e8')).toBeNull();
		expect(isTimestamp(' 1')).toBe(false);
	});
});

describe('randomNonce', () => {
	it('is 16 random bytes in Base64 by default', () => {
		const value = randomNonce();
		expect(value).toMatch(/^[A-Z0-9+/]{22}==$/i);
		expect(atob(value)).toHaveLength(16);
	});

	it('is 16 ASCII letters when asked', () => {
		expect(randomNonce('letters')).toMatch(/^[A-Z]{16}$/i);
	});

	it('differs between calls', () => {
		const seen = new Set(Array.from({ length: 50 }, () => randomNonce('letters')));
		expect(seen.size).toBe(50);
	});
});

describe('padTimestamp', () => {
	it('adds or takes off the 10-digit padding of a ts of digits', () => {
		expect(padTimestamp('123456', true)).toBe('0000123456');
		expect(padTimestamp('0000123456', false)).toBe('123456');
		expect(padTimestamp('1700000000', true)).toBe('1700000000');
		expect(padTimestamp('0', false)).toBe('0');
	});

	it('leaves anything that is not digits exactly as typed', () => {
		expect(padTimestamp(' 12', true)).toBe(' 12');
		expect(padTimestamp('17e8', false)).toBe('17e8');
	});
});
