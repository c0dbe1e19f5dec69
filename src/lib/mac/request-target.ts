import { MacInputError, requireText } from './errors';

/**
 * Which bytes the request URI is: `browser`, the URL as a browser's URL parser serialises it (what
 * fetch, a HAR and devtools' copies carry); `as-written`, the path and query as the text writes
 * them (what curl and a raw HTTP request send).
 */
export type UriForm = 'browser' | 'as-written';

export interface RequestTargetOptions {
	uri?: UriForm;
}

export interface RequestTarget {
	/** Path plus query as the request line will carry it. */
	uri: string;
	/** Lower-case host name without port (IPv6 keeps its brackets). */
	host: string;
	port: string;
	/** The URL as it will be requested: what a client puts on the wire. */
	href: string;
}

/** The host and the path plus query exactly as a URL's text writes them, fragment dropped. */
export interface WrittenTarget {
	host: string;
	/** Path plus query as typed: no `/` added to an empty path, nothing encoded. */
	uri: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/**
 * The parts of a URL that the base string signs. By default the URI is taken from the URL as the
 * WHATWG parser serialises it, which is what a browser sends: existing %-escapes are kept as typed
 * (never decoded or re-encoded), `'` in the query becomes %27, a space %20, and a bare `?` stays.
 * With `{ uri: 'as-written' }` the URI is the path and query as the text writes them, which is what
 * curl and a raw request send: only what cannot go on the wire as it is (a space, a control or
 * non-ASCII character) is percent-encoded, and an empty path is sent as `/`.
 */
export function requestTarget(url: string, options?: RequestTargetOptions): RequestTarget {
	requireText('url', url);
	const text = url.trim();
	if (text === '') throw new MacInputError('url', { code: 'url_empty', params: {} });
	if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
		throw new MacInputError('url', { code: 'url_no_scheme', params: { url: text } });
	}
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		throw new MacInputError('url', { code: 'url_invalid', params: { url: text } });
	}
	const port = DEFAULT_PORTS[parsed.protocol];
	if (port === undefined) {
		throw new MacInputError('url', { code: 'url_scheme', params: { protocol: parsed.protocol } });
	}
	if (parsed.username !== '' || parsed.password !== '') {
		throw new MacInputError('url', { code: 'url_credentials', params: {} });
	}
	if (parsed.hostname === '') throw new MacInputError('url', { code: 'url_no_host', params: {} });
	const target = { host: parsed.hostname, port: parsed.port || port };
	if (options?.uri === 'as-written') {
		const uri = sendable(withSlash(writtenTarget(text).uri));
		return { ...target, uri, href: parsed.origin + uri };
	}
	// `pathname + search` would drop a bare trailing "?"; slicing the serialised URL keeps it.
	const withoutFragment = parsed.href.split('#', 1)[0] ?? parsed.href;
	const uri = withoutFragment.slice(parsed.origin.length) || '/';
	return { ...target, uri, href: withoutFragment };
}

/**
 * The host and request URI as the URL's text writes them, before any parser touches them: what a
 * signer that splits the text itself (Python's urlparse, a regular expression) signs. The text is
 * not checked; `requestTarget` says whether it is a URL at all.
 */
export function writtenTarget(url: string): WrittenTarget {
	requireText('url', url);
	const text = url.trim();
	const scheme = /^[a-z][a-z0-9+.-]*:[/\\]*/i.exec(text);
	const rest = scheme ? text.slice(scheme[0].length) : text;
	const authorityEnd = rest.search(/[/\\?#]/);
	const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
	const afterAuthority = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
	const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
	const host = hostPort.replace(/:\d*$/, '');
	return { host, uri: afterAuthority.split('#', 1)[0] ?? '' };
}

function withSlash(uri: string): string {
	return uri.startsWith('/') ? uri : `/${uri}`;
}

const utf8 = new TextEncoder();

/** Percent-encodes, as UTF-8 in upper case, each character a request line cannot carry as it is. */
function sendable(uri: string): string {
	return uri.replace(/[^\x21-\x7e]/gu, encodeBytes);
}

function encodeBytes(char: string): string {
	return Array.from(
		utf8.encode(char),
		(byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
	).join('');
}

/** One thing a browser changes between the URL as written and the URL it sends. */
export type UrlRewrite =
	| { kind: 'host-lower-case' }
	| { kind: 'empty-path' }
	| { kind: 'breaks-dropped' }
	/** `char` is sent as `escaped`; `shown` is how a sentence shows it (U+0001 for a control). */
	| { kind: 'encoded'; char: string; shown: string; escaped: string }
	| { kind: 'dot-segments' };

/**
 * What a browser changes between the URL as written and the URL it sends, as data a page words in
 * its language; empty when it sends the URL as written. For a URL that cannot be signed, empty
 * too: `requestTarget` says what is wrong with it.
 */
export function urlRewrites(url: string): UrlRewrite[] {
	let sent: RequestTarget;
	try {
		sent = requestTarget(url);
	} catch (error) {
		if (error instanceof MacInputError) return [];
		throw error;
	}
	const written = writtenTarget(url);
	const changes: UrlRewrite[] = [];
	if (written.host !== sent.host && written.host.toLowerCase() === sent.host)
		changes.push({ kind: 'host-lower-case' });
	const from = written.uri;
	const to = sent.uri;
	if (from === '' || from.startsWith('?')) changes.push({ kind: 'empty-path' });
	const encoded = new Map<string, string>();
	let i = 0;
	let j = withSlash(from) === from ? 0 : 1;
	let dropped = false;
	while (i < from.length && j < to.length) {
		const char = String.fromCodePoint(from.codePointAt(i) ?? 0);
		if (to.startsWith(char, j)) {
			i += char.length;
			j += char.length;
			continue;
		}
		const escaped = encodeBytes(char);
		if (to.startsWith(escaped, j)) {
			encoded.set(char, escaped);
			i += char.length;
			j += escaped.length;
		} else if (/^[\t\n\r]$/.test(char)) {
			dropped = true;
			i += 1;
		} else if (char === '\\' && to[j] === '/') {
			encoded.set(char, '/');
			i += 1;
			j += 1;
		} else break;
	}
	if (dropped) changes.push({ kind: 'breaks-dropped' });
	for (const [char, escaped] of encoded)
		changes.push({ kind: 'encoded', char, shown: shownChar(char), escaped });
	if (i < from.length || j < to.length) changes.push({ kind: 'dot-segments' });
	return changes;
}

/** A character as a sentence can show it: a control character by its code point. */
function shownChar(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
	return char;
}

/** A rewrite in the core's English words, such as "' is sent as %27". */
function rewriteEnglish(rewrite: UrlRewrite): string {
	switch (rewrite.kind) {
		case 'host-lower-case':
			return 'the host is sent in lower case';
		case 'empty-path':
			return 'the empty path is sent as /';
		case 'breaks-dropped':
			return 'tabs and line breaks are left out';
		case 'encoded':
			return `${rewrite.char === ' ' ? 'a space' : rewrite.shown} is sent as ${rewrite.escaped}`;
		case 'dot-segments':
			return 'the path is resolved (/./ and /../ taken out)';
	}
}

/** What a browser changes, in the core's English words (urlRewrites, worded). */
export function browserRewrites(url: string): string[] {
	return urlRewrites(url).map(rewriteEnglish);
}
