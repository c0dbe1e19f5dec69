import { describe, expect, it } from 'vitest';
import { clockCheck, formatDuration } from '$lib/verify';

const NOW = 1_700_000_000_000;

describe('clockCheck', () => {
	it('accepts a ts within the window and says the window is assumed', () => {
		const check = clockCheck('1699999990', NOW);
		expect(check).toMatchObject({ ageSeconds: 10, inFuture: false, likelyInvalidTime: false });
		expect(check.message).toBe(
			'ts is 10 seconds old: within ±5 minutes (an assumption: the spec does not state the allowed difference).'
		);
	});

	it('flags an old ts as likely invalid_time', () => {
		const check = clockCheck(String(1_700_000_000 - 3_725), NOW);
		expect(check).toMatchObject({ ageSeconds: 3_725, inFuture: false, likelyInvalidTime: true });
		expect(check.message).toMatch(/^ts is 1 hour 2 minutes old: outside ±5 minutes .*invalid_time/);
	});

	it('flags a ts ahead of now, and honours another window', () => {
		const check = clockCheck('1700000120', NOW, 60);
		expect(check).toMatchObject({ ageSeconds: -120, inFuture: true, likelyInvalidTime: true });
		expect(check.message).toMatch(/2 minutes in the future: outside ±1 minute/);
		expect(clockCheck('1700000120', NOW, 300).likelyInvalidTime).toBe(false);
	});

	it('treats the window edge as inside', () => {
		expect(clockCheck('1699999700', NOW).likelyInvalidTime).toBe(false);
		expect(clockCheck('1699999699', NOW).likelyInvalidTime).toBe(true);
	});

	it('recognises a ts in milliseconds', () => {
		const check = clockCheck('1700000000123', NOW);
		expect(check.likelyInvalidTime).toBe(true);
		expect(check.message).toMatch(/milliseconds/);
	});

	it('refuses a ts that is not whole seconds', () => {
		expect(clockCheck('1700000000.5', NOW)).toMatchObject({
			ageSeconds: null,
			likelyInvalidTime: true
		});
		expect(clockCheck('', NOW).message).toMatch(/not whole seconds/);
	});
});

describe('formatDuration', () => {
	it.each([
		[0, '0 seconds'],
		[1, '1 second'],
		[61, '1 minute 1 second'],
		[3_600, '1 hour'],
		[90_061, '1 day 1 hour'],
		[-125, '2 minutes 5 seconds']
	])('%i seconds read %j', (seconds, text) => {
		expect(formatDuration(seconds)).toBe(text);
	});
});
