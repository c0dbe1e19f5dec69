import { text as t, type Text } from '$lib/i18n/text';
import { fail, type HeaderField, type ParsedRequest } from './parsed-request';
import { shellWords } from './shell-words';

export type CurlRequest = ParsedRequest;

// curl's options that take an argument; everything else is a flag. Knowing them keeps an option's
// argument (-o out.json, -A 'Mozilla …') from being taken for the URL.
const SHORT_WITH_ARGUMENT = new Set('AbcCdDeEFHKmoPQrtTuUwxXyYz');
const LONG_WITH_ARGUMENT = new Set(
	(
		'abstract-unix-socket alt-svc aws-sigv4 cacert capath cert cert-type ciphers config ' +
		'connect-timeout connect-to continue-at cookie cookie-jar create-file-mode crlfile curves ' +
		'data data-ascii data-binary data-raw data-urlencode delegation dns-interface dns-ipv4-addr ' +
		'dns-ipv6-addr dns-servers doh-url dump-header ech egd-file engine etag-compare etag-save ' +
		'expect100-timeout form form-string ftp-account ftp-alternative-to-user ftp-method ftp-port ' +
		'ftp-ssl-ccc-mode happy-eyeballs-timeout-ms haproxy-clientip header hostpubmd5 hostpubsha256 ' +
		'hsts interface ip-tos ipfs-gateway json keepalive-cnt keepalive-time key key-type krb ' +
		'libcurl limit-rate local-port login-options mail-auth mail-from mail-rcpt max-filesize ' +
		'max-redirs max-time netrc-file noproxy oauth2-bearer output output-dir parallel-max pass ' +
		'pinnedpubkey preproxy proto proto-default proto-redir proxy proxy-cacert proxy-capath ' +
		'proxy-cert proxy-cert-type proxy-ciphers proxy-crlfile proxy-header proxy-key ' +
		'proxy-key-type proxy-pass proxy-pinnedpubkey proxy-service-name proxy-tls13-ciphers ' +
		'proxy-tlsauthtype proxy-tlspassword proxy-tlsuser proxy-user quote random-file range rate ' +
		'referer request request-target resolve retry retry-delay retry-max-time sasl-authzid ' +
		'service-name socks4 socks4a socks5 socks5-gssapi-service socks5-hostname speed-limit ' +
		'speed-time stderr telnet-option tftp-blksize time-cond tls-max tls13-ciphers tlsauthtype ' +
		'tlspassword tlsuser trace trace-ascii trace-config unix-socket upload-file url url-query ' +
		'user user-agent variable vlan-priority write-out'
	).split(' ')
);
const SHORT_TO_LONG: Record<string, string> = {
	X: 'request',
	H: 'header',
	d: 'data',
	F: 'form',
	T: 'upload-file',
	I: 'head',
	G: 'get',
	u: 'user',
	g: 'globoff'
};
const DATA_OPTIONS = new Set(['data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode']);
// What ends the curl command in a pasted shell line: a pipe, a list, a redirection.
const SHELL_OPERATOR = /^(?:[|;]|\|\||&&|[&><]|>>|\d?>&\d|\d>)$/;

interface Parsed {
	urls: string[];
	method: string | undefined;
	head: boolean;
	get: boolean;
	upload: boolean;
	form: boolean;
	data: { option: string; value: string }[];
	urlQuery: string[];
	headers: HeaderField[];
	flags: Set<string>;
	ignored: string[];
}

/** Reads a curl command from its shell words: the URL, the method and the headers it sends. */
export function parseCurl(words: readonly string[]): CurlRequest {
	const start = words[0] === '$' ? 1 : 0;
	const program = words[start] ?? '';
	if (!/(?:^|[\\/])curl(?:\.exe)?$/i.test(program)) {
		fail(t('paste_curl_expected', { start: program.slice(0, 40) }));
	}
	const parsed = readOptions(words.slice(start + 1));
	const understood: Text[] = [];
	let url = resolveUrl(parsed, understood);
	const method = resolveMethod(parsed, understood);
	const parts = url === undefined ? null : urlParts(url);
	if (parts && /(?:^|\/)\.\.?(?:\/|$)/.test(parts.path)) {
		if (parsed.flags.has('path-as-is')) {
			understood.push(t('paste_curl_path_as_is'));
		} else {
			const { origin, path, rest } = parts;
			url = origin + removeDotSegments(path) + rest;
			understood.push(t('paste_curl_dot_segments', { path: removeDotSegments(path) || '/' }));
		}
	}
	if (!parsed.flags.has('globoff') && url && /[[\]{}]/.test(url)) {
		understood.push(t('paste_curl_globbing', { brackets: '[ ] { }' }));
	}
	if (parsed.flags.has('other-auth')) {
		understood.push(t('paste_curl_other_auth'));
	}
	if (parsed.data.some(readsFile)) {
		understood.push(t('paste_curl_data_file'));
	}
	if (parsed.ignored.length > 0) {
		understood.push(t('paste_ignored', { options: parsed.ignored.join(' ') }));
	}
	return { url, method, headers: parsed.headers, understood };
}

/**
 * scheme://authority, the path, then the query and fragment; null without `scheme://`. Cut where
 * the first `/`, `?` or `#` stands rather than by one pattern of three runs, which a backtracking
 * engine could share out between them in many ways.
 */
function urlParts(url: string): { origin: string; path: string; rest: string } | null {
	const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
	if (origin === undefined) return null;
	const after = url.slice(origin.length);
	const restAt = after.search(/[?#]/);
	return restAt < 0
		? { origin, path: after, rest: '' }
		: { origin, path: after.slice(0, restAt), rest: after.slice(restAt) };
}

/** RFC 3986's remove_dot_segments, which curl applies to the path unless --path-as-is. */
export function removeDotSegments(path: string): string {
	const output: string[] = [];
	let input = path;
	while (input !== '') {
		if (input.startsWith('../')) input = input.slice(3);
		else if (input.startsWith('./') || input.startsWith('/./')) input = input.slice(2);
		else if (input === '/.') input = '/';
		else if (input.startsWith('/../') || input === '/..') {
			input = input === '/..' ? '/' : input.slice(3);
			output.pop();
		} else if (input === '.' || input === '..') input = '';
		else {
			const next = input.indexOf('/', 1);
			const segment = next < 0 ? input : input.slice(0, next);
			output.push(segment);
			input = input.slice(segment.length);
		}
	}
	return output.join('');
}

/** Tokenizes with shellWords, then reads the words as curl does. */
export function parseCurlCommand(text: string): CurlRequest {
	return parseCurl(shellWords(text));
}

function readOptions(args: readonly string[]): Parsed {
	const parsed: Parsed = {
		urls: [],
		method: undefined,
		head: false,
		get: false,
		upload: false,
		form: false,
		data: [],
		urlQuery: [],
		headers: [],
		flags: new Set(),
		ignored: []
	};
	let index = 0;
	const take = (option: string): string => {
		const value = args[index];
		if (value === undefined) fail(t('paste_curl_needs_value', { option }));
		index += 1;
		return value;
	};
	let optionsEnded = false;
	while (index < args.length) {
		const arg = args[index] ?? '';
		index += 1;
		if (!optionsEnded && SHELL_OPERATOR.test(arg)) break;
		if (optionsEnded || !arg.startsWith('-') || arg === '-') {
			parsed.urls.push(arg);
		} else if (arg === '--') {
			optionsEnded = true;
		} else if (arg.startsWith('--')) {
			// curl accepts --no-X to switch a flag off; none of those change the request we rebuild.
			const name = arg.slice(2).toLowerCase();
			const value = LONG_WITH_ARGUMENT.has(name) ? take(arg) : undefined;
			apply(parsed, name, value, arg);
		} else {
			// Short flags combine (-sSL), and the last may carry its value glued on (-XPOST, -H'…').
			for (let at = 1; at < arg.length; at += 1) {
				const letter = arg.charAt(at);
				if (SHORT_WITH_ARGUMENT.has(letter)) {
					const glued = arg.slice(at + 1);
					const value = glued === '' ? take(`-${letter}`) : glued;
					apply(parsed, SHORT_TO_LONG[letter] ?? letter, value, `-${letter}`);
					break;
				}
				apply(parsed, SHORT_TO_LONG[letter] ?? letter, undefined, `-${letter}`);
			}
		}
	}
	return parsed;
}

function apply(parsed: Parsed, name: string, value: string | undefined, written: string): void {
	if (name === 'url' && value !== undefined) parsed.urls.push(value);
	else if (name === 'request' && value !== undefined) parsed.method = value;
	else if (name === 'header' && value !== undefined) {
		const header = readHeader(value);
		if (header) parsed.headers.push(header);
	} else if (name === 'head') parsed.head = true;
	else if (name === 'get') parsed.get = true;
	else if (name === 'upload-file') parsed.upload = true;
	else if (name === 'form' || name === 'form-string') parsed.form = true;
	else if ((DATA_OPTIONS.has(name) || name === 'json') && value !== undefined)
		parsed.data.push({ option: name, value });
	else if (name === 'url-query' && value !== undefined) parsed.urlQuery.push(value);
	else if (name === 'globoff' || name === 'path-as-is') parsed.flags.add(name);
	else if (name === 'user' || name === 'oauth2-bearer') {
		parsed.ignored.push(written);
		parsed.flags.add('other-auth');
	} else parsed.ignored.push(written);
}

/** `Name: value`; curl's `Name;` sends an empty header and `Name:` removes one. */
function readHeader(text: string): HeaderField | null {
	const colon = text.indexOf(':');
	if (colon > 0) return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
	if (text.endsWith(';')) return { name: text.slice(0, -1).trim(), value: '' };
	return null;
}

function resolveUrl(parsed: Parsed, understood: Text[]): string | undefined {
	const [first, ...others] = parsed.urls;
	if (first === undefined) return undefined;
	if (others.length > 0) {
		understood.push(t('paste_curl_urls', { count: parsed.urls.length, url: first.slice(0, 60) }));
	}
	let url = first;
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
		url = `http://${url}`;
		understood.push(t('paste_curl_no_scheme'));
	} else understood.push(t('paste_curl_url'));

	const query: string[] = [];
	if (parsed.get && parsed.data.length > 0) {
		query.push(...parsed.data.map(dataPart));
		understood.push(t('paste_curl_get_data'));
	}
	query.push(...parsed.urlQuery.map((part) => dataPart({ option: 'data-urlencode', value: part })));
	if (query.length > 0) {
		const [beforeFragment = url, fragment] = url.split('#', 2);
		const joiner = beforeFragment.includes('?') ? '&' : '?';
		url = `${beforeFragment}${joiner}${query.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
	}
	return url;
}

/** `-d @file` reads a file (not --data-raw); --data-urlencode reads one for `@file` and `name@file`. */
function readsFile({ option, value }: { option: string; value: string }): boolean {
	if (option === 'data-urlencode') return /^[^=]*@/.test(value);
	return option !== 'data-raw' && value.startsWith('@');
}

/** One -d part as curl sends it: --data-urlencode encodes the content after the first `=`. */
function dataPart({ option, value }: { option: string; value: string }): string {
	if (option !== 'data-urlencode') return value;
	const equals = value.indexOf('=');
	if (equals < 0) return curlEscape(value);
	return `${value.slice(0, equals)}${equals > 0 ? '=' : ''}${curlEscape(value.slice(equals + 1))}`;
}

/** curl's form escaping: all but unreserved characters as %XX, a space as + (curl 7.77 and later). */
function curlEscape(text: string): string {
	return Array.from(new TextEncoder().encode(text), (byte) => {
		const char = String.fromCharCode(byte);
		if (/[\w\-.~]/.test(char)) return char;
		if (char === ' ') return '+';
		return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
	}).join('');
}

function resolveMethod(parsed: Parsed, understood: Text[]): string {
	if (parsed.method !== undefined) {
		understood.push(t('paste_curl_method_x', { method: parsed.method }));
		return parsed.method;
	}
	const [method, option] = parsed.head
		? ['HEAD', '-I/--head']
		: parsed.get
			? ['GET', '-G/--get']
			: parsed.upload
				? ['PUT', '-T/--upload-file']
				: parsed.form || parsed.data.length > 0
					? ['POST', null]
					: ['GET', undefined];
	understood.push(
		option === undefined
			? t('paste_curl_method_default')
			: option === null
				? t('paste_curl_method_body', { method })
				: t('paste_curl_method_option', { method, option })
	);
	return method;
}
