// A file's or a paste's size as the triage page writes it: decimalSize's figure (the one /verify
// states its limit in), in the page's language. The formats are made once each: a number format
// takes a millisecond or more to make, and the progress line is written four times a second.
import { decimalSize } from '$lib/read/input-limits';

const formats = new Map<string, Intl.NumberFormat>();

/** `bytes` as "6.1 MB" or "820.3 kB" (rounded up to one decimal), in `locale`. */
export function byteSize(bytes: number, locale: string): string {
	const { value, unit } = decimalSize(bytes);
	const key = `${locale} ${unit}`;
	let format = formats.get(key);
	if (format === undefined) {
		format = new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 });
		formats.set(key, format);
	}
	return format.format(value);
}
