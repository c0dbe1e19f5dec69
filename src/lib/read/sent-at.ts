/** Where a paste says when it was sent: a HAR entry's startedDateTime, a Date header, a log line. */
export type SentAtSource = 'har' | 'date' | 'log';

/** When a pasted request was sent (or signed), as the paste says it. */
export interface SentAt {
	/** The instant, in milliseconds since 1970. */
	ms: number;
	/** Where the paste says it (the clock check names it). */
	source: SentAtSource;
	/** False for a time written without a zone, which is then read as UTC. */
	zoneKnown: boolean;
}

/**
 * A log line's leading time: `2021-04-12 10:02:30,118`, ISO 8601 with `T` and a zone, `2021/04/12`,
 * in brackets or not. A time without a zone is read as UTC, and `zoneKnown` says so.
 */
const LOG_TIME =
	/^[ \t]*\[?(\d{4})[-/](\d{2})[-/](\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(?:[ \t]*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?))?\]?/;

export interface LogTime {
	sentAt: SentAt;
	/** How many characters of the line the time takes. */
	length: number;
}

/** The time a log line starts with, or null when it starts with none. */
export function logLineTime(line: string): LogTime | null {
	const match = LOG_TIME.exec(line);
	if (!match) return null;
	const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
	const local = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
		Number(fraction.slice(0, 3).padEnd(3, '0'))
	);
	if (Number.isNaN(local) || Number(month) > 12 || Number(day) > 31 || Number(hour) > 23)
		return null;
	let offsetMinutes = 0;
	if (zone !== undefined && /^[+-]/.test(zone)) {
		const digits = zone.replace(/\D/g, '');
		const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
		offsetMinutes = zone.startsWith('-') ? -minutes : minutes;
	}
	return {
		sentAt: { ms: local - offsetMinutes * 60_000, source: 'log', zoneKnown: zone !== undefined },
		length: match[0].length
	};
}

/** A `Date` header (an HTTP-date: `Mon, 12 Apr 2021 10:02:30 GMT`), or null when it is not one. */
export function httpDate(value: string): SentAt | null {
	if (
		!/^[A-Za-z]{3},? \d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} (?:GMT|UTC)$/.test(
			value.trim()
		)
	)
		return null;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? null : { ms, source: 'date', zoneKnown: true };
}

/** An ISO 8601 time with its zone, as a HAR's startedDateTime is; null when it is not one. */
export function isoTime(value: string, source: SentAtSource): SentAt | null {
	if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/.test(value.trim()))
		return null;
	const ms = Date.parse(value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
	return Number.isNaN(ms) ? null : { ms, source, zoneKnown: true };
}

/** An instant for a message: `2021-04-12 10:02:30 UTC`. */
export function formatInstant(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A time as a log line starts with it, which logLineTime reads back as it was: ISO 8601 with its
 * zone, or without one (read as UTC) when the time was written without one.
 */
export function logLineTimeText(sentAt: SentAt): string {
	const iso = new Date(sentAt.ms).toISOString();
	return sentAt.zoneKnown ? iso : iso.slice(0, -1);
}
