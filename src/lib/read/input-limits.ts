// How much the /verify page reads from outside, in one place: the paste box, a share link and the
// fields beside them. Each limit is enforced where the input arrives (the box, the link) with a
// message at that field; under it, every reader runs in time linear in what it reads, in a worker
// past OFF_MAIN_THREAD_CHARS. (The log readers' own caps, a line or a HAR entry, are theirs: see
// types.ts 'too-long'.)
import { text, type Text } from '$lib/i18n/text';

/**
 * The paste box, in bytes of UTF-8 (what a file's size says, so the agent can compare): a HAR that
 * devtools saved with its response bodies, which runs to megabytes, or a few thousand log lines.
 * Beyond it is a log, which /triage streams whatever its size; a box that held more would also make
 * the browser's own text box slow to edit.
 */
export const PASTE_BOX_MAX_BYTES = 5_000_000;

/** One request pasted as text (a header, curl, a raw request, fetch, PowerShell, log lines): characters. */
export const ONE_REQUEST_MAX_CHARS = 200_000;

/**
 * A share link's fragment, in characters. A link this long is no longer one anyone shares; the
 * page that made it refuses to make a longer one, and the page that opens it says so.
 */
export const SHARE_LINK_MAX_CHARS = 300_000;

/** Each text a share link carries (the request, the URL, the logged base string): characters. */
export const SHARE_TEXT_MAX_CHARS = 100_000;

/**
 * The base string pasted from the customer's logs, in characters: seven short lines, and the link
 * carries it, so the same bound as a link's texts.
 */
export const LOGGED_BASE_STRING_MAX_CHARS = SHARE_TEXT_MAX_CHARS;

/**
 * The mac_key typed on /verify, in characters. The diagnosis signs hundreds of variants with it;
 * real keys are tens of characters.
 */
export const MAC_KEY_MAX_CHARS = 1_024;

/**
 * Past this many characters (64 Ki), the paste and a share link are read in a worker, so that the
 * page keeps answering while it works; under it, reading is synchronous, well under a frame on
 * every reader (linear: a few hundred microseconds on the bench's machine), and the page shows the
 * result with no flicker of a "reading" state.
 */
export const OFF_MAIN_THREAD_CHARS = 65_536;

/**
 * The text's size in bytes of UTF-8, counted without encoding it (no copy of a huge paste). A lone
 * surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it.
 */
export function utf8Size(value: string): number {
	let bytes = 0;
	for (let at = 0; at < value.length; at++) {
		const code = value.charCodeAt(at);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code <= 0xdbff && isLow(value.charCodeAt(at + 1))) {
			bytes += 4;
			at++;
		} else bytes += 3;
	}
	return bytes;
}

function isLow(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * A size in decimal units, as the limits are stated, with one decimal rounded up: 2,000,001 bytes
 * is 2.1 MB, never "2.0 MB, at most 2". Every page that states a size states it this way, so the
 * same file or paste is the same figure everywhere.
 */
export function decimalSize(bytes: number): { value: number; unit: 'megabyte' | 'kilobyte' } {
	// Past 999,900 bytes, kilobytes rounded up would be "1,000 kB": that is 1.0 MB.
	const unit = bytes > 999_900 ? 'megabyte' : 'kilobyte';
	return { value: Math.ceil(bytes / (unit === 'megabyte' ? 100_000 : 100)) / 10, unit };
}

/** Kilobytes (of characters, for a link), rounded up. */
export function kilobytes(chars: number): string {
	return String(Math.ceil(chars / 1_000));
}

/** Whether `paste` is over PASTE_BOX_MAX_BYTES: more than a box holds (a log, for /triage). */
export function overPasteBox(paste: string): boolean {
	// Every UTF-16 unit is one to three bytes: a paste this short needs no count.
	return paste.length * 3 > PASTE_BOX_MAX_BYTES && utf8Size(paste) > PASTE_BOX_MAX_BYTES;
}

/**
 * What the paste box says of a paste over PASTE_BOX_MAX_BYTES; null when it is within. `triage`
 * names the page for logs: a page puts its link there.
 */
export function pasteTooLarge(paste: string): Text<'limits_paste_too_large'> | null {
	if (!overPasteBox(paste)) return null;
	return text('limits_paste_too_large', {
		// Over the limit, it is megabytes: the message writes the unit.
		size: decimalSize(utf8Size(paste)).value.toFixed(1),
		max: String(PASTE_BOX_MAX_BYTES / 1_000_000),
		triage: '/triage'
	});
}
