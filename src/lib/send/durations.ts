// Durations in the page's language, through Intl: the component passes its locale.

/** Whole seconds as at most two units, largest first: "16 minutes 40 seconds", "16分钟40秒钟". */
export function formatDurationIn(locale: string, seconds: number): string {
	const units: [Intl.NumberFormatOptions['unit'], number][] = [
		['day', 86_400],
		['hour', 3_600],
		['minute', 60],
		['second', 1]
	];
	const count = (unit: string, value: number) =>
		new Intl.NumberFormat(locale, {
			style: 'unit',
			unit,
			unitDisplay: 'long',
			useGrouping: false
		}).format(value);
	let rest = Math.abs(Math.round(seconds));
	const parts: string[] = [];
	for (const [unit = 'second', size] of units) {
		const value = Math.floor(rest / size);
		rest -= value * size;
		if (value > 0 && parts.length < 2) parts.push(count(unit, value));
		if (parts.length > 0 && value === 0) break;
	}
	if (parts.length === 0) return count('second', 0);
	return new Intl.ListFormat(locale, { type: 'unit', style: 'narrow' }).format(parts);
}

/** Milliseconds, as the answer's heading shows them: "26 ms", "26毫秒". */
export function formatMilliseconds(locale: string, ms: number): string {
	return new Intl.NumberFormat(locale, {
		style: 'unit',
		unit: 'millisecond',
		useGrouping: false
	}).format(ms);
}

/** Seconds with one decimal, for the retry timeline. */
export function formatTenths(locale: string, seconds: number): string {
	return new Intl.NumberFormat(locale, {
		minimumFractionDigits: 1,
		maximumFractionDigits: 1
	}).format(seconds);
}
