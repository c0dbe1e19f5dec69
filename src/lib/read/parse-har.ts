import { text as t, type Text } from '$lib/i18n/text';
import { attempt, requestTarget } from '$lib/mac';
import {
	fail,
	isObject,
	member,
	shown,
	type HeaderField,
	type JsonObject,
	type ParsedRequest
} from './parsed-request';
import { isoTime, type SentAt } from './sent-at';

/** A value quoted for a message, a little longer than elsewhere: a URL or a path. */
const quoted = (text: string) => shown(text, 80);

/** The well-formed `{name, value}` pairs of a HAR headers list; anything else is skipped. */
function headersOf(request: JsonObject): HeaderField[] {
	const list = member(request, 'headers');
	if (!Array.isArray(list)) return [];
	const headers: HeaderField[] = [];
	for (const item of list) {
		if (!isObject(item)) continue;
		const name = member(item, 'name');
		const value = member(item, 'value');
		if (typeof name === 'string' && typeof value === 'string') headers.push({ name, value });
	}
	return headers;
}

const isAuthorization = (header: HeaderField) => header.name.toLowerCase() === 'authorization';
const isMac = (header: HeaderField) => /^mac(?:\s|$)/i.test(header.value.trim());

interface Signed {
	/** The entry's number in the HAR, from 1 (entries not signed with MAC count too). */
	number: number;
	request: JsonObject;
	headers: HeaderField[];
	entry: JsonObject;
}

/** One MAC-signed entry of a HAR, read as parseHar reads the first. */
export interface HarRequest extends ParsedRequest {
	/** The entry's number in the HAR, from 1. */
	number: number;
	/** The response's HTTP status; null when the entry got none (a HAR writes 0). */
	status: number | null;
	sentAt?: SentAt;
}

/** The HTTP status a HAR entry's response records; a HAR records 0 for a request that got no answer. */
export function harStatus(entry: JsonObject): number | null {
	const response = member(entry, 'response');
	const status = isObject(response) ? member(response, 'status') : undefined;
	return typeof status === 'number' && Number.isInteger(status) && status > 0 ? status : null;
}

/** Every entry signed with MAC, in the HAR's order; fails as parseHar does when there is none. */
function signedEntries(text: string): { signed: Signed[]; count: number } {
	let root: unknown;
	try {
		root = JSON.parse(text.trim());
	} catch (error) {
		const reason = error instanceof Error ? error.message.slice(0, 120) : 'not JSON';
		fail(t('paste_har_not_json', { reason }));
	}
	const log = isObject(root) ? member(root, 'log') : undefined;
	if (!isObject(log)) {
		fail(t('paste_har_no_log'));
	}
	const entries = member(log, 'entries');
	if (!Array.isArray(entries)) fail(t('paste_har_no_entries'));
	if (entries.length === 0) fail(t('paste_har_empty'));

	const signed: Signed[] = [];
	let withAuthorization = 0;
	const otherSchemes = new Set<string>();
	for (const [index, entry] of entries.entries()) {
		const request = isObject(entry) ? member(entry, 'request') : undefined;
		if (!isObject(request)) continue;
		const headers = headersOf(request);
		const authorizations = headers.filter(isAuthorization);
		if (authorizations.length === 0) continue;
		withAuthorization += 1;
		if (authorizations.some(isMac) && isObject(entry)) {
			signed.push({ number: index + 1, request, headers, entry });
		} else if (otherSchemes.size < 3) {
			for (const { value } of authorizations) {
				otherSchemes.add(value.trim().split(/\s/, 1)[0]?.slice(0, 20) || '(empty)');
			}
		}
	}

	// "None of the HAR's 1 request" reads wrong; one request gets its own phrasing.
	const one = entries.length === 1;
	const count = entries.length;
	if (signed.length === 0) {
		if (withAuthorization === 0) {
			// Chrome 130 and later leave Authorization out of a HAR unless told to keep sensitive data.
			fail(
				one ? t('paste_har_one_no_authorization') : t('paste_har_none_authorization', { count })
			);
		}
		const schemes = [...otherSchemes]
			.slice(0, 3)
			.map((scheme) => quoted(scheme))
			.join(', ');
		fail(
			one ? t('paste_har_one_not_mac', { schemes }) : t('paste_har_none_mac', { count, schemes })
		);
	}
	return { signed, count };
}

/** One signed entry read: its method, URL (with HTTP/2's :path), headers, time and status. */
function readSigned(signed: Signed, understood: Text[]): HarRequest {
	const method = readMethod(signed.request, understood);
	const url = readUrl(signed, understood);
	const started = member(signed.entry, 'startedDateTime');
	const sentAt = typeof started === 'string' ? isoTime(started, 'har') : null;
	const read: HarRequest = {
		number: signed.number,
		status: harStatus(signed.entry),
		url,
		method,
		headers: signed.headers,
		understood
	};
	if (sentAt) read.sentAt = sentAt;
	return read;
}

/**
 * Reads a HAR file (devtools' "Save all as HAR"): the first request signed with MAC, its method,
 * URL and headers. Responses, cookies and bodies are not signed, so they are not read.
 */
export function parseHar(text: string): ParsedRequest & { sentAt?: SentAt } {
	const { signed, count } = signedEntries(text);
	const first = signed[0] as Signed;
	const understood: Text[] = [];
	if (signed.length > 1) {
		understood.push(t('paste_har_several_signed', { count: signed.length, total: count }));
	} else if (count > 1) {
		understood.push(t('paste_har_one_signed', { total: count }));
	}
	const { url, method, headers, sentAt } = readSigned(first, understood);
	return sentAt
		? { url, method, headers, understood, sentAt }
		: { url, method, headers, understood };
}

/**
 * Every request of a HAR signed with MAC, each read as parseHar reads the first (without saying
 * which of the HAR's requests it is: the page lists them). Fails as parseHar does.
 */
export function parseHarRequests(text: string): HarRequest[] {
	return signedEntries(text).signed.map((signed) => readSigned(signed, []));
}

function readMethod(request: JsonObject, understood: Text[]): string {
	const method = member(request, 'method');
	if (typeof method === 'string' && method !== '') {
		understood.push(t('paste_har_method', { method: method.slice(0, 20) }));
		return method;
	}
	understood.push(t('paste_har_no_method'));
	return 'GET';
}

/**
 * The entry's URL; over HTTP/2, devtools also records the `:path` sent. A HAR from a proxy or an
 * exporter that re-encodes URLs can disagree with it, and the signature covers what was sent.
 */
function readUrl({ request, headers }: Signed, understood: Text[]): string | undefined {
	const url = member(request, 'url');
	if (typeof url !== 'string' || url.trim() === '') {
		understood.push(t('paste_har_no_url'));
		return undefined;
	}
	understood.push(t('paste_har_url'));
	const path = headers.find((header) => header.name === ':path')?.value;
	const target = attempt(() => requestTarget(url));
	if (path === undefined || !target.ok || path === target.value.uri) return url;
	if (!path.startsWith('/')) {
		understood.push(t('paste_har_path_not_path', { path: quoted(path) }));
		return url;
	}
	understood.push(
		t('paste_har_path_differs', { uri: quoted(target.value.uri), path: quoted(path) })
	);
	return `${new URL(target.value.href).origin}${path}`;
}
