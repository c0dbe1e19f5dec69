import { describe, expect, it } from 'vitest';
import { clockCheck, formatDuration } from '$lib/diagnosis';
import { english } from './verify-english';

const NOW = 1_700_000_000_000;

describe('clockCheck', () => {
	// Sent at NOW, as a Date header says.
	const SENT = { ms: NOW, source: 'date', zoneKnown: true } as const;

	it('accepts a ts within the window of its send time and says the window is assumed', () => {
		const check = clockCheck('1699999990', NOW + 86_400_000, 300, SENT);
		expect(check).toMatchObject({ ageSeconds: 10, inFuture: false, likelyInvalidTime: false });
		expect(english(check.message)).toMatch(
			/^ts is 10 seconds before the logged time .*: within ±5 minutes \(an assumption: the spec does not state the allowed difference\)\./
		);
	});

	it('does not judge the window without a send time: says so, and what to ask for', () => {
		// A pasted header read an hour after it was signed: the hour says nothing of when it was sent.
		const check = clockCheck(String(1_700_000_000 - 3_725), NOW);
		expect(check).toMatchObject({ ageSeconds: 3_725, likelyInvalidTime: false, against: 'now' });
		expect(english(check.message)).toBe(
			'ts is 1 hour 2 minutes old now, but nothing here says when the request was sent, so whether it was within ±5 minutes (an assumption: the spec does not state the allowed difference) when sent cannot be checked. ' +
				"Ask the customer when they sent it: their log line's time, the request's Date header, or a HAR of it."
		);
		expect(clockCheck('1699999990', NOW).likelyInvalidTime).toBe(false);
	});

	it('flags a ts too old at its send time as likely invalid_time', () => {
		const check = clockCheck(String(1_700_000_000 - 3_725), NOW, 300, SENT);
		expect(check).toMatchObject({ ageSeconds: 3_725, inFuture: false, likelyInvalidTime: true });
		expect(english(check.message)).toMatch(
			/^ts is 1 hour 2 minutes before the logged time .*outside ±5 minutes .*invalid_time/
		);
	});

	it('flags a ts ahead of its send time, and honours another window', () => {
		const check = clockCheck('1700000120', NOW, 60, SENT);
		expect(check).toMatchObject({ ageSeconds: -120, inFuture: true, likelyInvalidTime: true });
		expect(english(check.message)).toMatch(/2 minutes after the logged time .*outside ±1 minute/);
		expect(clockCheck('1700000120', NOW, 300, SENT).likelyInvalidTime).toBe(false);
	});

	it('treats the window edge as inside', () => {
		expect(clockCheck('1699999700', NOW, 300, SENT).likelyInvalidTime).toBe(false);
		expect(clockCheck('1699999699', NOW, 300, SENT).likelyInvalidTime).toBe(true);
	});

	it('recognises a ts in milliseconds', () => {
		const check = clockCheck('1700000000123', NOW);
		expect(check.likelyInvalidTime).toBe(true);
		expect(english(check.message)).toMatch(/milliseconds/);
	});

	it('refuses a ts that is not whole seconds', () => {
		expect(clockCheck('1700000000.5', NOW)).toMatchObject({
			ageSeconds: null,
			likelyInvalidTime: true
		});
		expect(english(clockCheck('', NOW).message)).toMatch(/not whole seconds/);
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

describe('clockCheck against when the request was sent', () => {
	const TS = '1618221750'; // 2021-04-12 10:02:30 UTC
	const sentMs = Date.UTC(2021, 3, 12, 10, 2, 32);

	it("judges an old HAR's ts by the entry's time, and says its age today is beside the point", () => {
		const check = clockCheck(TS, NOW, 300, {
			ms: sentMs,
			source: 'har',
			zoneKnown: true
		});
		expect(check).toMatchObject({ ageSeconds: 2, likelyInvalidTime: false, against: 'sent' });
		expect(english(check.message)).toBe(
			"ts is 2 seconds before the logged time 2021-04-12 10:02:32 UTC (the HAR entry's startedDateTime): " +
				'within ±5 minutes (an assumption: the spec does not state the allowed difference). ' +
				'Judged against that time, not now: it is 946 days 12 hours old today, which matters only if the header is sent again.'
		);
		expect(english(clockCheck(TS, NOW).message)).toMatch(
			/946 days 12 hours old now, but nothing here says when the request was sent/
		);
	});

	it('still flags a signer whose clock was off when it sent', () => {
		const check = clockCheck(TS, NOW, 300, {
			ms: sentMs + 3_600_000,
			source: 'date',
			zoneKnown: true
		});
		expect(check.likelyInvalidTime).toBe(true);
		expect(english(check.message)).toMatch(
			/^ts is 1 hour before the logged time .*invalid_time\. The signer's clock was behind\./
		);
	});

	it('reads a log time without a zone as UTC, and names the zone that explains whole hours', () => {
		const source = 'log';
		expect(
			english(clockCheck(TS, NOW, 300, { ms: sentMs - 2000, source, zoneKnown: false }).message)
		).toMatch(
			/^ts is the same second as the log line's time \(2021-04-12 10:02:30, read as UTC: it names no time zone\): within/
		);
		const beijing = clockCheck(TS, NOW, 300, {
			ms: sentMs + 8 * 3_600_000,
			source,
			zoneKnown: false
		});
		expect(beijing).toMatchObject({ ageSeconds: 2, likelyInvalidTime: false });
		expect(english(beijing.message)).toMatch(
			/^the log line's time \(2021-04-12 18:02:32\) names no time zone\. If it is UTC\+08:00, ts is 2 seconds before it: within/
		);
	});
});
