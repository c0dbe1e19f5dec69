// A text's UTF-8 written into a buffer the caller keeps, for the paths that encode many short
// texts: the bulk HMAC (triage/hmac/sha1.ts) and a diagnosis's table of base strings tried
// (diagnosis/search.ts).

const encoder = new TextEncoder();

/**
 * Whether TextEncoder.encodeInto costs less than copying ASCII a character at a time. In Node it is
 * a builtin of V8's and about 4 times faster than the copy on a 110-character base string (50
 * against 230 ns); in Chromium it goes through the page's bindings and is 1.5 to 3 times slower
 * (0.5–0.9 against 0.3 µs), so a browser (the triage's workers) copies ASCII itself and encodes
 * only the rest.
 */
export const ENCODE_INTO_IS_CHEAP =
	typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ===
	'string';

/**
 * Writes `text` as UTF-8 at the start of `into`, which has room for 3 bytes a UTF-16 unit, and
 * returns the number of bytes written: by TextEncoder, or (`encodeInto` false) ASCII copied here
 * and TextEncoder only for a text that is not all ASCII.
 */
export function utf8Into(
	text: string,
	into: Uint8Array,
	encodeInto: boolean = ENCODE_INTO_IS_CHEAP
): number {
	if (encodeInto) return encoder.encodeInto(text, into).written;
	const length = text.length;
	for (let i = 0; i < length; i++) {
		const code = text.charCodeAt(i);
		if (code >= 0x80) return encoder.encodeInto(text, into).written;
		into[i] = code;
	}
	return length;
}
