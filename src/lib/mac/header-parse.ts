// Reading an Authorization header: the server's side (sandbox, verify, triage), apart from writing
// one (header.ts), so the signing page does not load a reader it never runs.
import type { MacErrorDetail } from './error-codes';
import { MacInputError, requireText } from './errors';
import type { MacHeaderParams } from './header';

const KNOWN = new Set(['id', 'ts', 'nonce', 'mac', 'ext']);

function headerError(detail: MacErrorDetail): never {
	throw new MacInputError('Authorization', detail);
}

// A header is read a part at a time, each part by a pattern that cannot backtrack far, and quoted
// values by a loop: never one pattern for a whole parameter or a whole header. Such a pattern can
// share a run of blanks between two of its `\s*` in every possible way when what follows does not
// fit (`MAC id=`, a million spaces, `"`: quadratic time), and its engine keeps state for each
// character of a quoted value or each parameter it passes, which a value or a line of millions of
// characters makes a RangeError instead of an answer.

/** `name =` and the blanks around it, up to the value. */
const NAME = /\s*([A-Z][\w-]*)\s*=\s*/iy;
/** A value without quotes (possibly empty). */
const BARE = /[^\s,"]*/y;
/** The blanks after a value, then a comma or the end. */
const SEPARATOR = /\s*(,|$)/y;
/** What `.` does not match: after a backslash, these end a quoted value unread. */
const LINE_TERMINATORS = '\n\r\u2028\u2029';

/**
 * Where the quoted value whose `"` is at `open` ends (just after its closing `"`); -1 when it never
 * closes, or when a backslash escapes a line end or nothing. A backslash escapes any other character.
 */
function quotedEnd(text: string, open: number): number {
	for (let index = open + 1; index < text.length; index++) {
		const char = text.charAt(index);
		if (char === '"') return index + 1;
		if (char === '\\') {
			if (index + 1 === text.length || LINE_TERMINATORS.includes(text.charAt(index + 1))) return -1;
			index++;
		}
	}
	return -1;
}

/**
 * Reads `name = "quoted value"` or `name = bare-value` at `at`, then the blanks and the comma or end
 * after it: the name, the value as written (quotes taken off, escapes still in), whether it was
 * quoted, and where reading goes on; null when no parameter can be read there.
 */
function readParam(
	text: string,
	at: number
): { name: string; value: string; quoted: boolean; next: number; last: boolean } | null {
	NAME.lastIndex = at;
	const named = NAME.exec(text);
	if (named === null) return null;
	const valueAt = NAME.lastIndex;
	let valueEnd: number;
	let value: string;
	if (text.charAt(valueAt) === '"') {
		valueEnd = quotedEnd(text, valueAt);
		if (valueEnd < 0) return null;
		value = text.slice(valueAt + 1, valueEnd - 1);
	} else {
		BARE.lastIndex = valueAt;
		value = BARE.exec(text)?.[0] ?? '';
		valueEnd = valueAt + value.length;
	}
	SEPARATOR.lastIndex = valueEnd;
	const separator = SEPARATOR.exec(text);
	if (separator === null) return null;
	const quoted = text.charAt(valueAt) === '"';
	return {
		name: named[1] ?? '',
		value,
		quoted,
		next: SEPARATOR.lastIndex,
		last: separator[1] === ''
	};
}

/**
 * Reads a MAC Authorization header as people paste it: with or without `Authorization:`, `,` or `, `,
 * wrapped across lines, values quoted or bare, the parts in any order; a value may hold `:` and `=`.
 * Throws a MacInputError saying what is wrong. With `passOver` (for a reader that says how the header
 * departs from the spec's form, $lib/read/header-format.ts), a part of an unknown name and a part
 * written twice with the same value are passed over; a part twice with two values still throws, as
 * which one the service would take, nothing says.
 */
export function parseAuthorization(
	header: string,
	options: { passOver?: boolean } = {}
): MacHeaderParams {
	requireText('Authorization', header);
	let text = header.trim().replace(/^authorization\s*:\s*/i, '');
	const scheme = /^([A-Z][\w-]*)\s+/i.exec(text);
	if (!scheme) headerError({ code: text === '' ? 'header_empty' : 'header_no_scheme', params: {} });
	if (scheme[1]?.toUpperCase() !== 'MAC')
		headerError({ code: 'header_scheme', params: { scheme: scheme[1] ?? '' } });
	text = text.slice(scheme[0].length);

	const found = new Map<string, string>();
	let at = 0;
	while (at < text.length) {
		const param = readParam(text, at);
		if (param === null)
			headerError({ code: 'header_unreadable', params: { at: text.slice(at, at + 24) } });
		const name = param.name.toLowerCase();
		// A line break inside a value comes from wrapping, not from the value (these carry no white space).
		const value = param.quoted
			? param.value.replace(/\\(.)/g, '$1').replace(/\r?\n[ \t]*/g, '')
			: param.value;
		if (!KNOWN.has(name)) {
			if (options.passOver !== true)
				headerError({
					code: 'header_unknown_param',
					params: { name, draft0: name === 'bodyhash' }
				});
		} else if (!found.has(name)) found.set(name, value);
		else if (options.passOver !== true || found.get(name) !== value)
			headerError({ code: 'header_repeated', params: { name } });
		if (param.last) break;
		at = param.next;
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

// A log line writes the header among other text, blanks as spaces and tabs only.
const MAC_IN_LINE = /\bMAC[ \t]+/gi;
const LINE_NAME = /[a-z][\w-]*[ \t]*=[ \t]*/iy;
const LINE_SEPARATOR = /[ \t]*,[ \t]*/y;

/**
 * Where the `name = value` at `at` of a log line ends, or -1 when none starts there. A quote that
 * never closes is no quoted value: the value is then empty, and the header ends before the quote.
 */
function lineParamEnd(line: string, at: number): number {
	LINE_NAME.lastIndex = at;
	if (LINE_NAME.exec(line) === null) return -1;
	const valueAt = LINE_NAME.lastIndex;
	if (line.charAt(valueAt) === '"') return Math.max(quotedEnd(line, valueAt), valueAt);
	BARE.lastIndex = valueAt;
	return valueAt + (BARE.exec(line)?.[0].length ?? 0);
}

/**
 * The first MAC Authorization header in a line of a log, wherever it stands: `MAC`, then
 * `name=value` parameters (quoted or bare) joined by commas, as far as they go; null when the line
 * has none. Read a parameter at a time (see parseAuthorization), in time linear in the line.
 */
export function findMacHeader(line: string): { index: number; text: string } | null {
	requireText('line', line);
	MAC_IN_LINE.lastIndex = 0;
	for (let mac = MAC_IN_LINE.exec(line); mac !== null; mac = MAC_IN_LINE.exec(line)) {
		let end = lineParamEnd(line, MAC_IN_LINE.lastIndex);
		if (end < 0) continue;
		for (;;) {
			LINE_SEPARATOR.lastIndex = end;
			if (LINE_SEPARATOR.exec(line) === null) break;
			const next = lineParamEnd(line, LINE_SEPARATOR.lastIndex);
			if (next < 0) break;
			end = next;
		}
		return { index: mac.index, text: line.slice(mac.index, end) };
	}
	return null;
}
