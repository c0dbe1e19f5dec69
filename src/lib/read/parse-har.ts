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
import { HarScanner, MAX_ENTRY_DEPTH, MAX_ENTRY_LENGTH } from './har-scanner';

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

/** The first Authorization header signed with MAC. */
export const macAuthorization = (headers: readonly HeaderField[]) =>
	headers.find((header) => isAuthorization(header) && isMac(header));

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

/**
 * The base string the client logged with the entry, where a tool put it there: HAR 1.2 has no field
 * for it and lets a writer add its own, named with a leading `_`, so this reads `_base_string` on the
 * entry or its request (our convention, docs/triage-cli.md). Null when neither holds text.
 */
export function harLoggedBaseString(signed: Signed): string | null {
	for (const holder of [signed.entry, signed.request]) {
		const logged = member(holder, '_base_string');
		if (typeof logged === 'string') return logged;
	}
	return null;
}

/** Why an entry of a HAR is not read: its own text, or the scanner, says. */
export type HarEntryProblem = 'not-json' | 'not-object' | 'no-request' | 'too-deep' | 'too-long';

/** One entry of a HAR, read from its own JSON text (har-scanner.ts gives it). */
export type HarEntry =
	| { kind: 'signed'; signed: Signed }
	/** A request not signed with MAC: the values of its Authorization headers, if any. */
	| { kind: 'other'; authorizations: string[] }
	| { kind: 'unreadable'; code: HarEntryProblem };

/** Reads one entry: /triage's file and /verify's paste read every entry with this. */
export function readHarEntry(number: number, text: string): HarEntry {
	let entry: unknown;
	try {
		entry = JSON.parse(text);
	} catch {
		return { kind: 'unreadable', code: 'not-json' };
	}
	if (!isObject(entry)) return { kind: 'unreadable', code: 'not-object' };
	const request = member(entry, 'request');
	if (!isObject(request)) return { kind: 'unreadable', code: 'no-request' };
	const headers = headersOf(request);
	const authorizations = headers.filter(isAuthorization);
	if (authorizations.some(isMac))
		return { kind: 'signed', signed: { number, request, headers, entry } };
	return { kind: 'other', authorizations: authorizations.map((header) => header.value) };
}

/** How reading a HAR ended early: the scanner's stop, where `number` is the entry it stopped at. */
export interface HarStop {
	code: 'har-broken' | 'har-cut-short' | 'har-no-entries';
	number: number;
}

/** A HAR text read entry by entry, as a file is on /triage (one piece, here: it is in memory). */
interface HarReading {
	signed: Signed[];
	/** Entries that cannot be read, in order (an entry that is no request is not among them). */
	unreadable: { number: number; code: HarEntryProblem }[];
	stop: HarStop | null;
	/** Entries begun. */
	count: number;
	withAuthorization: number;
	/** The first few Authorization schemes that are not MAC. */
	otherSchemes: Set<string>;
	sawLog: boolean;
	sawEntries: boolean;
}

function readHar(text: string): HarReading {
	const scanner = new HarScanner();
	const reading: HarReading = {
		signed: [],
		unreadable: [],
		stop: null,
		count: 0,
		withAuthorization: 0,
		otherSchemes: new Set(),
		sawLog: false,
		sawEntries: false
	};
	for (const scan of [...scanner.feed(text), ...scanner.end()]) {
		if (scan.kind === 'stop') {
			reading.stop = { code: scan.code, number: scan.number };
			continue;
		}
		if (scan.kind === 'unreadable') {
			reading.unreadable.push({ number: scan.number, code: scan.code });
			continue;
		}
		const entry = readHarEntry(scan.number, scan.text);
		if (entry.kind === 'signed') {
			reading.withAuthorization += 1;
			reading.signed.push(entry.signed);
		} else if (entry.kind === 'other' && entry.authorizations.length > 0) {
			reading.withAuthorization += 1;
			for (const value of entry.authorizations) {
				if (reading.otherSchemes.size >= 3) break;
				reading.otherSchemes.add(value.trim().split(/\s/, 1)[0]?.slice(0, 20) || '(empty)');
			}
		} else if (entry.kind === 'unreadable' && entry.code === 'not-json') {
			// Entries that are no request (not an object, no request in them) are not listed.
			reading.unreadable.push({ number: scan.number, code: entry.code });
		}
	}
	reading.count = scanner.entries;
	reading.sawLog = scanner.sawLog;
	reading.sawEntries = scanner.sawEntries;
	return reading;
}

/** Why an entry cannot be read, as the paste box says it. */
export function entryProblemText(code: HarEntryProblem): Text {
	if (code === 'too-deep') return t('paste_har_reason_too_deep', { depth: MAX_ENTRY_DEPTH });
	if (code === 'too-long') return t('paste_har_reason_too_long', { size: MAX_ENTRY_LENGTH >> 20 });
	return t('paste_har_reason_not_json');
}

/** What the scanner's stop means for a paste, or null when no entry is lost by it. */
function stopText(reading: HarReading): Text | null {
	const { stop } = reading;
	if (stop === null || stop.code === 'har-no-entries') return null;
	if (stop.number === 0) {
		if (reading.sawEntries) return null;
		return stop.code === 'har-broken'
			? t('paste_har_broken_before')
			: t('paste_har_cut_short_before');
	}
	return stop.code === 'har-broken'
		? t('paste_har_broken', { number: stop.number })
		: t('paste_har_cut_short', { number: stop.number });
}

/** Every entry signed with MAC, in the HAR's order; fails as parseHar does when there is none. */
function signedEntries(text: string): HarReading {
	const reading = readHar(text.trim());
	const { signed, count } = reading;
	if (signed.length > 0) return reading;
	const stopped = stopText(reading);
	if (stopped !== null) fail(stopped);
	if (!reading.sawLog) fail(t('paste_har_no_log'));
	if (!reading.sawEntries) fail(t('paste_har_no_entries'));
	if (count === 0) fail(t('paste_har_empty'));
	const [first] = reading.unreadable;
	if (first !== undefined) {
		fail(
			t('paste_har_only_unreadable', { number: first.number, reason: entryProblemText(first.code) })
		);
	}
	// "None of the HAR's 1 request" reads wrong; one request gets its own phrasing.
	const one = count === 1;
	if (reading.withAuthorization === 0) {
		// Chrome 130 and later leave Authorization out of a HAR unless told to keep sensitive data.
		fail(one ? t('paste_har_one_no_authorization') : t('paste_har_none_authorization', { count }));
	}
	const schemes = [...reading.otherSchemes].map((scheme) => quoted(scheme)).join(', ');
	fail(one ? t('paste_har_one_not_mac', { schemes }) : t('paste_har_none_mac', { count, schemes }));
}

/** One signed entry read: its method, URL (with HTTP/2's :path), headers, time and status. */
export function readSigned(signed: Signed, understood: Text[]): HarRequest {
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
 * URL and headers. Responses, cookies and bodies are not signed, so they are not read. Entries that
 * cannot be read, and a HAR cut short after the first signed entry, are said and left out.
 */
export function parseHar(text: string): ParsedRequest & { sentAt?: SentAt } {
	const reading = signedEntries(text);
	const { signed, count } = reading;
	const first = signed[0] as Signed;
	const understood: Text[] = [];
	if (signed.length > 1) {
		understood.push(t('paste_har_several_signed', { count: signed.length, total: count }));
	} else if (count > 1) {
		understood.push(t('paste_har_one_signed', { total: count }));
	}
	if (reading.unreadable.length > 0) {
		const numbers = reading.unreadable.slice(0, 10).map((entry) => entry.number);
		understood.push(
			t('paste_har_left_out', {
				numbers: `${numbers.join(', ')}${reading.unreadable.length > 10 ? ', …' : ''}`
			})
		);
	}
	const stopped = stopText(reading);
	if (stopped !== null) understood.push(stopped);
	const { url, method, headers, sentAt } = readSigned(first, understood);
	return sentAt
		? { url, method, headers, understood, sentAt }
		: { url, method, headers, understood };
}

/** One row of a HAR's list: a signed request, or an entry (or the rest of the file) not read. */
export type HarListed =
	{ kind: 'request'; request: HarRequest } | { kind: 'unreadable'; number: number; problem: Text };

/**
 * Every request of a HAR signed with MAC, each read as parseHar reads the first (without saying
 * which of the HAR's requests it is: the page lists them), and every entry that cannot be read, in
 * the HAR's order; last, where the HAR stops when it is cut short or broken. Fails as parseHar does.
 */
export function parseHarRequests(text: string): HarListed[] {
	const reading = signedEntries(text);
	const rows: HarListed[] = reading.signed.map((signed) => ({
		kind: 'request',
		request: readSigned(signed, [])
	}));
	for (const { number, code } of reading.unreadable) {
		rows.push({
			kind: 'unreadable',
			number,
			problem: t('paste_har_entry_unreadable', { number, reason: entryProblemText(code) })
		});
	}
	const number = (row: HarListed) => (row.kind === 'request' ? row.request.number : row.number);
	rows.sort((a, b) => number(a) - number(b));
	const stopped = stopText(reading);
	if (stopped !== null && reading.stop !== null && reading.stop.number > 0)
		rows.push({ kind: 'unreadable', number: reading.stop.number, problem: stopped });
	return rows;
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
