// Stage 1, the paste: what a customer sent (a header, curl, a raw request, a HAR, fetch or
// PowerShell) read into the signing inputs it carries, by the reader of its format.
import { readAsMeant, type HeaderFormat } from './header-format';
import { text as t, type Text } from '$lib/i18n/text';
import {
	MacInputError,
	attempt,
	type Outcome,
	requestTarget,
	writtenTarget,
	type MacHeaderParams,
	type UriForm,
	urlRewrites
} from '$lib/mac';
import { parseCurlCommand } from './parse-curl';
import { FETCH_CALL, parseFetch } from './parse-fetch';
import { parseHar, parseHarRequests } from './parse-har';
import { looksLikePowerShell, parsePowerShell } from './powershell/parse-powershell';
import { HEADER_LINE, REQUEST_LINE, parseRawRequest, type RawRequest } from './parse-raw-request';
import { PasteError, fail, type HeaderField, type ParsedRequest } from './parsed-request';
import { ONE_REQUEST_MAX_CHARS, PASTE_BOX_MAX_BYTES, pasteTooLarge } from './input-limits';
import { httpDate, logLineTime, type SentAt } from './sent-at';
import { sentences, type CoreError, type UrlRewrites } from '$lib/i18n/shown-text';
import { readLines } from './readers';
import type { LoggedRequest } from './types';

export type SignedRequestKind =
	'header' | 'curl' | 'raw' | 'har' | 'fetch' | 'powershell' | LoggedFormat;
/** A paste of one request a line: NDJSON objects, or log lines that each hold a URL and a MAC header. */
export type LoggedFormat = 'ndjson' | 'log-lines';
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
	/** Lines saying what was taken from the paste and what was assumed. */
	understood: Text[];
	/** What the diagnosis still needs: 'url' when none or no usable one; the mac_key never is in a paste. */
	missing: MissingInput[];
	/** When the paste says the request was sent: a HAR entry's time, a Date header, a log line's time. */
	sentAt?: SentAt;
	/**
	 * How the Authorization header departs from the spec's form, when it does; its values are then
	 * read as meant (header-format.ts), and the verdict says so.
	 */
	headerFormat?: HeaderFormat;
}

// Far beyond any real request; keeps a pasted log file from freezing the page.
const MAX_LENGTH = ONE_REQUEST_MAX_CHARS;
// A HAR saved from devtools carries every response body of the page: megabytes are common. The
// paste box's own limit, in characters (each at least one byte), so the box refuses first.
const MAX_HAR_LENGTH = PASTE_BOX_MAX_BYTES;

/** A request read from a paste of its own; a logged one is read from its line (listLogged). */
type RequestKind = Exclude<SignedRequestKind, 'header'>;
type OwnPasteKind = Exclude<RequestKind, LoggedFormat>;

const READERS: Record<
	OwnPasteKind,
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
	powershell: 'browser',
	ndjson: 'as-written',
	'log-lines': 'as-written'
};

/** What a paste of each kind lacks when it sends no Authorization header. */
function noAuthorization(kind: OwnPasteKind): Text {
	if (kind === 'powershell')
		return t('paste_no_auth_powershell', { example: '-Headers @{"authorization"="MAC …"}' });
	return t(`paste_no_auth_${kind}`);
}

/**
 * A HAR is JSON with a "log" object; checking for the word rather than parsing keeps detection
 * cheap on every keystroke, and lets a HAR cut short be told so instead of "could not tell".
 */
function looksLikeHar(trimmed: string): boolean {
	return trimmed.startsWith('{') && trimmed.includes('"log"');
}

/** Which of the six pastes of one request it is, or null when it is none of them. */
export function detectKind(text: string): Exclude<SignedRequestKind, LoggedFormat> | null {
	const trimmed = text.replace(/^\s+/, '');
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
		throw new PasteError(t('paste_unreadable'));
	}
}

function read(text: string): SignedRequest {
	if (text.trim() === '') {
		fail(t('paste_empty'));
	}
	const isHar = looksLikeHar(text.replace(/^\s+/, ''));
	if (text.length > (isHar ? MAX_HAR_LENGTH : MAX_LENGTH)) {
		fail((isHar && pasteTooLarge(text)) || t('paste_too_long'));
	}
	const logged = fromLogLine(text);
	if (logged) {
		const result = readRequest(logged.rest);
		result.understood.unshift(
			t('paste_took_log_prefix', { prefix: JSON.stringify(logged.prefix) })
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

/** One of several signed requests a paste holds, read on its own. */
export interface ListedRequest {
	/** Its number in the paste: a HAR's entry number, from 1. */
	number: number;
	method: string;
	/** The URL as the paste has it; empty when it has none. */
	url: string;
	/** The response's HTTP status the paste records, if any. */
	status: number | null;
	/** Its signing inputs, or why its Authorization header cannot be read. */
	parsed: Outcome<SignedRequest>;
}

/**
 * Every MAC-signed request of a paste that holds several (a HAR, in its order), with a row that
 * cannot be read (its `parsed` says why) for each entry that cannot be, and for the place where a
 * HAR cut short or broken stops; null for a paste of one request, or one that parseSignedRequest
 * cannot read (which then says why).
 */
export function parseSignedRequests(text: string): ListedRequest[] | null {
	if (!looksLikeHar(text.replace(/^\s+/, '')) || text.length > MAX_HAR_LENGTH) return null;
	try {
		const rows = parseHarRequests(text);
		if (rows.length < 2) return null;
		return rows.map((row) =>
			row.kind === 'unreadable'
				? {
						number: row.number,
						method: '',
						url: '',
						status: null,
						parsed: { ok: false, error: new PasteError(row.problem) }
					}
				: {
						number: row.request.number,
						method: row.request.method,
						url: row.request.url ?? '',
						status: row.request.status,
						parsed: attempt(() => fromRequest('har', row.request, () => noAuthorization('har')))
					}
		);
	} catch {
		// parseSignedRequest reads the same paste and says what is wrong with it.
		return null;
	}
}

/**
 * Every MAC-signed request of an NDJSON or log-lines paste that holds several, read by the same line
 * readers as a log on /triage, so both pages read a log alike; null for a paste of one.
 */
export function listLogged(text: string): ListedRequest[] | null {
	if (text.length > MAX_LENGTH || looksLikeHar(text.replace(/^\s+/, ''))) return null;
	const reading = readLines(text);
	if (reading === null || reading.requests.length < 2) return null;
	const { format } = reading;
	return reading.requests.map((logged) => ({
		number: logged.number,
		method: logged.method,
		url: logged.url,
		status: logged.status,
		parsed: attempt(() => fromLogged(format, logged))
	}));
}

/**
 * The request of a paste that is one NDJSON or log line, read by `readLines` as listLogged reads
 * several; null when the paste holds none or several. For a paste no other reader understands: a
 * curl command on a line of its own is also a log line, and reads better as curl.
 */
export function loggedSingle(text: string): Outcome<SignedRequest> | null {
	if (text.length > MAX_LENGTH) return null;
	const reading = readLines(text);
	const only = reading?.requests.length === 1 ? reading.requests[0] : undefined;
	return reading && only ? attempt(() => fromLogged(reading.format, only)) : null;
}

function fromLogged(format: LoggedFormat, logged: LoggedRequest): SignedRequest {
	const from =
		format === 'ndjson'
			? t('paste_from_ndjson_line', { number: String(logged.number) })
			: t('paste_from_log_line', { number: String(logged.number) });
	const request = {
		method: logged.method,
		url: logged.url,
		headers: [{ name: 'Authorization', value: logged.authorization }],
		understood: [from],
		...(logged.sentAt ? { sentAt: logged.sentAt } : {})
	};
	return fromRequest(format, request, () => t('paste_unreadable'));
}

function readRequest(text: string): SignedRequest {
	const kind = detectKind(text);
	if (kind === 'header') {
		const { params: authorization, format } = readAsMeant(text);
		const understood: Text[] = [t('paste_from_header')];
		if (authorization.ext !== undefined) understood.push(t('paste_ext_from_header'));
		understood.push(t('paste_header_alone'));
		return {
			kind,
			authorization,
			uriForm: URI_FORMS[kind],
			understood,
			missing: ['url', 'mac_key'],
			...(format === null ? {} : { headerFormat: format })
		};
	}
	if (kind !== null) return fromRequest(kind, READERS[kind](text), () => noAuthorization(kind));
	fail(unknownPasteMessage(text));
}

/** The signing inputs of a request a reader read: its Authorization header, URL and time. */
function fromRequest(
	kind: RequestKind,
	request: (ParsedRequest | RawRequest) & { sentAt?: SentAt },
	noAuthorization: () => Text
): SignedRequest {
	const understood = [...request.understood];
	const found = findAuthorization(request.headers, understood, noAuthorization);
	const { format } = found;
	const result: SignedRequest = {
		kind,
		authorization: found.params,
		...(format === null ? {} : { headerFormat: format }),
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
			const reason: CoreError = { macError: target.error };
			understood.push(t('paste_url_unsignable', { reason }));
			result.missing = ['url', 'mac_key'];
		} else {
			understood.push(...uriBytes(kind, request.url, target.value.uri));
		}
	}
	return result;
}

/** What the request URI's bytes are, when a browser and curl would send different ones. */
function uriBytes(kind: RequestKind, url: string, uri: string): Text[] {
	// The core's data: the page says them in its language (ShownText).
	const rewrites: UrlRewrites = { urlRewrites: urlRewrites(url) };
	const rewritten = rewrites.urlRewrites.length > 0;
	if (URI_FORMS[kind] === 'browser') {
		return rewritten ? [t('paste_browser_rewrites', { rewrites, uri })] : [];
	}
	const lines: Text[] = [];
	const written = writtenTarget(url).uri;
	if (rewritten)
		lines.push(
			t(
				kind === 'curl'
					? 'paste_as_pasted_curl'
					: kind === 'raw'
						? 'paste_as_pasted_raw'
						: 'paste_as_logged',
				{ uri, rewrites }
			)
		);
	if (/[^\x21-\x7e]/u.test(written)) lines.push(t('paste_percent_encoded'));
	return lines;
}

function findAuthorization(
	headers: HeaderField[],
	understood: Text[],
	noAuthorization: () => Text
): { params: MacHeaderParams; format: HeaderFormat | null; value: string } {
	const found = headers.filter((header) => header.name.toLowerCase() === 'authorization');
	const [first] = found;
	if (first === undefined) fail(noAuthorization());
	if (found.length > 1) {
		understood.push(t('paste_several_authorizations', { count: found.length }));
	}
	understood.push(t('paste_from_header'));
	return { ...readAsMeant(first.value), value: first.value };
}

function unknownPasteMessage(text: string): Text {
	const hints: Text[] = [];
	if (/[\u201c\u201d\u2018\u2019]/.test(text)) hints.push(t('paste_hint_curly_quotes'));
	if (/^\s*(?:authorization\s*:\s*)?bearer\s/i.test(text)) hints.push(t('paste_hint_bearer'));
	if (/^\s*[{[]/.test(text)) hints.push(t('paste_hint_json'));
	const invoke = /Invoke-(?:WebRequest|RestMethod)/i.exec(text);
	if (invoke) hints.push(t('paste_hint_invoke', { command: invoke[0] }));
	return sentences('paste_sentences', [t('paste_unknown'), ...hints]) ?? t('paste_unknown');
}
