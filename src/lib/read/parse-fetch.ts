import { text as t, type Text } from '$lib/i18n/text';
import {
	fail,
	isObject,
	member,
	shown,
	type HeaderField,
	type JsonObject,
	type ParsedRequest
} from './parsed-request';

/** `fetch(`, as devtools' "Copy as fetch" starts it; Firefox adds `await`. */
export const FETCH_CALL = /^(?:await\s+)?fetch\s*\(/;

// fetch() upper-cases these whatever case the caller wrote, so the server sees them upper-cased.
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

function skipSpace(text: string, at: number): number {
	let index = at;
	while (index < text.length && /\s/.test(text.charAt(index))) index += 1;
	return index;
}

/** The end of the JSON string starting at `at` (just past its closing quote), or -1 if unclosed. */
function stringEnd(text: string, at: number): number {
	for (let index = at + 1; index < text.length; index += 1) {
		const char = text.charAt(index);
		if (char === '\\') index += 1;
		else if (char === '"') return index + 1;
	}
	return -1;
}

/**
 * The end of the JSON object or array starting at `at`, or -1 if it never closes. Brackets inside
 * strings do not count, so a header value such as "Mozilla/5.0 (X11; Linux)" cannot end it early.
 */
function valueEnd(text: string, at: number): number {
	let depth = 0;
	for (let index = at; index < text.length; index += 1) {
		const char = text.charAt(index);
		if (char === '"') {
			index = stringEnd(text, index) - 1;
			if (index < 0) return -1;
		} else if (char === '{' || char === '[') depth += 1;
		else if (char === '}' || char === ']') {
			depth -= 1;
			if (depth === 0) return index + 1;
		}
	}
	return -1;
}

function parseJson(
	text: string,
	what: 'paste_fetch_url_not_json' | 'paste_fetch_options_not_json'
): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message.slice(0, 120) : 'not JSON';
		fail(t(what, { reason }));
	}
}

/**
 * Reads a fetch call as devtools' "Copy as fetch" writes it (Chrome, Chrome's Node.js variant,
 * Firefox): the URL and the options are JSON, so JSON.parse reads them and nothing is evaluated.
 */
export function parseFetch(text: string): ParsedRequest {
	const call = text.trim();
	const start = FETCH_CALL.exec(call);
	if (!start) fail(t('paste_fetch_expected'));
	let at = skipSpace(call, start[0].length);
	if (call.charAt(at) !== '"') {
		fail(t('paste_fetch_url_not_quoted'));
	}
	const urlEnd = stringEnd(call, at);
	if (urlEnd < 0) fail(t('paste_fetch_url_unclosed'));
	const url = parseJson(call.slice(at, urlEnd), 'paste_fetch_url_not_json');
	if (typeof url !== 'string') fail(t('paste_fetch_url_not_string'));
	const understood: Text[] = [t('paste_fetch_url')];

	const cutShort = () => fail(t('paste_fetch_unclosed'));
	let options: JsonObject = {};
	at = skipSpace(call, urlEnd);
	if (call.charAt(at) === ',') at = skipSpace(call, at + 1);
	if (at >= call.length) cutShort();
	if (call.charAt(at) !== ')') {
		if (call.charAt(at) !== '{') {
			fail(t('paste_fetch_second_argument', { found: shown(call.slice(at, at + 40)) }));
		}
		const end = valueEnd(call, at);
		if (end < 0) fail(t('paste_fetch_options_unclosed'));
		const parsed = parseJson(call.slice(at, end), 'paste_fetch_options_not_json');
		if (!isObject(parsed)) fail(t('paste_fetch_options_not_object'));
		options = parsed;
		at = skipSpace(call, end);
		if (call.charAt(at) === ',') at = skipSpace(call, at + 1);
		if (at >= call.length) cutShort();
		if (call.charAt(at) !== ')') {
			fail(t('paste_fetch_trailing', { found: shown(call.slice(at, at + 40)) }));
		}
	}
	const rest = call
		.slice(at + 1)
		.replace(/^\s*;/, '')
		.trim();
	if (rest !== '') {
		understood.push(
			FETCH_CALL.test(rest)
				? t('paste_fetch_several')
				: t('paste_fetch_ignored_after', { rest: shown(rest) })
		);
	}

	const method = readMethod(options, understood);
	const headers = readHeaders(options);
	const body = member(options, 'body');
	if (body !== undefined && body !== null) {
		understood.push(t('paste_body_ignored'));
	}
	return { url, method, headers, understood };
}

function readMethod(options: JsonObject, understood: Text[]): string {
	const method = member(options, 'method');
	if (method === undefined) {
		understood.push(t('paste_fetch_method_default'));
		return 'GET';
	}
	if (typeof method !== 'string' || method === '') {
		fail(t('paste_fetch_method_invalid'));
	}
	const upper = method.toUpperCase();
	if (method !== upper && NORMALIZED_METHODS.has(upper)) {
		understood.push(t('paste_fetch_method_upper', { method: upper, written: method }));
		return upper;
	}
	understood.push(t('paste_fetch_method', { method: method.slice(0, 20) }));
	return method;
}

function readHeaders(options: JsonObject): HeaderField[] {
	const headers = member(options, 'headers');
	if (headers === undefined) return [];
	if (!isObject(headers)) {
		fail(t('paste_fetch_headers_not_object'));
	}
	return Object.entries(headers).map(([name, value]) => {
		if (typeof value !== 'string') {
			fail(t('paste_fetch_header_not_string', { name: shown(name) }));
		}
		return { name, value };
	});
}
