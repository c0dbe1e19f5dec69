// Stage 1, the paste: what a customer sent (a header, curl, a raw request, a HAR, fetch or
// PowerShell) read into the signing inputs it carries. One reader per format in this folder.
import {
	MacInputError,
	attempt,
	browserRewrites,
	parseAuthorization,
	requestTarget,
	writtenTarget,
	type MacHeaderParams,
	type UriForm
} from '$lib/mac';
import { parseCurlCommand } from './parse-curl';
import { FETCH_CALL, parseFetch } from './parse-fetch';
import { parseHar } from './parse-har';
import { looksLikePowerShell, parsePowerShell } from './powershell/parse-powershell';
import { HEADER_LINE, REQUEST_LINE, parseRawRequest, type RawRequest } from './parse-raw-request';
import { SIGNED_REQUEST_FIELD, fail, type HeaderField, type ParsedRequest } from './parsed-request';
import { httpDate, logLineTime, type SentAt } from './sent-at';

export type SignedRequestKind = 'header' | 'curl' | 'raw' | 'har' | 'fetch' | 'powershell';
export type MissingInput = 'url' | 'mac_key';

export interface SignedRequest {
	kind: SignedRequestKind;
	method?: string;
	/** The full URL when the paste says it: curl, fetch, PowerShell, a HAR, a raw request with Host. */
	url?: string;
	/**
	 * Which bytes the URL's path and query went out as: 'as-written' for curl and a raw request,
	 * which send them as they are; 'browser' for what a browser sent (fetch, PowerShell, a HAR).
	 */
	uriForm: UriForm;
	authorization: MacHeaderParams;
	/** The Authorization header's value as the paste has it, for a request read from several headers. */
	authorizationValue?: string;
	/** Plain-English lines saying what was taken from the paste and what was assumed. */
	understood: string[];
	/** What the diagnosis still needs: 'url' when none or no usable one; the mac_key never is in a paste. */
	missing: MissingInput[];
	/** When the paste says the request was sent: a HAR entry's time, a Date header, a log line's time. */
	sentAt?: SentAt;
}

// Far beyond any real request; keeps a pasted log file from freezing the page.
const MAX_LENGTH = 200_000;
// A HAR saved from devtools carries every response body of the page: megabytes are common, and
// JSON.parse reads 5 MB in tens of milliseconds, once per paste.
const MAX_HAR_LENGTH = 5_000_000;

type RequestKind = Exclude<SignedRequestKind, 'header'>;

const READERS: Record<
	RequestKind,
	(text: string) => (ParsedRequest | RawRequest) & { sentAt?: SentAt }
> = {
	curl: parseCurlCommand,
	raw: parseRawRequest,
	har: parseHar,
	fetch: parseFetch,
	powershell: parsePowerShell
};

/** curl and raw HTTP send the request URI as written; the others carry what a browser sent. */
const URI_FORMS: Record<SignedRequestKind, UriForm> = {
	header: 'browser',
	curl: 'as-written',
	raw: 'as-written',
	har: 'browser',
	fetch: 'browser',
	powershell: 'browser'
};

const NO_AUTHORIZATION: Record<RequestKind, string> = {
	curl: 'The curl command sends no Authorization header (-H "Authorization: MAC …").',
	raw: 'The request has no Authorization header line.',
	har: 'The HAR’s request sends no Authorization header.',
	fetch: 'The fetch call sends no Authorization header ("headers": {"Authorization": "MAC …"}).',
	powershell:
		'The PowerShell command sends no Authorization header (-Headers @{"authorization"="MAC …"}).'
};

/**
 * A HAR is JSON with a "log" object; checking for the word rather than parsing keeps detection
 * cheap on every keystroke, and lets a HAR cut short be told so instead of "could not tell".
 */
function looksLikeHar(trimmed: string): boolean {
	return trimmed.startsWith('{') && trimmed.includes('"log"');
}

/** Which of the six was pasted, or null when it is none of them. */
export function detectKind(text: string): SignedRequestKind | null {
	const trimmed = text.replace(/^[\s\ufeff]+/, '');
	if (looksLikeHar(trimmed)) return 'har';
	if (FETCH_CALL.test(trimmed)) return 'fetch';
	if (looksLikePowerShell(trimmed)) return 'powershell';
	if (/^(?:\$\s+)?(?:\S*[\\/])?curl(?:\.exe)?(?:\s|$)/i.test(trimmed)) return 'curl';
	const lines = trimmed.split(/\r\n|\n|\r/).map((line) => line.trim());
	const first = lines[0] ?? '';
	if (REQUEST_LINE.test(first) && !/^mac\s/i.test(first)) return 'raw';
	const headerLines = lines.filter((line) => HEADER_LINE.test(line));
	const isAuthorization = (line: string) => /^authorization\s*:/i.test(line);
	// A wrapped header continues with `ts="…"` lines; another `Name: value` line makes it a request.
	if (headerLines.some((line) => !isAuthorization(line))) return 'raw';
	// Any Authorization line is read as the header, so that a Bearer one is told it is not MAC.
	if (/^(?:authorization\s*:|mac(?:\s|$))/i.test(first)) return 'header';
	return null;
}

/**
 * Reads what a customer pasted (an Authorization header, a curl command, a raw HTTP request, a
 * PowerShell command, a fetch call or a HAR file) into the signing inputs it carries. Throws only
 * MacInputError, whatever the input.
 */
export function parseSignedRequest(text: string): SignedRequest {
	try {
		return read(text);
	} catch (error) {
		if (error instanceof MacInputError) throw error;
		throw new MacInputError(SIGNED_REQUEST_FIELD, 'The paste could not be read as a request.');
	}
}

function read(text: string): SignedRequest {
	if (text.trim() === '') {
		fail(
			'Paste the Authorization header, the curl command, the raw HTTP request, the PowerShell command, the fetch call or the HAR file.'
		);
	}
	const isHar = looksLikeHar(text.replace(/^[\s\ufeff]+/, ''));
	if (text.length > (isHar ? MAX_HAR_LENGTH : MAX_LENGTH)) {
		fail(
			isHar
				? `The HAR is too large to read here (${Math.ceil(text.length / 1_000_000)} MB, at most ${MAX_HAR_LENGTH / 1_000_000} MB): copy the signed request alone, as cURL or fetch, from the Network panel.`
				: 'The paste is too long to be one request.'
		);
	}
	const logged = fromLogLine(text);
	if (logged) {
		const result = readRequest(logged.rest);
		result.understood.unshift(
			`Took off the log prefix ${JSON.stringify(logged.prefix)}; its time says when the request was sent.`
		);
		result.sentAt ??= logged.sentAt;
		return result;
	}
	return readRequest(text);
}

// Where a request starts in a log line: its Authorization header, the MAC header alone, a curl
// command or a request line.
const LOGGED_REQUEST =
	/authorization[ \t]*:|\bMAC[ \t]+id[ \t]*=|\bcurl(?:\.exe)?[ \t]|\b[A-Z]{3,7}[ \t]+(?:\/|https?:\/\/)/i;

/** A request logged after a time (`2021-04-12 10:02:30,118 INFO http: Authorization: MAC …`). */
function fromLogLine(text: string): { prefix: string; rest: string; sentAt: SentAt } | null {
	const time = logLineTime(text);
	if (time === null) return null;
	const line = text.slice(0, text.search(/[\r\n]|$/));
	const start = LOGGED_REQUEST.exec(line.slice(time.length))?.index;
	if (start === undefined) return null;
	const at = time.length + start;
	return { prefix: text.slice(0, at).trim(), rest: text.slice(at), sentAt: time.sentAt };
}

function readRequest(text: string): SignedRequest {
	const kind = detectKind(text);
	if (kind === 'header') {
		const authorization = parseAuthorization(text);
		const understood = ['kid, ts, nonce and mac from the Authorization header.'];
		if (authorization.ext !== undefined) understood.push('ext from the Authorization header.');
		understood.push('The header alone does not say the method or URL: give the URL.');
		return {
			kind,
			authorization,
			uriForm: URI_FORMS[kind],
			understood,
			missing: ['url', 'mac_key']
		};
	}
	if (kind !== null) {
		const request = READERS[kind](text);
		const understood = [...request.understood];
		const found = findAuthorization(request.headers, understood, kind);
		const result: SignedRequest = {
			kind,
			authorization: found.params,
			authorizationValue: found.value,
			uriForm: URI_FORMS[kind],
			understood,
			missing: request.url === undefined ? ['url', 'mac_key'] : ['mac_key']
		};
		if (request.method !== undefined) result.method = request.method;
		const date = request.headers.find((header) => header.name.toLowerCase() === 'date');
		const sentAt = request.sentAt ?? (date ? httpDate(date.value) : null);
		if (sentAt) result.sentAt = sentAt;
		if (request.url !== undefined) {
			result.url = request.url;
			// Kept for the page to show and correct, but not usable as it is.
			const target = attempt(() => requestTarget(request.url ?? '', { uri: result.uriForm }));
			if (!target.ok) {
				understood.push(`The URL cannot be signed: ${target.error.message}`);
				result.missing = ['url', 'mac_key'];
			} else {
				understood.push(...uriBytes(kind, request.url, target.value.uri));
			}
		}
		return result;
	}
	fail(unknownPasteMessage(text));
}

/** What the request URI's bytes are, when a browser and curl would send different ones. */
function uriBytes(kind: RequestKind, url: string, uri: string): string[] {
	const rewrites = browserRewrites(url);
	if (URI_FORMS[kind] === 'browser') {
		return rewrites.length === 0
			? []
			: [
					`The browser sends this URL rewritten (${rewrites.join(', ')}): the request URI is signed as sent, ${uri}.`
				];
	}
	const sender = kind === 'curl' ? 'curl sends' : 'a raw request carries';
	const lines: string[] = [];
	const written = writtenTarget(url).uri;
	if (rewrites.length > 0)
		lines.push(
			`Request URI as pasted, ${uri}: ${sender} it as it is, where a browser would rewrite it (${rewrites.join(', ')}).`
		);
	if (/[^\x21-\x7e]/u.test(written))
		lines.push(
			'Spaces, control and non-ASCII characters cannot go on the wire as they are: they are signed percent-encoded (%XX, UTF-8).'
		);
	return lines;
}

function findAuthorization(
	headers: HeaderField[],
	understood: string[],
	kind: RequestKind
): { params: MacHeaderParams; value: string } {
	const found = headers.filter((header) => header.name.toLowerCase() === 'authorization');
	const [first] = found;
	if (first === undefined) fail(NO_AUTHORIZATION[kind]);
	if (found.length > 1) {
		understood.push(
			`${found.length} Authorization headers: the first is used, and a server may reject both.`
		);
	}
	understood.push('kid, ts, nonce and mac from the Authorization header.');
	return { params: parseAuthorization(first.value), value: first.value };
}

function unknownPasteMessage(text: string): string {
	const hints: string[] = [];
	if (/[\u201c\u201d\u2018\u2019]/.test(text))
		hints.push('It contains curly quotes (“ ”), which a chat or word processor put in.');
	if (/^\s*(?:authorization\s*:\s*)?bearer\s/i.test(text))
		hints.push('It is a Bearer header; this service signs with MAC.');
	if (/^[\s\ufeff]*[{[]/.test(text))
		hints.push('It looks like JSON, but not a HAR file, which has a "log" object.');
	const invoke = /Invoke-(?:WebRequest|RestMethod)/i.exec(text);
	if (invoke)
		hints.push(
			`It mentions ${invoke[0]}, but not at the start of a line: paste the PowerShell command alone, as devtools’ "Copy as PowerShell" writes it.`
		);
	return [
		'Could not tell what this is: paste an Authorization header (MAC id="…",…), a curl command, a raw HTTP request (GET /path HTTP/1.1 with a Host line), a PowerShell command (devtools’ "Copy as PowerShell"), a fetch call (devtools’ "Copy as fetch") or a HAR file.',
		...hints
	].join(' ');
}
