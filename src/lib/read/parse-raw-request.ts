import { text as t, type Text } from '$lib/i18n/text';
import { fail, type HeaderField } from './parsed-request';

export interface RawRequest {
	method: string | undefined;
	/** The full URL when the host is known (Host, :authority or an absolute-form request line). */
	url: string | undefined;
	/** The request target as written: the request URI for the usual origin form. */
	target: string | undefined;
	headers: HeaderField[];
	understood: Text[];
}

/** `GET /path?q HTTP/1.1`, the version optional, and the absolute form `GET https://h/p HTTP/1.1`. */
export const REQUEST_LINE =
	/^([A-Za-z]+)[ \t]+(\/\S*|[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+|\*)(?:[ \t]+HTTP\/(\d(?:\.\d)?))?[ \t]*$/;
/**
 * `Name: value`, and the pseudo-headers (`:authority: h`) devtools shows for HTTP/2. `(?![ \t])`
 * takes the blanks after the colon as one run: without it, a line that `.` cannot read to its end
 * (spaces, then U+2028) hands the run to `(.*)` one blank at a time, in quadratic time.
 */
export const HEADER_LINE = /^(:?[!#$%&'*+.^\w`|~-]+):[ \t]*(?![ \t])(.*)$/;

/**
 * Reads a raw HTTP request as pasted from a log, a proxy or devtools: an optional request line,
 * then header lines (LF or CRLF, folded lines joined). A raw request never says its scheme, so
 * https is assumed unless the Host's port says otherwise, and `understood` says so.
 */
export function parseRawRequest(text: string): RawRequest {
	// Blank lines before the request are passed over by index: shifting them off one at a time
	// moves the whole array each time, in quadratic time on a paste of many blank lines.
	const all = text.split(/\r\n|\n|\r/);
	const first = all.findIndex((line) => line.trim() !== '');
	const lines = first < 0 ? [] : all.slice(first);
	const understood: Text[] = [];
	let method: string | undefined;
	let target: string | undefined;
	const requestLine = REQUEST_LINE.exec((lines[0] ?? '').trim());
	if (requestLine && !HEADER_LINE.test((lines[0] ?? '').trim())) {
		lines.shift();
		method = requestLine[1];
		target = requestLine[2];
		understood.push(t('paste_raw_method_line', { method: method ?? '' }));
		if (requestLine[3] === undefined) understood.push(t('paste_raw_no_version'));
	}
	const headers = readHeaders(lines, understood);
	const pseudo = (name: string) => headers.find((header) => header.name.toLowerCase() === name);
	if (method === undefined && pseudo(':method')) {
		method = pseudo(':method')?.value;
		understood.push(t('paste_raw_method_pseudo', { method: method ?? '' }));
	}
	if (target === undefined && pseudo(':path')) {
		target = pseudo(':path')?.value;
		understood.push(t('paste_raw_uri_pseudo'));
	}
	return { method, target, url: resolveUrl(target, headers, understood), headers, understood };
}

function readHeaders(lines: string[], understood: Text[]): HeaderField[] {
	const headers: HeaderField[] = [];
	const skipped: string[] = [];
	for (const [index, line] of lines.entries()) {
		if (line.trim() === '') {
			if (lines.slice(index).some((rest) => rest.trim() !== ''))
				understood.push(t('paste_raw_body_ignored'));
			break;
		}
		const last = headers.at(-1);
		if (/^[ \t]/.test(line) && last) {
			// A folded continuation; the line break is kept so the header parser can tell wrapping.
			last.value += `\n${line}`;
			continue;
		}
		const match = HEADER_LINE.exec(line.trim());
		if (match) headers.push({ name: match[1] ?? '', value: (match[2] ?? '').trim() });
		else skipped.push(line.trim().slice(0, 40));
	}
	if (skipped.length > 0) understood.push(t('paste_raw_skipped', { lines: skipped.join(' | ') }));
	return headers;
}

function resolveUrl(
	target: string | undefined,
	headers: HeaderField[],
	understood: Text[]
): string | undefined {
	if (target === undefined) return undefined;
	const find = (name: string) =>
		headers.find((header) => header.name.toLowerCase() === name)?.value.trim();
	if (/^https?:\/\//i.test(target)) {
		understood.push(t('paste_raw_absolute'));
		return target;
	}
	if (!target.startsWith('/')) {
		fail(t('paste_raw_not_path', { target: target.slice(0, 40) }));
	}
	understood.push(t('paste_raw_uri_line', { uri: target }));
	const authority = find(':authority') ?? find('host');
	if (authority === undefined || authority === '') {
		understood.push(t('paste_raw_no_host'));
		return undefined;
	}
	understood.push(
		t(find(':authority') === undefined ? 'paste_raw_host_header' : 'paste_raw_host_authority', {
			host: authority
		})
	);
	const stated = find(':scheme')?.toLowerCase();
	const port = /:(\d+)$/.exec(authority)?.[1];
	let scheme: string;
	if (stated === 'http' || stated === 'https') {
		scheme = stated;
		understood.push(t('paste_raw_scheme_pseudo', { scheme }));
	} else if (port === '80') {
		scheme = 'http';
		understood.push(t('paste_raw_scheme_80'));
	} else if (port !== undefined) {
		scheme = 'https';
		understood.push(t('paste_raw_port_https', { port }));
	} else {
		scheme = 'https';
		understood.push(t('paste_raw_port_443'));
	}
	return `${scheme}://${authority}${target}`;
}
