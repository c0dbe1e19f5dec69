// Numbers and times written without Intl. The first use of Intl in a page loads its locale data,
// a task of 30 to 70 ms on a busy 2-core machine (four times that on a phone), so what a page shows
// as it opens, or updates every second, is written here: for the site's languages, English and
// Chinese, what Intl writes too (a unit test holds them to it).

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

/**
 * A date as this machine's wall-clock time, to the second, as Date.toLocaleString writes it in the
 * site's two languages: "2026/11/26 21:53:48" for zh-CN, "11/26/2026, 9:53:48 PM" for en (and any
 * other locale: the site has no other).
 */
export function localDateTime(date: Date, locale: string): string {
	const [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
	const [hours, minutes, seconds] = [date.getHours(), date.getMinutes(), date.getSeconds()];
	if (locale === 'zh-CN')
		return `${year}/${month}/${day} ${two(hours)}:${two(minutes)}:${two(seconds)}`;
	const hour = hours % 12 === 0 ? 12 : hours % 12;
	return `${month}/${day}/${year}, ${hour}:${two(minutes)}:${two(seconds)} ${hours < 12 ? 'AM' : 'PM'}`;
}
