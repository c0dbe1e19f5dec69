import { text, type Text } from '$lib/i18n/text';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { isTimestamp } from '$lib/mac';
import { sentences } from '$lib/i18n/shown-text';
import { formatInstant, type SentAt, type SentAtSource } from '$lib/read/sent-at';

export interface ClockCheck {
	/** Seconds between the ts and now; negative when the ts is ahead. Null when ts is not seconds. */
	ageSeconds: number | null;
	inFuture: boolean;
	/**
	 * Whether the service will likely answer invalid_time for this ts: ts not in seconds, or outside
	 * the window at the time it was sent. False without a send time (the window is not checked then).
	 */
	likelyInvalidTime: boolean;
	/** What the ts was judged against: when the paste says the request was sent, or now. */
	against: 'sent' | 'now';
	message: Text;
}

type DurationUnit = 'day' | 'hour' | 'minute' | 'second';

const UNITS: [DurationUnit, number][] = [
	['day', 86_400],
	['hour', 3_600],
	['minute', 60],
	['second', 1]
];

/**
 * A duration as at most two units, largest first ("3 minutes 20 seconds"): precise enough for a
 * clock difference. Empty for less than half a second.
 */
export function durationParts(seconds: number): { unit: DurationUnit; count: number }[] {
	let rest = Math.abs(Math.round(seconds));
	const parts: { unit: DurationUnit; count: number }[] = [];
	for (const [unit, size] of UNITS) {
		const count = Math.floor(rest / size);
		rest -= count * size;
		if (count > 0 && parts.length < 2) parts.push({ unit, count });
		if (parts.length > 0 && count === 0) break;
	}
	return parts;
}

/** "3 minutes 20 seconds", in English: for pages that render no diagnosis Texts. */
export function formatDuration(seconds: number): string {
	const parts = durationParts(seconds).map(
		({ unit, count }) => `${count} ${unit}${count === 1 ? '' : 's'}`
	);
	return parts.length > 0 ? parts.join(' ') : '0 seconds';
}

const UNIT_TEXTS = {
	day: ['diagnosis_day_one', 'diagnosis_day_other'],
	hour: ['diagnosis_hour_one', 'diagnosis_hour_other'],
	minute: ['diagnosis_minute_one', 'diagnosis_minute_other'],
	second: ['diagnosis_second_one', 'diagnosis_second_other']
} as const;

/** formatDuration as a Text, in the page's language ("3 分钟 20 秒"). */
export function durationText(seconds: number): Text {
	const [first, second] = durationParts(seconds).map(({ unit, count }) =>
		text(UNIT_TEXTS[unit][count === 1 ? 0 : 1], { count })
	);
	if (first === undefined) return text('diagnosis_second_other', { count: 0 });
	return second === undefined ? first : text('diagnosis_duration_two', { first, second });
}

const SOURCES = {
	har: 'diagnosis_source_har',
	date: 'diagnosis_source_date',
	log: 'diagnosis_source_log'
} as const satisfies Record<SentAtSource, string>;

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
 * HAR entry's startedDateTime, a Date header, a log line's time): an old log is judged by when it
 * was written, not by its age today. Without a send time the window is not judged at all: the
 * message gives the ts's age now and asks for the time it was sent. The spec does not say how much difference
 * the service allows (§5.8), so the window is an assumption the message states.
 */
export function clockCheck(
	ts: string,
	nowMs: number,
	windowSeconds = TS_WINDOW_SECONDS,
	sent: SentAt | null = null
): ClockCheck {
	const against = sent === null ? 'now' : 'sent';
	const window = text('diagnosis_clock_window', { duration: durationText(windowSeconds) });
	if (!isTimestamp(ts)) {
		return {
			ageSeconds: null,
			inFuture: false,
			likelyInvalidTime: true,
			against,
			message: text('diagnosis_clock_not_seconds', { ts: ts.slice(0, 30) })
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
			message: text('diagnosis_clock_milliseconds', { ts })
		};
	}
	const likelyInvalidTime = Math.abs(ageSeconds) > windowSeconds;
	const distance = durationText(ageSeconds);
	const age = (seconds: number) =>
		text(seconds < 0 ? 'diagnosis_clock_future' : 'diagnosis_clock_old', {
			duration: durationText(seconds)
		});
	if (sent === null) {
		// A pasted header or a share link opened later has no send time: the moment it is read says
		// nothing of the window at the moment it was sent, so the window is not judged.
		return {
			ageSeconds,
			inFuture,
			likelyInvalidTime: false,
			against,
			message: text('diagnosis_clock_unchecked', { when: age(ageSeconds), window })
		};
	}

	const nowAge = Math.floor(nowMs / 1000) - Number(ts);
	const today =
		Math.abs(nowAge) > windowSeconds ? [text('diagnosis_clock_today', { age: age(nowAge) })] : [];
	const withToday = (message: Text) =>
		sentences('diagnosis_sentences', [message, ...today]) as Text;
	const relation = (seconds: number, object: Text) =>
		seconds === 0
			? text('diagnosis_clock_same_second', { object })
			: text(seconds > 0 ? 'diagnosis_clock_before' : 'diagnosis_clock_after', {
					duration: durationText(seconds),
					object
				});
	const source = text(SOURCES[sent.source]);
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
				message: withToday(
					text('diagnosis_clock_zone_guess', {
						source,
						written,
						zone: zoneName(offset),
						when: relation(ageSeconds - offset, text('diagnosis_clock_it')),
						window,
						distance
					})
				)
			};
		}
		const when = relation(ageSeconds, text('diagnosis_clock_stated_utc', { source, written }));
		return {
			ageSeconds,
			inFuture,
			likelyInvalidTime,
			against,
			message: withToday(
				likelyInvalidTime
					? text('diagnosis_clock_outside_zone', { when, window })
					: text('diagnosis_clock_within', { when, window })
			)
		};
	}
	const when = relation(
		ageSeconds,
		text('diagnosis_clock_stated_sent', { instant: formatInstant(sent.ms), source })
	);
	const message = withToday(
		likelyInvalidTime
			? text('diagnosis_clock_outside', {
					when,
					window,
					clock: text(inFuture ? 'diagnosis_clock_was_ahead' : 'diagnosis_clock_was_behind')
				})
			: text('diagnosis_clock_within', { when, window })
	);
	return { ageSeconds, inFuture, likelyInvalidTime, against, message };
}
