import type { MacErrorDetail } from './error-messages';
import { MacInputError, requireObject, requireText } from './errors';

export interface MacHeaderParams {
	/** The kid. */
	id: string;
	ts: string;
	nonce: string;
	mac: string;
	ext?: string;
}

export interface HeaderStyle {
	/** A space after each comma (`, `), as some samples write it. */
	space?: boolean;
}

/**
 * Throws unless `value` can stand inside a quoted header value: not empty, no `"`, backslash or
 * control character, and ASCII only (fetch refuses anything else in a header).
 */
export function checkHeaderValue(name: string, value: string): void {
	const field = typeof name === 'string' ? name : 'value';
	requireText(field, value);
	if (value === '') throw new MacInputError(field, { code: 'empty', params: { field } });
	for (const char of value) {
		const code = char.codePointAt(0) ?? 0;
		if (char === '"' || char === '\\') {
			throw new MacInputError(field, { code: 'header_quote', params: { field, char } });
		}
		if (code < 0x20 || code === 0x7f) {
			const codePoint = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
			throw new MacInputError(field, { code: 'header_control', params: { field, codePoint } });
		}
		if (code > 0x7e) {
			throw new MacInputError(field, { code: 'header_non_ascii', params: { field, char } });
		}
	}
}

/** `MAC id="…",ts="…",nonce="…",mac="…"` (spec §5.1), with `ext="…"` before mac when non-empty. */
export function authorizationHeader(params: MacHeaderParams, style?: HeaderStyle): string {
	requireObject('Authorization', params);
	const parts: [string, string][] = [
		['id', params.id],
		['ts', params.ts],
		['nonce', params.nonce]
	];
	if (params.ext !== undefined && params.ext !== '') parts.push(['ext', params.ext]);
	parts.push(['mac', params.mac]);
	for (const [name, value] of parts) checkHeaderValue(name, value);
	return `MAC ${parts.map(([name, value]) => `${name}="${value}"`).join(style?.space === true ? ', ' : ',')}`;
}

const KNOWN = new Set(['id', 'ts', 'nonce', 'mac', 'ext']);

function headerError(detail: MacErrorDetail): never {
	throw new MacInputError('Authorization', detail);
}

/** name = "quoted value" | bare-value, then a comma or the end, with any white space pasting adds. */
const PARAM = /\s*([A-Z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))\s*(,|$)/iy;

/**
 * Reads a MAC Authorization header as people paste it: with or without `Authorization:`, `,` or `, `,
 * wrapped across lines, values quoted or bare, the parts in any order; a value may hold `:` and `=`. Throws a MacInputError saying what is wrong.
 */
export function parseAuthorization(header: string): MacHeaderParams {
	requireText('Authorization', header);
	let text = header.trim().replace(/^authorization\s*:\s*/i, '');
	const scheme = /^([A-Z][\w-]*)\s+/i.exec(text);
	if (!scheme) headerError({ code: text === '' ? 'header_empty' : 'header_no_scheme', params: {} });
	if (scheme[1]?.toUpperCase() !== 'MAC')
		headerError({ code: 'header_scheme', params: { scheme: scheme[1] ?? '' } });
	text = text.slice(scheme[0].length);

	const found = new Map<string, string>();
	const param = new RegExp(PARAM);
	while (param.lastIndex < text.length) {
		const start = param.lastIndex;
		const match = param.exec(text);
		if (!match)
			headerError({ code: 'header_unreadable', params: { at: text.slice(start, start + 24) } });
		const [, rawName = '', quoted, bare = '', separator] = match;
		const name = rawName.toLowerCase();
		// A line break inside a value comes from wrapping, not from the value (these carry no white space).
		const value =
			quoted === undefined ? bare : quoted.replace(/\\(.)/g, '$1').replace(/\r?\n[ \t]*/g, '');
		if (!KNOWN.has(name)) {
			headerError({
				code: 'header_unknown_param',
				params: { name, draft0: name === 'bodyhash' }
			});
		}
		if (found.has(name)) headerError({ code: 'header_repeated', params: { name } });
		found.set(name, value);
		if (separator === '') break;
	}
	const required = ['id', 'ts', 'nonce', 'mac'] as const;
	const missing = required.filter((name) => !found.get(name));
	if (missing.length > 0) {
		const draft0 = missing.join() === 'ts' && /^\d+:/.test(found.get('nonce') ?? '');
		headerError({ code: 'header_missing', params: { names: missing, draft0 } });
	}
	const [id = '', ts = '', nonce = '', mac = ''] = required.map((name) => found.get(name));
	const ext = found.get('ext');
	return ext === undefined ? { id, ts, nonce, mac } : { id, ts, nonce, mac, ext };
}
