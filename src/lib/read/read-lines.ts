// The two line formats: NDJSON (one object a line) and plain log lines that hold a URL and a
// `MAC …` header wherever they stand in the line.
import { findMacHeader } from '$lib/mac';
import { withoutTrailing } from '$lib/mac/encoding';
import { isObject, member } from './parsed-request';
import { logLineTime, type SentAt } from './sent-at';
import type { ReadItem } from './types';

const unreadable = (
	number: number,
	code: 'not-json' | 'not-object' | 'bad-field' | 'no-url' | 'no-authorization',
	field?: string
): ReadItem => ({
	kind: 'unreadable',
	unreadable: field === undefined ? { number, code } : { number, code, field }
});

/** The NDJSON fields, found whatever their case (`Authorization`, `URL`). */
const FIELDS = ['method', 'url', 'authorization', 'status', 'time', 'base_string'] as const;
type Field = (typeof FIELDS)[number];
const FIELD_NAMES: ReadonlyMap<string, Field> = new Map(FIELDS.map((field) => [field, field]));

/**
 * The fields of a log's usual object, whose names are the fields' as written: read by name, with
 * no lookup a name. Null when a name is a field's in another case (`URL`): fieldsOf reads those.
 */
function exactFields(object: Record<string, unknown>): Partial<Record<Field, unknown>> | null {
	let method: unknown;
	let url: unknown;
	let authorization: unknown;
	let status: unknown;
	let time: unknown;
	let base: unknown;
	// JSON.parse's objects hold no name twice: each field is set once at most.
	for (const name of Object.keys(object)) {
		switch (name) {
			case 'method':
				method = object.method;
				break;
			case 'url':
				url = object.url;
				break;
			case 'authorization':
				authorization = object.authorization;
				break;
			case 'status':
				status = object.status;
				break;
			case 'time':
				time = object.time;
				break;
			case 'base_string':
				base = object.base_string;
				break;
			default:
				if (FIELD_NAMES.has(name.toLowerCase())) return null;
		}
	}
	// A field left out is undefined: JSON has no value that is.
	return { method, url, authorization, status, time, base_string: base };
}

function fieldsOf(object: Record<string, unknown>): Partial<Record<Field, unknown>> {
	const found: Partial<Record<Field, unknown>> = {};
	for (const name of Object.keys(object)) {
		// A name as the fields are written needs no lower-casing.
		const field = FIELD_NAMES.get(name) ?? FIELD_NAMES.get(name.toLowerCase());
		if (field !== undefined && !(field in found)) found[field] = member(object, name);
	}
	return found;
}

/** `time`: Unix seconds (a number or digits) or ISO 8601 (a zone, or none: then read as UTC). */
export function readTime(value: unknown): SentAt | null | undefined {
	const source = 'log';
	if (value === undefined || value === null || value === '') return null;
	if (
		typeof value === 'number' ||
		(typeof value === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(value))
	) {
		const seconds = Number(value);
		return Number.isFinite(seconds) && seconds >= 0 && seconds < 1e11
			? { ms: Math.round(seconds * 1000), source, zoneKnown: true }
			: undefined;
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const time = logLineTime(text);
	return time !== null && time.length === text.length ? time.sentAt : undefined;
}

/** HTTP statuses are three digits; anything else in `status` is a mistake of the log. */
function readStatus(value: unknown): number | null | undefined {
	if (value === undefined || value === null || value === '') return null;
	const status = typeof value === 'string' ? Number(value.trim()) : value;
	return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 999
		? status
		: undefined;
}

export function readNdjsonLine(number: number, line: string): ReadItem {
	if (line.trim() === '') return { kind: 'skipped', number };
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return unreadable(number, 'not-json');
	}
	if (!isObject(value)) return unreadable(number, 'not-object');
	const fields = exactFields(value) ?? fieldsOf(value);
	const { url, authorization } = fields;
	const method = fields.method ?? 'GET';
	if (url === undefined || url === null || url === '') return unreadable(number, 'no-url');
	if (authorization === undefined || authorization === null || authorization === '')
		return unreadable(number, 'no-authorization');
	if (typeof url !== 'string') return unreadable(number, 'bad-field', 'url');
	if (typeof authorization !== 'string') return unreadable(number, 'bad-field', 'authorization');
	if (typeof method !== 'string' || method.trim() === '')
		return unreadable(number, 'bad-field', 'method');
	const status = readStatus(fields.status);
	if (status === undefined) return unreadable(number, 'bad-field', 'status');
	const sentAt = readTime(fields.time);
	if (sentAt === undefined) return unreadable(number, 'bad-field', 'time');
	const base = fields.base_string ?? null;
	if (base !== null && typeof base !== 'string')
		return unreadable(number, 'bad-field', 'base_string');
	return {
		kind: 'request',
		request: {
			number,
			method: method.trim(),
			url,
			authorization,
			uriForm: 'as-written',
			status,
			sentAt,
			loggedBaseString: base
		}
	};
}

const URL_IN_LINE = /\bhttps?:\/\/[^\s"'<>\\`]+/i;
const METHOD = /\b(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/;
const STATUS = /\b(?:status|HTTP\/\d(?:\.\d)?)[=: \t]+"?([1-5]\d\d)\b/i;

/**
 * A log line: its MAC header, the http(s) URL on it, the method before the URL (GET when none is
 * written), a status when the line says `status=401` or `HTTP/1.1 401`, and its leading time.
 * A line without a MAC header is another kind of log line, and skipped.
 */
export function readLogLine(number: number, raw: string): ReadItem {
	// A header logged inside a JSON string has its quotes escaped: read them as quotes.
	const line = /\bMAC[ \t]+id[ \t]*=[ \t]*\\"/i.test(raw) ? raw.replace(/\\"/g, '"') : raw;
	const header = findMacHeader(line);
	if (header === null) return { kind: 'skipped', number };
	const rest =
		line.slice(0, header.index) +
		' '.repeat(header.text.length) +
		line.slice(header.index + header.text.length);
	const url = URL_IN_LINE.exec(rest);
	if (url === null) return unreadable(number, 'no-url');
	const method = METHOD.exec(rest.slice(0, url.index))?.[1] ?? 'GET';
	const status = STATUS.exec(rest)?.[1];
	const time = logLineTime(line);
	return {
		kind: 'request',
		request: {
			number,
			method,
			// A sentence may end right after the URL.
			url: withoutTrailing(url[0], '.,;'),
			authorization: header.text,
			uriForm: 'as-written',
			status: status === undefined ? null : Number(status),
			sentAt: time?.sentAt ?? null,
			loggedBaseString: null
		}
	};
}
