// Numbers and times written without Intl. The first use of Intl in a page loads its locale data,
// a task of 30 to 70 ms on a busy 2-core machine (four times that on a phone), so what a page shows
// as it opens, or updates every second, is written here; for the site's languages, English and
// Chinese, these are what Intl writes too (grouping digits), or plainer (the local time).

/**
 * An integer with its digits grouped in threes, as Intl.NumberFormat writes it in English and in
 * Chinese: 1234567 → "1,234,567". A number that is not a safe integer is written as String() does.
 */
export function groupDigits(value: number): string {
	if (!Number.isSafeInteger(value)) return String(value);
	const digits = String(Math.abs(value));
	let grouped = '';
	for (let end = digits.length; end > 0; end -= 3) {
		const group = digits.slice(Math.max(0, end - 3), end);
		grouped = grouped === '' ? group : `${group},${grouped}`;
	}
	return value < 0 ? `-${grouped}` : grouped;
}

const two = (value: number) => String(value).padStart(2, '0');

/** A date as this machine's wall-clock time, to the second: "2026-11-26 21:53:48". */
export function localDateTime(date: Date): string {
	return (
		`${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
		`${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
	);
}
