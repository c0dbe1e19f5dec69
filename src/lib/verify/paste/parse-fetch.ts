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

function parseJson(text: string, what: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message.slice(0, 120) : 'not JSON';
		fail(`${what} is not JSON as devtools writes it (${reason}).`);
	}
}

/**
 * Reads a fetch call as devtools' "Copy as fetch" writes it (Chrome, Chrome's Node.js variant,
 * Firefox): the URL and the options are JSON, so JSON.parse reads them and nothing is evaluated.
 */
export function parseFetch(text: string): ParsedRequest {
	const call = text.trim();
	const start = FETCH_CALL.exec(call);
	if (!start) fail('Expected a fetch call: fetch("https://…", {"headers": {…}}).');
	let at = skipSpace(call, start[0].length);
	if (call.charAt(at) !== '"') {
		fail(
			'The fetch call’s URL must be a double-quoted string, as devtools writes it: fetch("https://…", …).'
		);
	}
	const urlEnd = stringEnd(call, at);
	if (urlEnd < 0) fail('The fetch call’s URL string is never closed: was the paste cut short?');
	const url = parseJson(call.slice(at, urlEnd), 'The fetch call’s URL');
	if (typeof url !== 'string') fail('The fetch call’s URL is not a string.');
	const understood = ['URL from the fetch call.'];

	const cutShort = () => fail('The fetch call never closes with ")": was the paste cut short?');
	let options: JsonObject = {};
	at = skipSpace(call, urlEnd);
	if (call.charAt(at) === ',') at = skipSpace(call, at + 1);
	if (at >= call.length) cutShort();
	if (call.charAt(at) !== ')') {
		if (call.charAt(at) !== '{') {
			fail(
				`The fetch call’s second argument must be the options object devtools writes ({"headers": {…}}), not ${shown(call.slice(at, at + 40))}.`
			);
		}
		const end = valueEnd(call, at);
		if (end < 0) fail('The fetch call’s options are never closed: was the paste cut short?');
		const parsed = parseJson(call.slice(at, end), 'The fetch call’s options object');
		if (!isObject(parsed)) fail('The fetch call’s options are not an object.');
		options = parsed;
		at = skipSpace(call, end);
		if (call.charAt(at) === ',') at = skipSpace(call, at + 1);
		if (at >= call.length) cutShort();
		if (call.charAt(at) !== ')') {
			fail(
				`The fetch call should end with ")" after its options, but ${shown(call.slice(at, at + 40))} follows.`
			);
		}
	}
	const rest = call
		.slice(at + 1)
		.replace(/^\s*;/, '')
		.trim();
	if (rest !== '') {
		understood.push(
			FETCH_CALL.test(rest)
				? 'The paste holds more than one fetch call; the first is read. Paste the signed one alone to check it.'
				: `Ignored what follows the fetch call: ${shown(rest)}.`
		);
	}

	const method = readMethod(options, understood);
	const headers = readHeaders(options);
	const body = member(options, 'body');
	if (body !== undefined && body !== null) {
		understood.push('The body is not signed, so it was ignored.');
	}
	return { url, method, headers, understood };
}

function readMethod(options: JsonObject, understood: string[]): string {
	const method = member(options, 'method');
	if (method === undefined) {
		understood.push('Method GET: fetch’s default when the options name none.');
		return 'GET';
	}
	if (typeof method !== 'string' || method === '') {
		fail('The fetch call’s "method" is not a method name such as "GET".');
	}
	const upper = method.toUpperCase();
	if (method !== upper && NORMALIZED_METHODS.has(upper)) {
		understood.push(`Method ${upper}: fetch sends "${method}" upper-cased.`);
		return upper;
	}
	understood.push(`Method ${method.slice(0, 20)} from the fetch options.`);
	return method;
}

function readHeaders(options: JsonObject): HeaderField[] {
	const headers = member(options, 'headers');
	if (headers === undefined) return [];
	if (!isObject(headers)) {
		fail(
			'The fetch call’s "headers" must be an object of names and strings, as devtools writes it: {"Authorization": "MAC …"}.'
		);
	}
	return Object.entries(headers).map(([name, value]) => {
		if (typeof value !== 'string') {
			fail(`The fetch call’s header ${shown(name)} is not a string.`);
		}
		return { name, value };
	});
}
