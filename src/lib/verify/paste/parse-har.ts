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
	request: JsonObject;
	headers: HeaderField[];
	entry: JsonObject;
}

/**
 * Reads a HAR file (devtools' "Save all as HAR"): the first request signed with MAC, its method,
 * URL and headers. Responses, cookies and bodies are not signed, so they are not read.
 */
export function parseHar(text: string): ParsedRequest & { sentAt?: SentAt } {
	let root: unknown;
	try {
		root = JSON.parse(text.trim());
	} catch (error) {
		const reason = error instanceof Error ? error.message.slice(0, 120) : 'not JSON';
		fail(`This looks like a HAR file but is not valid JSON (${reason}): was it cut short?`);
	}
	const log = isObject(root) ? member(root, 'log') : undefined;
	if (!isObject(log)) {
		fail('This JSON is not a HAR file: a HAR has a "log" object with the requests in "entries".');
	}
	const entries = member(log, 'entries');
	if (!Array.isArray(entries)) fail('The HAR has no "log.entries" list of requests.');
	if (entries.length === 0) {
		fail('The HAR holds no requests (log.entries is empty): record the call, then export again.');
	}

	let first: Signed | undefined;
	let signedCount = 0;
	let withAuthorization = 0;
	const otherSchemes = new Set<string>();
	for (const entry of entries) {
		const request = isObject(entry) ? member(entry, 'request') : undefined;
		if (!isObject(request)) continue;
		const headers = headersOf(request);
		const authorizations = headers.filter(isAuthorization);
		if (authorizations.length === 0) continue;
		withAuthorization += 1;
		if (authorizations.some(isMac) && isObject(entry)) {
			signedCount += 1;
			first ??= { request, headers, entry };
		} else if (otherSchemes.size < 3) {
			for (const { value } of authorizations) {
				otherSchemes.add(value.trim().split(/\s/, 1)[0]?.slice(0, 20) || '(empty)');
			}
		}
	}

	// "None of the HAR's 1 request" reads wrong; one request gets its own phrasing.
	const none =
		entries.length === 1 ? "The HAR's one request" : `None of the HAR's ${entries.length} requests`;
	const sends = entries.length === 1 ? 'sends no' : 'sends an';
	const signed = entries.length === 1 ? 'is not signed' : 'is signed';
	if (first === undefined) {
		if (withAuthorization === 0) {
			// Chrome 130 and later leave Authorization out of a HAR unless told to keep sensitive data.
			fail(
				`${none} ${sends} Authorization header. Chrome leaves it out of a HAR ` +
					'unless "Allow to generate HAR with sensitive data" is on in DevTools settings: turn it on ' +
					'and export again, or copy the signed request alone as cURL or fetch.'
			);
		}
		const schemes = [...otherSchemes].slice(0, 3).map((scheme) => quoted(scheme));
		fail(
			`${none} ${signed} with MAC: its Authorization headers use ` +
				`${schemes.join(', ')}, not MAC.`
		);
	}

	const understood: string[] = [];
	if (signedCount > 1) {
		understood.push(
			`The HAR holds ${signedCount} MAC-signed requests (of ${entries.length}); the first is used. ` +
				'To check another, paste it alone, e.g. copied as cURL.'
		);
	} else if (entries.length > 1) {
		understood.push(`The one MAC-signed request of the HAR's ${entries.length} requests is used.`);
	}
	const method = readMethod(first.request, understood);
	const url = readUrl(first, understood);
	const started = member(first.entry, 'startedDateTime');
	const sentAt =
		typeof started === 'string' ? isoTime(started, "the HAR entry's startedDateTime") : null;
	return sentAt
		? { url, method, headers: first.headers, understood, sentAt }
		: { url, method, headers: first.headers, understood };
}

function readMethod(request: JsonObject, understood: string[]): string {
	const method = member(request, 'method');
	if (typeof method === 'string' && method !== '') {
		understood.push(`Method ${method.slice(0, 20)} from the HAR entry.`);
		return method;
	}
	understood.push('The HAR entry names no method; GET assumed.');
	return 'GET';
}

/**
 * The entry's URL; over HTTP/2, devtools also records the `:path` sent. A HAR from a proxy or an
 * exporter that re-encodes URLs can disagree with it, and the signature covers what was sent.
 */
function readUrl({ request, headers }: Signed, understood: string[]): string | undefined {
	const url = member(request, 'url');
	if (typeof url !== 'string' || url.trim() === '') {
		understood.push('The HAR entry has no URL: give the URL.');
		return undefined;
	}
	understood.push('URL from the HAR entry.');
	const path = headers.find((header) => header.name === ':path')?.value;
	const target = attempt(() => requestTarget(url));
	if (path === undefined || !target.ok || path === target.value.uri) return url;
	if (!path.startsWith('/')) {
		understood.push(`The :path pseudo-header ${quoted(path)} is not a path, so it was not used.`);
		return url;
	}
	understood.push(
		`The URL says ${quoted(target.value.uri)} but the HTTP/2 :path pseudo-header says ${quoted(path)}: ` +
			'the URL is built from :path, the bytes actually sent.'
	);
	return `${new URL(target.value.href).origin}${path}`;
}
