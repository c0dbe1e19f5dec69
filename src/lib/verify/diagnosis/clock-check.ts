import { isTimestamp } from '$lib/mac';
import { formatInstant, type SentAt } from '../paste/sent-at';

export interface ClockCheck {
	/** Seconds between the ts and now; negative when the ts is ahead. Null when ts is not seconds. */
	ageSeconds: number | null;
	inFuture: boolean;
	/** Whether the service will likely answer invalid_time for this ts. */
	likelyInvalidTime: boolean;
	/** What the ts was judged against: when the paste says the request was sent, or now. */
	against: 'sent' | 'now';
	message: string;
}

/** "3 minutes 20 seconds": the two largest units are precise enough for a clock difference. */
export function formatDuration(seconds: number): string {
	const units: [string, number][] = [
		['day', 86_400],
		['hour', 3_600],
		['minute', 60],
		['second', 1]
	];
	let rest = Math.abs(Math.round(seconds));
	const parts: string[] = [];
	for (const [name, size] of units) {
		const count = Math.floor(rest / size);
		rest -= count * size;
		if (count > 0 && parts.length < 2) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
		if (parts.length > 0 && count === 0) break;
	}
	return parts.length > 0 ? parts.join(' ') : '0 seconds';
}

// The zone offsets in use, in quarter hours: from UTC-12:00 to UTC+14:00.
const QUARTER_HOUR = 900;

function zoneName(offsetSeconds: number): string {
	const minutes = Math.abs(offsetSeconds) / 60;
	const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
	const mm = String(minutes % 60).padStart(2, '0');
	return `UTC${offsetSeconds < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * How far the header's ts is from when the request was sent, when the paste says so (`sent`: a
 * HAR entry's startedDateTime, a Date header, a log line's time), else from now: an old log is
 * judged by when it was written, not by its age today. The spec does not say how much difference
 * the service allows (§5.8), so the window is an assumption the message states.
 */
export function clockCheck(
	ts: string,
	nowMs: number,
	windowSeconds = 300,
	sent: SentAt | null = null
): ClockCheck {
	const against = sent === null ? 'now' : 'sent';
	const window = `±${formatDuration(windowSeconds)} (an assumption: the spec does not state the allowed difference)`;
	if (!isTimestamp(ts)) {
		return {
			ageSeconds: null,
			inFuture: false,
			likelyInvalidTime: true,
			against,
			message: `ts "${ts.slice(0, 30)}" is not whole seconds since 1970, so expect invalid_time.`
		};
	}
	const referenceMs = sent?.ms ?? nowMs;
	const ageSeconds = Math.floor(referenceMs / 1000) - Number(ts);
	const inFuture = ageSeconds < 0;
	// A millisecond ts of today is about a thousand times now in seconds.
	if (
		ts.replace(/^0+/, '').length >= 12 &&
		Math.abs(Number(ts) / 1000 - referenceMs / 1000) < 86_400 * 366
	) {
		return {
			ageSeconds,
			inFuture,
			likelyInvalidTime: true,
			against,
			message: `ts ${ts} is in milliseconds; the service expects whole seconds, so expect invalid_time.`
		};
	}
	const likelyInvalidTime = Math.abs(ageSeconds) > windowSeconds;
	const distance = formatDuration(ageSeconds);
	if (sent === null) {
		const when = inFuture ? `${distance} in the future` : `${distance} old`;
		const message = likelyInvalidTime
			? `ts is ${when}: outside ${window}, so expect invalid_time. ${
					inFuture
						? "The signer's clock is ahead."
						: "The signer's clock is behind, or the header was stored and sent again later."
				}`
			: `ts is ${when}: within ${window}.`;
		return { ageSeconds, inFuture, likelyInvalidTime, against, message };
	}

	const nowAge = Math.floor(nowMs / 1000) - Number(ts);
	const today =
		Math.abs(nowAge) > windowSeconds
			? ` Judged against that time, not now: it is ${formatDuration(nowAge)} ${nowAge < 0 ? 'in the future' : 'old'} today, which matters only if the header is sent again.`
			: '';
	const relation = (seconds: number) =>
		seconds === 0
			? 'the same second as'
			: `${formatDuration(seconds)} ${seconds > 0 ? 'before' : 'after'}`;
	if (!sent.zoneKnown) {
		const written = formatInstant(sent.ms).replace(/ UTC$/, '');
		const offset = Math.round(ageSeconds / QUARTER_HOUR) * QUARTER_HOUR;
		if (
			likelyInvalidTime &&
			offset !== 0 &&
			offset >= -12 * 3600 &&
			offset <= 14 * 3600 &&
			Math.abs(ageSeconds - offset) <= windowSeconds
		) {
			return {
				ageSeconds: ageSeconds - offset,
				inFuture: ageSeconds - offset < 0,
				likelyInvalidTime: false,
				against,
				message: `${sent.source} (${written}) names no time zone. If it is ${zoneName(offset)}, ts is ${relation(ageSeconds - offset)} it: within ${window}; read as UTC it would be ${distance} off. Ask which zone the log writes.${today}`
			};
		}
		const stated = `${sent.source} (${written}, read as UTC: it names no time zone)`;
		return {
			ageSeconds,
			inFuture,
			likelyInvalidTime,
			against,
			message: likelyInvalidTime
				? `ts is ${relation(ageSeconds)} ${stated}: outside ${window}, so expect invalid_time, unless the log writes another zone.${today}`
				: `ts is ${relation(ageSeconds)} ${stated}: within ${window}.${today}`
		};
	}
	const stated = `the request was sent (${formatInstant(sent.ms)}, ${sent.source})`;
	const message = likelyInvalidTime
		? `ts is ${relation(ageSeconds)} ${stated}: outside ${window}, so expect invalid_time. ${
				inFuture ? "The signer's clock was ahead." : "The signer's clock was behind."
			}${today}`
		: `ts is ${relation(ageSeconds)} ${stated}: within ${window}.${today}`;
	return { ageSeconds, inFuture, likelyInvalidTime, against, message };
}
