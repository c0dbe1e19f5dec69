import { isTimestamp } from '$lib/mac';

export interface ClockCheck {
	/** Seconds between the ts and now; negative when the ts is ahead. Null when ts is not seconds. */
	ageSeconds: number | null;
	inFuture: boolean;
	/** Whether the service will likely answer invalid_time for this ts. */
	likelyInvalidTime: boolean;
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

/**
 * How far the header's ts is from now. The spec does not say how much difference the service
 * allows (§5.8), so the window is an assumption the message states.
 */
export function clockCheck(ts: string, nowMs: number, windowSeconds = 300): ClockCheck {
	const window = `±${formatDuration(windowSeconds)} (an assumption: the spec does not state the allowed difference)`;
	if (!isTimestamp(ts)) {
		return {
			ageSeconds: null,
			inFuture: false,
			likelyInvalidTime: true,
			message: `ts "${ts.slice(0, 30)}" is not whole seconds since 1970, so expect invalid_time.`
		};
	}
	const ageSeconds = Math.floor(nowMs / 1000) - Number(ts);
	const inFuture = ageSeconds < 0;
	const nowSeconds = nowMs / 1000;
	// A millisecond ts of today is about a thousand times now in seconds.
	if (
		ts.replace(/^0+/, '').length >= 12 &&
		Math.abs(Number(ts) / 1000 - nowSeconds) < 86_400 * 366
	) {
		return {
			ageSeconds,
			inFuture,
			likelyInvalidTime: true,
			message: `ts ${ts} is in milliseconds; the service expects whole seconds, so expect invalid_time.`
		};
	}
	const likelyInvalidTime = Math.abs(ageSeconds) > windowSeconds;
	const distance = formatDuration(ageSeconds);
	const when = inFuture ? `${distance} in the future` : `${distance} old`;
	const message = likelyInvalidTime
		? `ts is ${when}: outside ${window}, so expect invalid_time. ${
				inFuture
					? "The signer's clock is ahead."
					: "The signer's clock is behind, or the header was stored and sent again later."
			}`
		: `ts is ${when}: within ${window}.`;
	return { ageSeconds, inFuture, likelyInvalidTime, message };
}
