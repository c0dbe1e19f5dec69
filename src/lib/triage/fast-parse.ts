// The bulk path's readers of the Authorization header and the URL: the common shapes only, read
// with a few comparisons and one pass, no regular expressions or URL objects. Each answers null
// whenever it is not sure, and the caller then asks the core's parseAuthorization and
// requestTarget, which decide everything else (and word every error). Where they answer, they
// answer what the core would: tests/unit/triage-fast-parse.test.ts compares them on random and
// hostile input.
import type { MacHeaderParams } from '$lib/mac';

const QUOTE = 0x22;
const COMMA = 0x2c;
const SPACE = 0x20;
const EQUALS = 0x3d;

/**
 * `MAC id="…",ts="…",nonce="…",mac="…"` (and ext), joined by `,` or `, `, in any order, each once,
 * lower-case names, quoted values with no backslash, quote or line break, id, ts, nonce and mac not
 * empty, nothing before or after: the header as clients write it. Null for anything else.
 */
export function fastAuthorization(header: string): MacHeaderParams | null {
	if (!header.startsWith('MAC ')) return null;
	const length = header.length;
	let id: string | undefined;
	let ts: string | undefined;
	let nonce: string | undefined;
	let mac: string | undefined;
	let ext: string | undefined;
	let at = 4;
	for (;;) {
		const equals = header.indexOf('=', at);
		if (equals < 0 || header.charCodeAt(equals + 1) !== QUOTE) return null;
		const name = header.slice(at, equals);
		const start = equals + 2;
		const end = header.indexOf('"', start);
		if (end < 0) return null;
		for (let i = start; i < end; i++) {
			const code = header.charCodeAt(i);
			// A backslash escapes, a line break may come from wrapping: the core reads those.
			if (code === 0x5c || code === 0x0a || code === 0x0d) return null;
		}
		const value = header.slice(start, end);
		if (name === 'id') {
			if (id !== undefined) return null;
			id = value;
		} else if (name === 'ts') {
			if (ts !== undefined) return null;
			ts = value;
		} else if (name === 'nonce') {
			if (nonce !== undefined) return null;
			nonce = value;
		} else if (name === 'mac') {
			if (mac !== undefined) return null;
			mac = value;
		} else if (name === 'ext') {
			if (ext !== undefined) return null;
			ext = value;
		} else return null;
		at = end + 1;
		if (at === length) break;
		if (header.charCodeAt(at) !== COMMA) return null;
		at += 1;
		if (header.charCodeAt(at) === SPACE) at += 1;
		if (at >= length || header.charCodeAt(at) === EQUALS) return null;
	}
	if (!id || !ts || !nonce || !mac) return null;
	return ext === undefined ? { id, ts, nonce, mac } : { id, ts, nonce, mac, ext };
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
