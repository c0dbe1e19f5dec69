/** What signers do to a request URI's query before signing it, as pure string functions. */
import { text, type Text } from '$lib/i18n/text';

export function splitUri(uri: string): { path: string; query: string | null } {
	const question = uri.indexOf('?');
	return question < 0
		? { path: uri, query: null }
		: { path: uri.slice(0, question), query: uri.slice(question + 1) };
}

export function withQuery(path: string, query: string): string {
	return `${path}?${query}`;
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

function queryPairs(query: string): QueryPair[] {
	return query.split('&').map((part): QueryPair => {
		const equals = part.indexOf('=');
		return equals < 0 ? [part, null] : [part.slice(0, equals), part.slice(equals + 1)];
	});
}

function joinPairs(pairs: QueryPair[]): string {
	return pairs.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join('&');
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
export function reEncodings(query: string): { how: Text; query: string }[] {
	const seen = new Set([query]);
	const result: { how: Text; query: string }[] = [];
	for (const [how, rewrite] of RE_ENCODINGS) {
		const rewritten = rewrite(query);
		if (rewritten === null || seen.has(rewritten)) continue;
		seen.add(rewritten);
		result.push({ how, query: rewritten });
	}
	return result;
}

/** The parameters sorted by name (stable for equal names), as OAuth 1.0 habits do. */
export function sortQuery(query: string): string {
	return joinPairs(queryPairs(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
