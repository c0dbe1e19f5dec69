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
