// The bytes a signer's platform makes of a mac_key's text when it does not encode it as UTF-8, as
// checked against the runtimes themselves (Mono 6.8's Encoding.ASCII, OpenJDK 17's String.getBytes):
//   "é"  → ASCII 3f, ISO-8859-1 e9, GBK a8 a6;  "中" → 3f, 3f, d6 d0;
//   "😀" → .NET ASCII 3f 3f (one "?" per UTF-16 code unit), Java 3f (one per character) in all three;
//   a lone surrogate → 3f everywhere.
// Each runs in time linear in the key; GBK's table is the platform's own decoder, read once.

const QUESTION = 0x3f;

/** Whether `key` has a character outside ASCII, the only keys these encodings change. */
export function hasNonAscii(key: string): boolean {
	for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0x7f) return true;
	return false;
}

/** Whether `key` has a character of U+0080–U+00FF, the only ones ISO-8859-1 keeps apart from ASCII. */
export function hasLatin1Only(key: string): boolean {
	for (let i = 0; i < key.length; i++) {
		const code = key.charCodeAt(i);
		if (code > 0x7f && code <= 0xff) return true;
	}
	return false;
}

/** Whether `key` has a character beyond U+FFFF, written as two UTF-16 code units. */
export function hasSurrogatePair(key: string): boolean {
	for (let i = 0; i + 1 < key.length; i++) {
		const code = key.charCodeAt(i);
		const next = key.charCodeAt(i + 1);
		if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return true;
	}
	return false;
}

/** .NET's Encoding.ASCII.GetBytes (Mono, so Unity): every UTF-16 code unit over 0x7F as "?". */
export function asciiPerCodeUnit(key: string): Uint8Array {
	const bytes = new Uint8Array(key.length);
	for (let i = 0; i < key.length; i++) {
		const code = key.charCodeAt(i);
		bytes[i] = code > 0x7f ? QUESTION : code;
	}
	return bytes;
}

/**
 * Java's String.getBytes in a single-byte charset, its encoder's replacement "?" for each character
 * (code point, a surrogate pair included) that the charset lacks: US-ASCII keeps up to U+007F,
 * ISO-8859-1 up to U+00FF.
 */
export function singleBytePerCharacter(key: string, highest: 0x7f | 0xff): Uint8Array {
	const bytes: number[] = [];
	for (const char of key) {
		const code = char.codePointAt(0) ?? QUESTION;
		bytes.push(code > highest ? QUESTION : code);
	}
	return Uint8Array.from(bytes);
}

/** GBK's two-byte codes in order: lead 0x81–0xFE, trail 0x40–0xFE without 0x7F. */
const TRAILS = 190;
let gbkTable: Map<string, number> | null | undefined;

/**
 * Each character of GBK's two-byte area by its code's place, read once from the platform's own
 * decoder (TextDecoder's "gbk", which browsers and Node carry), or null where there is none. Java's
 * GBK encoder differs from that decoder at two codes (checked for every BMP character against
 * OpenJDK 17): 0xA2E3 is "€" for Java (the decoder reads U+E76C) and 0xA892 is U+2641 (U+2295).
 */
function gbkCodes(): Map<string, number> | null {
	if (gbkTable !== undefined) return gbkTable;
	try {
		const bytes = new Uint8Array(126 * TRAILS * 2);
		let at = 0;
		for (let lead = 0x81; lead <= 0xfe; lead++) {
			for (let trail = 0x40; trail <= 0xfe; trail++) {
				if (trail === 0x7f) continue;
				bytes[at++] = lead;
				bytes[at++] = trail;
			}
		}
		const decoded = new TextDecoder('gbk').decode(bytes);
		// Every pair of that range is a character of the decoder's table: one UTF-16 unit each.
		if (decoded.length !== 126 * TRAILS) throw new Error('gbk table');
		const table = new Map<string, number>();
		for (let i = 0; i < decoded.length; i++) {
			const char = decoded.charAt(i);
			if (char !== '\uFFFD' && !table.has(char)) table.set(char, i);
		}
		const place = (code: number) =>
			((code >> 8) - 0x81) * TRAILS + (code & 0xff) - 0x40 - ((code & 0xff) > 0x7f ? 1 : 0);
		table.delete('\uE76C');
		table.set('\u20AC', place(0xa2e3));
		table.delete('\u2295');
		table.set('\u2641', place(0xa892));
		gbkTable = table;
	} catch {
		gbkTable = null;
	}
	return gbkTable;
}

/**
 * Java's String.getBytes("GBK") (the platform charset of a Chinese Windows before JDK 18): ASCII as
 * it is, each character of GBK's two-byte area as its two bytes, any other as "?". Null where the
 * platform has no GBK decoder to read the table from.
 */
export function gbkBytes(key: string): Uint8Array | null {
	const table = gbkCodes();
	if (table === null) return null;
	const bytes: number[] = [];
	for (const char of key) {
		const code = char.codePointAt(0) ?? QUESTION;
		if (code <= 0x7f) {
			bytes.push(code);
			continue;
		}
		const place = table.get(char);
		if (place === undefined) bytes.push(QUESTION);
		else {
			const trail = 0x40 + (place % TRAILS);
			bytes.push(0x81 + Math.floor(place / TRAILS), trail >= 0x7f ? trail + 1 : trail);
		}
	}
	return Uint8Array.from(bytes);
}
