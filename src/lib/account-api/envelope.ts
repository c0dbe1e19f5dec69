/**
 * The real service wraps every body as {"data": …, "now": <unix s>, "success": bool}; the spec shows
 * the bare objects. These helpers write the wrapped form and read either.
 */
export interface Envelope<T> {
	data: T;
	now: number;
	success: boolean;
}

export function wrap<T>(data: T, success: boolean, nowMs: number): Envelope<T> {
	return { data, now: Math.floor(nowMs / 1000), success };
}

export interface ErrorObject {
	code?: number;
	error: string;
	error_description?: string;
	/** Extra text the real service may add. */
	msg?: string;
	/** The base string the sandbox signed, in its answer to a mac that does not match. */
	sandbox_base_string?: string;
}

export type ReadBody =
	| { kind: 'error'; error: ErrorObject; now?: number; wrapped: boolean }
	| { kind: 'data'; data: Record<string, unknown>; now?: number; wrapped: boolean }
	| { kind: 'empty' }
	| { kind: 'html'; title: string | null }
	| { kind: 'not-json'; excerpt: string }
	| { kind: 'unexpected-json'; excerpt: string };

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}

/** The text of the first <title>, found by index rather than a regex that backtracks on hostile pages. */
function htmlTitle(html: string): string | null {
	const lower = html.toLowerCase();
	const open = lower.indexOf('<title');
	const start = open < 0 ? -1 : lower.indexOf('>', open);
	const end = start < 0 ? -1 : lower.indexOf('</title>', start);
	if (end < 0) return null;
	const title = html.slice(start + 1, end).trim();
	return title === '' || title.includes('<') ? null : title;
}

/** Reads a response body as the service sends it, wrapped or bare, and says plainly what else it is. */
export function readBody(text: string): ReadBody {
	if (text.trim() === '') return { kind: 'empty' };
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		if (
			/^\s*(?:<!doctype html|<html|<head|<body)/i.test(text) ||
			/<\/(?:html|body|h1|title)>/i.test(text)
		) {
			const title = htmlTitle(text);
			return { kind: 'html', title: title || null };
		}
		return { kind: 'not-json', excerpt: excerpt(text) };
	}
	if (!isRecord(json)) return { kind: 'unexpected-json', excerpt: excerpt(text) };
	const wrapped = 'data' in json && ('success' in json || 'now' in json);
	const inner = wrapped ? json.data : json;
	const now = typeof json.now === 'number' ? json.now : undefined;
	if (isRecord(inner) && typeof inner.error === 'string') {
		const error: ErrorObject = { error: inner.error };
		if (typeof inner.code === 'number') error.code = inner.code;
		if (typeof inner.error_description === 'string')
			error.error_description = inner.error_description;
		if (typeof inner.msg === 'string') error.msg = inner.msg;
		if (typeof inner.sandbox_base_string === 'string')
			error.sandbox_base_string = inner.sandbox_base_string;
		return { kind: 'error', error, now, wrapped };
	}
	if (isRecord(inner)) return { kind: 'data', data: inner, now, wrapped };
	return { kind: 'unexpected-json', excerpt: excerpt(text) };
}
