// The bulk path's readers of the Authorization header and the URL: the common shapes only, read
// with a few comparisons and one pass, no regular expressions or URL objects. Each answers null
// whenever it is not sure, and the caller then asks the core's parseAuthorization and
// requestTarget, which decide everything else (and word every error). Where they answer, they
// answer what the core would: tests/unit/triage-fast-parse.test.ts compares them on random and
// hostile input.
import type { MacHeaderParams } from '$lib/mac';
import { decodeShape } from '$lib/diagnosis/likely-client';
import { SAMPLE_NONCES } from '$lib/diagnosis/client-profiles';
import { NONCES, SEPARATORS, TS_STYLES } from '$lib/diagnosis/header-shape';

const COMMA = 0x2c;
const SPACE = 0x20;
const EQUALS = 0x3d;

/** Where fastAuthorization writes the header's shape, when asked for it. */
export interface ShapeOut {
	/** headerShape's integer for the header just read (set only when it answers). */
	shape: number;
}

/**
 * `MAC id="…",ts="…",nonce="…",mac="…"` (and ext), joined by `,` or `, `, in any order, each once,
 * lower-case names, quoted values with no backslash, quote or line break, id, ts, nonce and mac not
 * empty, nothing before or after: the header as clients write it. Null for anything else. Given
 * `out`, the same pass also tells the header's shape, as headerShape
 * ($lib/diagnosis/header-shape.ts) would in a pass of its own: the likely client's input.
 */
export function fastAuthorization(header: string, out?: ShapeOut): MacHeaderParams | null {
	if (!header.startsWith('MAC ')) return null;
	const length = header.length;
	let id: string | undefined;
	let ts: string | undefined;
	let nonce: string | undefined;
	let mac: string | undefined;
	let ext: string | undefined;
	let at = 4;
	// For the shape: separators `,` and `, ` seen, and whether id, ts, nonce, mac came in that order.
	let commas = 0;
	let commaSpaces = 0;
	let position = 0;
	let usualOrder = true;
	// A backslash escapes, a line break may come from wrapping: the core reads those (a value is the
	// only place one could stand in a header read here).
	if (header.indexOf('\\') >= 0 || header.indexOf('\n') >= 0 || header.indexOf('\r') >= 0)
		return null;
	for (;;) {
		// The name and `="`: which of the five, told without a new string.
		let start: number;
		const first = header.charCodeAt(at);
		if (first === 0x69 && header.startsWith('id="', at)) start = at + 4;
		else if (first === 0x74 && header.startsWith('ts="', at)) start = at + 4;
		else if (first === 0x6e && header.startsWith('nonce="', at)) start = at + 7;
		else if (first === 0x6d && header.startsWith('mac="', at)) start = at + 5;
		else if (first === 0x65 && header.startsWith('ext="', at)) start = at + 5;
		else return null;
		const end = header.indexOf('"', start);
		if (end < 0) return null;
		const value = header.slice(start, end);
		if (first === 0x69) {
			if (id !== undefined) return null;
			id = value;
			if (++position !== 1) usualOrder = false;
		} else if (first === 0x74) {
			if (ts !== undefined) return null;
			ts = value;
			if (++position !== 2) usualOrder = false;
		} else if (first === 0x6e) {
			if (nonce !== undefined) return null;
			nonce = value;
			if (++position !== 3) usualOrder = false;
		} else if (first === 0x6d) {
			if (mac !== undefined) return null;
			mac = value;
			if (++position !== 4) usualOrder = false;
		} else {
			if (ext !== undefined) return null;
			ext = value;
		}
		at = end + 1;
		if (at === length) break;
		if (header.charCodeAt(at) !== COMMA) return null;
		at += 1;
		if (header.charCodeAt(at) === SPACE) {
			at += 1;
			commaSpaces += 1;
		} else commas += 1;
		if (at >= length || header.charCodeAt(at) === EQUALS) return null;
	}
	if (!id || !ts || !nonce || !mac) return null;
	if (out !== undefined) {
		// Mixed separators are 'other' (2), as headerShape counts them.
		const separator = commas > 0 && commaSpaces > 0 ? 2 : commaSpaces > 0 ? 1 : 0;
		out.shape = SHAPE_OF[
			((((separator * 2 + (usualOrder ? 0 : 1)) * 2 + (ext === undefined ? 0 : 1)) * NONCES.length +
				nonceStyleOf(nonce)) *
				TS_STYLES.length +
				tsStyleOf(ts)) as number
		] as number;
	}
	return ext === undefined ? { id, ts, nonce, mac } : { id, ts, nonce, mac, ext };
}

// ─── The header's shape, read with it ─────────────────────────────────────────────────────────
// The styles of a nonce and a ts as header-shape.ts tells them, from the values read; the integer
// itself is looked up among those decodeShape reads back, so that its bits stay header-shape.ts's.
// tests/unit/triage-fast-parse.test.ts holds the two to the same answers.

/**
 * headerShape's integer of a readable, quoted header, by separator, order, ext, nonce style and ts
 * style (in the orders header-shape.ts gives them): the lowest integer decodeShape reads back as those features, which
 * is the one headerShape writes.
 */
const SHAPE_OF = (() => {
	const table = new Int32Array(3 * 2 * 2 * NONCES.length * TS_STYLES.length).fill(-1);
	for (let shape = 4095; shape >= 0; shape--) {
		const features = decodeShape(shape);
		if (!features.readable || !features.quoted) continue;
		const index =
			(((SEPARATORS.indexOf(features.separator) * 2 + (features.usualOrder ? 0 : 1)) * 2 +
				(features.ext ? 1 : 0)) *
				NONCES.length +
				NONCES.indexOf(features.nonce)) *
				TS_STYLES.length +
			TS_STYLES.indexOf(features.ts);
		table[index] = shape;
	}
	return table;
})();

/** 1 for the characters of standard Base64 (not `=`), by character code below 128. */
const BASE64 = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
	BASE64[char.charCodeAt(0)] = 1;

/** The nonce's style, as an index of NONCES. */
function nonceStyleOf(nonce: string): number {
	const length = nonce.length;
	const first = nonce.charCodeAt(0);
	// The samples' nonces start with "8" (shell, Go) or "=" (PHP).
	if (first === 0x38) {
		if (nonce === SAMPLE_NONCES['shell-sample']) return 4;
		if (nonce === SAMPLE_NONCES['go-sample']) return 6;
	} else if (first === EQUALS && nonce === SAMPLE_NONCES['php-sample']) return 5;
	if (length === 24) {
		for (let i = 0; i < 22; i++) if (BASE64[nonce.charCodeAt(i)] !== 1) return 0;
		// 16 bytes leave the last character's low 4 bits 0: A, Q, g or w.
		const last = nonce.charCodeAt(21);
		if (last !== 0x41 && last !== 0x51 && last !== 0x67 && last !== 0x77) return 0;
		return nonce.charCodeAt(22) === EQUALS && nonce.charCodeAt(23) === EQUALS ? 1 : 0;
	}
	if (length === 16) {
		let letters = true;
		for (let i = 0; i < length && letters; i++) {
			const code = nonce.charCodeAt(i) | 0x20;
			letters = code >= 0x61 && code <= 0x7a;
		}
		if (letters) return 2;
	}
	if (length >= 1 && length <= 10) {
		// .NET's Random.Next(): 0 to 2^31 - 2, in decimal with no leading zero.
		if (length > 1 && first === 0x30) return 0;
		let value = 0;
		for (let i = 0; i < length; i++) {
			const code = nonce.charCodeAt(i);
			if (code < 0x30 || code > 0x39) return 0;
			value = value * 10 + (code - 0x30);
		}
		return value <= 2_147_483_646 ? 3 : 0;
	}
	return 0;
}

/** The ts's style, as an index of TS_STYLES. */
function tsStyleOf(ts: string): number {
	const length = ts.length;
	for (let i = 0; i < length; i++) {
		const code = ts.charCodeAt(i);
		if (code < 0x30 || code > 0x39) return 0;
	}
	const leadingZero = ts.charCodeAt(0) === 0x30;
	if (length === 10) return leadingZero ? 1 : 3;
	if (leadingZero) return length === 1 ? 2 : 0;
	if (length < 10) return 2;
	return length === 13 ? 4 : 0;
}

export interface FastTarget {
	uri: string;
	host: string;
	port: string;
}

/** a-z 0-9 and -: a host label's characters, lower case only (the parser would lower them). */
function isLabelChar(code: number): boolean {
	return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

/**
 * Path and query characters that every URL form leaves as they are: unreserved, sub-delims but `'`,
 * `:`, `@`, `/` and `%` (escapes are kept as typed); `?` only in the query.
 */
const KEPT = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%')
	KEPT[char.charCodeAt(0)] = 1;

/**
 * `https://host[:port]/path[?query]` with a lower-case DNS name whose last label starts with a
 * letter (no IP address, no punycode), a port of 1 to 4 digits not starting with 0, a path from `/`
 * with no `.` segment and no `%2e`, and only characters no URL form changes: the same request
 * target whether the URI is taken as written or as a browser sends it. Null for anything else.
 */
export function fastTarget(url: string): FastTarget | null {
	let at: number;
	let defaultPort: string;
	if (url.startsWith('https://')) {
		at = 8;
		defaultPort = '443';
	} else if (url.startsWith('http://')) {
		at = 7;
		defaultPort = '80';
	} else return null;
	const length = url.length;
	const hostStart = at;
	let labelStart = at;
	for (; at < length; at++) {
		const code = url.charCodeAt(at);
		if (code === 0x2e) {
			if (at === labelStart || url.charCodeAt(at - 1) === 0x2d) return null;
			labelStart = at + 1;
		} else if (!isLabelChar(code)) break;
		else if (at === labelStart && code === 0x2d) return null;
	}
	// The last label: not empty, not ending in -, starting with a letter (not a number, not IPv4).
	if (at === labelStart || url.charCodeAt(at - 1) === 0x2d) return null;
	const first = url.charCodeAt(labelStart);
	if (!(first >= 0x61 && first <= 0x7a)) return null;
	const host = url.slice(hostStart, at);
	if (host.includes('xn--')) return null;
	let port = defaultPort;
	if (url.charCodeAt(at) === 0x3a) {
		const portStart = at + 1;
		at = portStart;
		while (at < length && at - portStart <= 4) {
			const code = url.charCodeAt(at);
			if (code < 0x30 || code > 0x39) break;
			at++;
		}
		const digits = at - portStart;
		if (digits === 0 || digits > 4 || url.charCodeAt(portStart) === 0x30) return null;
		port = url.slice(portStart, at);
	}
	if (url.charCodeAt(at) !== 0x2f) return null;
	const uriStart = at;
	let inQuery = false;
	for (; at < length; at++) {
		const code = url.charCodeAt(at);
		if (code === 0x3f) {
			inQuery = true;
			continue;
		}
		if (code >= 128 || KEPT[code] !== 1) return null;
		if (!inQuery) {
			if (code === 0x2e && url.charCodeAt(at - 1) === 0x2f) return null;
			// %2e is a dot to the browser's parser.
			if (
				code === 0x25 &&
				url.charCodeAt(at + 1) === 0x32 &&
				(url.charCodeAt(at + 2) | 0x20) === 0x65
			)
				return null;
		}
	}
	return { uri: url.slice(uriStart), host, port };
}
