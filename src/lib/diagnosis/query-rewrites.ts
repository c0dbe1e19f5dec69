/** What signers do to a request URI's query before signing it, as pure string functions. */
import { text, type Text } from '$lib/i18n/text';

/**
 * A rewrite with its last answer kept: a diagnosis asks it of the same URI for every mistake it
 * pairs with, and most of those leave the URI as it was. Answers are shared, never changed.
 */
function keepLast<T>(rewrite: (text: string) => T): (text: string) => T {
	let lastText: string | undefined;
	let last: T;
	return (text) => {
		if (text !== lastText) {
			last = rewrite(text);
			lastText = text;
		}
		return last;
	};
}

export function splitUri(uri: string): { path: string; query: string | null } {
	const question = uri.indexOf('?');
	return question < 0
		? { path: uri, query: null }
		: { path: uri.slice(0, question), query: uri.slice(question + 1) };
}

export function withQuery(path: string, query: string): string {
	return `${path}?${query}`;
}

/** encodeURIComponent, or null for a lone surrogate (which would throw a URIError). */
export function safeEncode(text: string): string | null {
	try {
		return encodeURIComponent(text);
	} catch {
		return null;
	}
}

/** decodeURIComponent, or null for a malformed escape (which would throw a URIError). */
export function safeDecode(text: string): string | null {
	try {
		return decodeURIComponent(text);
	} catch {
		return null;
	}
}

type QueryPair = [name: string, value: string | null];

// Loops that push, not map(): each diagnosis in a triage's threads rewrites queries, and V8 compiled
// the map()s a second time in every thread once it had met the arrays of both kinds they make.
function queryPairs(query: string): QueryPair[] {
	const pairs: QueryPair[] = [];
	for (const part of query.split('&')) {
		const equals = part.indexOf('=');
		pairs.push(equals < 0 ? [part, null] : [part.slice(0, equals), part.slice(equals + 1)]);
	}
	return pairs;
}

function joinPairs(pairs: QueryPair[]): string {
	let query = '';
	for (let index = 0; index < pairs.length; index++) {
		const [name, value] = pairs[index] as QueryPair;
		query += `${index === 0 ? '' : '&'}${value === null ? name : `${name}=${value}`}`;
	}
	return query;
}

/** Each value decoded as a form decodes it, then encoded again; null if one cannot be decoded. */
function reEncodeValues(query: string, encode: (value: string) => string): string | null {
	const pairs: QueryPair[] = [];
	for (const [name, value] of queryPairs(query)) {
		const decoded = value === null ? null : safeDecode(value.replace(/\+/g, ' '));
		if (value !== null && decoded === null) return null;
		pairs.push([name, decoded === null ? null : encode(decoded)]);
	}
	return joinPairs(pairs);
}

/** The query as the WHATWG URL parser serialises it, as browsers, Node and Deno send it. */
function parserQuery(query: string): string | null {
	try {
		return new URL(`http://h/?${query}`).search.slice(1);
	} catch {
		return null;
	}
}

const formEncode = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);

/** The ways libraries rewrite a query they were handed, named as their users know them. */
const RE_ENCODINGS: [how: Text, rewrite: (query: string) => string | null][] = [
	[text('diagnosis_reencode_parser'), parserQuery],
	[text('diagnosis_reencode_decoded_values'), (q) => reEncodeValues(q, encodeURIComponent)],
	[
		text('diagnosis_reencode_sent_values'),
		(q) =>
			joinPairs(queryPairs(q).map(([name, v]) => [name, v === null ? null : encodeURIComponent(v)]))
	],
	[text('diagnosis_reencode_form'), (q) => reEncodeValues(q, formEncode)],
	[text('diagnosis_reencode_spaces_percent'), (q) => q.replace(/\+/g, '%20')],
	[text('diagnosis_reencode_spaces_plus'), (q) => q.replace(/%20/g, '+')],
	[text('diagnosis_reencode_upper'), (q) => q.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase())],
	[text('diagnosis_reencode_lower'), (q) => q.replace(/%[0-9a-f]{2}/gi, (e) => e.toLowerCase())]
];

/** Every distinct re-encoding of `query` that differs from it, with how it was made. */
export const reEncodings = keepLast((query: string): { how: Text; query: string }[] => {
	const seen = new Set([query]);
	const result: { how: Text; query: string }[] = [];
	for (const [how, rewrite] of RE_ENCODINGS) {
		const rewritten = rewrite(query);
		if (rewritten === null || seen.has(rewritten)) continue;
		seen.add(rewritten);
		result.push({ how, query: rewritten });
	}
	return result;
});

/** The parameters sorted by name (stable for equal names), as OAuth 1.0 habits do. */
export function sortQuery(query: string): string {
	return joinPairs(queryPairs(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The request URI as Node's current docs sample signs it: `url.pathname + url.search` of the WHATWG
 * URL parsed from it. Against the URI as sent: `'` in the query becomes %27, a space %20, `"` `<` `>`
 * and non-ASCII percent-encoded UTF-8 (and `` ` `` `{` `}` in the path), a bare trailing `?` is
 * dropped, and /./ and /../ are resolved. Null for a URI that is not a path.
 */
export const whatwgPathAndSearch = keepLast((uri: string): string | null => {
	if (!uri.startsWith('/')) return null;
	try {
		const url = new URL(`https://h.invalid${uri}`);
		return url.pathname + url.search;
	} catch {
		return null;
	}
});

const HEX = /^[0-9A-F]{2}$/i;
const hexAt = (text: string, at: number) =>
	at + 2 < text.length && HEX.test(text.slice(at + 1, at + 3))
		? parseInt(text.slice(at + 1, at + 3), 16)
		: -1;
const escape = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const utf8 = new TextEncoder();

/** The RFC 3986 unreserved characters, whose escapes .NET's Uri always decodes. */
const isUnreserved = (byte: number) =>
	(byte >= 0x41 && byte <= 0x5a) ||
	(byte >= 0x61 && byte <= 0x7a) ||
	(byte >= 0x30 && byte <= 0x39) ||
	byte === 0x2d ||
	byte === 0x2e ||
	byte === 0x5f ||
	byte === 0x7e;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The character that the escapes from `at` write in UTF-8 (2 to 4 of them, `%E5%B0%8F` is "小"),
 * with how many there are; null when they start none.
 */
function utf8Escapes(text: string, at: number): { char: string; count: number } | null {
	const lead = hexAt(text, at);
	const count =
		lead >= 0xc2 && lead <= 0xdf
			? 2
			: lead >= 0xe0 && lead <= 0xef
				? 3
				: lead >= 0xf0 && lead <= 0xf4
					? 4
					: 0;
	if (count === 0) return null;
	const bytes = new Uint8Array(count);
	for (let i = 0; i < count; i++) {
		const byte = text[at + 3 * i] === '%' ? hexAt(text, at + 3 * i) : -1;
		if (byte < 0) return null;
		bytes[i] = byte;
	}
	try {
		return { char: strictUtf8.decode(bytes), count };
	} catch {
		return null;
	}
}

/** What .NET's Uri escapes when it meets the character as it is (checked with Mono 6.8). */
const DOTNET_ESCAPED = new Set([' ', '"', '<', '>', '^', '`', '{', '|', '}', '\\']);

/**
 * The request URI as .NET's `new Uri(url).PathAndQuery` writes it (the Unity SDK signs and sends
 * that), as Mono 6.8 does: a space, `"` `<` `>` `\` `^` `` ` `` `{` `|` `}`, a control and non-ASCII
 * escaped (UTF-8, upper case), a `%` that starts no escape as %25; escapes of unreserved characters
 * decoded (%7E as ~, %41 as A), and once one is, escapes of ! ' ( ) * : too; an escaped UTF-8
 * character in upper case; other escapes as they are (%2F, %2b). `\` in the path becomes `/`.
 * `'` and `~` stay as they are. Linear in the URI.
 */
export const dotnetPathAndQuery = keepLast((uri: string): string => {
	let marks = false;
	for (let at = uri.indexOf('%'); at >= 0 && !marks; at = uri.indexOf('%', at + 1)) {
		const byte = hexAt(uri, at);
		if (byte >= 0 && isUnreserved(byte)) marks = true;
	}
	let out = '';
	let inQuery = false;
	for (let at = 0; at < uri.length;) {
		const char = String.fromCodePoint(uri.codePointAt(at) ?? 0);
		if (char === '?') inQuery = true;
		if (char === '%') {
			const byte = hexAt(uri, at);
			if (byte < 0) {
				out += '%25';
				at += 1;
			} else if (isUnreserved(byte) || (marks && "!'()*:".includes(String.fromCharCode(byte)))) {
				out += String.fromCharCode(byte);
				at += 3;
			} else {
				const length = 3 * (utf8Escapes(uri, at)?.count ?? 1);
				const escapes = uri.slice(at, at + length);
				out += length > 3 ? escapes.toUpperCase() : escapes;
				at += length;
			}
			continue;
		}
		const code = char.codePointAt(0) ?? 0;
		if (char === '\\' && !inQuery) out += '/';
		else if (code < 0x21 || code >= 0x7f || DOTNET_ESCAPED.has(char))
			out += Array.from(utf8.encode(char), escape).join('');
		else out += char;
		at += char.length;
	}
	return out;
});

/** What HTTP clients percent-encode that a person types as it is: the bytes of `'` `"` `<` … */
const TYPED = new Set([0x20, 0x22, 0x27, 0x3c, 0x3e, 0x5c, 0x5e, 0x60, 0x7b, 0x7c, 0x7d]);

/**
 * The request URI as a person typed it before an HTTP client escaped it (Node's url.parse and
 * urllib, a browser's fetch, the WHATWG URL, .NET's Uri): the escapes of a space, `'` `"` `<` `>`
 * `\` `^` `` ` `` `{` `|` `}` and of UTF-8 characters decoded, every other escape (%2F, %26, %25, %2B)
 * kept, since those the person wrote. Linear in the URI.
 */
export const asTyped = keepLast((uri: string): string => {
	let out = '';
	let from = 0;
	for (let at = uri.indexOf('%'); at >= 0;) {
		const byte = hexAt(uri, at);
		const decoded = byte >= 0x80 ? utf8Escapes(uri, at) : null;
		if (byte >= 0 && TYPED.has(byte)) {
			out += uri.slice(from, at) + String.fromCharCode(byte);
			from = at + 3;
		} else if (decoded !== null) {
			out += uri.slice(from, at) + decoded.char;
			from = at + 3 * decoded.count;
		}
		at = uri.indexOf('%', Math.max(from, at + 1));
	}
	return out + uri.slice(from);
});
