import { text as t, type Text } from '$lib/i18n/text';
import { BASE_STRING_RULES } from '$lib/mac';
import { withoutTrailing } from '$lib/mac/encoding';
import { logLineTime, type SentAt } from '$lib/read/sent-at';

export type InvisibleKind =
	'cr' | 'tab' | 'leading-space' | 'trailing-space' | 'no-break-space' | 'zero-width' | 'control';

export interface Invisible {
	kind: InvisibleKind;
	/** Index of the character in the line, in code points. */
	index: number;
}

export interface DiffSegment {
	text: string;
	changed: boolean;
}

export interface LineDiff {
	/** 1-based, as the spec numbers the seven lines. */
	number: number;
	/** The spec's name of the line ("request URI"), or "extra line" past the seventh. */
	name: string;
	/** Null when that side has no such line. */
	expected: string | null;
	actual: string | null;
	/** Whether the line ends with LF; only the last pasted line can lack one. */
	expectedTerminated: boolean;
	actualTerminated: boolean;
	same: boolean;
	expectedSegments: DiffSegment[];
	actualSegments: DiffSegment[];
	/** Invisible characters in the pasted line, which a log shows as nothing. */
	invisible: Invisible[];
}

export interface BaseStringDiff {
	lines: LineDiff[];
	same: boolean;
	/** Number of the first line that differs, or null. */
	firstDifference: number | null;
	/** The paste shows `\n` as text and has no line breaks: offer unescapeBaseString. */
	canUnescape: boolean;
	notes: Text[];
}

interface Line {
	value: string;
	terminated: boolean;
}

/**
 * Lines compared one by one, at most: a base string has seven, and a paste of thousands of lines
 * (a whole log) is compared on these and counted beyond them, not drawn as thousands of rows.
 */
export const MAX_DIFF_LINES = 64;

/** The first `max` lines of the text, and how many lines come after them. */
function splitLines(text: string, max: number): { lines: Line[]; more: number } {
	const lines: Line[] = [];
	let from = 0;
	while (lines.length < max) {
		const end = text.indexOf('\n', from);
		// The text after the last LF is a line only when it is not empty.
		if (end < 0) {
			if (from < text.length) lines.push({ value: text.slice(from), terminated: false });
			return { lines, more: 0 };
		}
		lines.push({ value: text.slice(from, end), terminated: true });
		from = end + 1;
	}
	let more = 0;
	for (let end = text.indexOf('\n', from); end >= 0; end = text.indexOf('\n', from)) {
		more += 1;
		from = end + 1;
	}
	return { lines, more: from < text.length ? more + 1 : more };
}

/** True when a log escaped the line breaks: `\n` as text, and no real line break inside. */
export function hasEscapedLineBreaks(text: string): boolean {
	return /\\n/.test(text) && !/[\r\n]/.test(withoutTrailing(text, '\r\n'));
}

/**
 * The base string behind a log's escaped form: a JSON string literal as a whole when it is one,
 * else `\n`, `\r`, `\t` and `\\` replaced.
 */
export function unescapeBaseString(text: string): string {
	const trimmed = text.trim();
	if (trimmed.startsWith('"') && trimmed.endsWith('"')) {
		try {
			const parsed: unknown = JSON.parse(trimmed);
			if (typeof parsed === 'string') return parsed;
		} catch {
			// Not JSON after all: fall through to the plain escapes.
		}
	}
	const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\' };
	return withoutTrailing(text, '\r\n').replace(
		/\\([nrt\\'"])/g,
		(_, char: string) => escapes[char] ?? char
	);
}

/** A pasted base string as compared: out of its log line and quotes, its escapes read. */
export interface LoggedBaseString {
	text: string;
	/** What was taken off around the base string, in words ("the log prefix "…"", "the quotes"). */
	tookOff: Text[];
	/** The paste shows line breaks as `\n` text. */
	escaped: boolean;
	/** Whether those escapes were read as the characters they stand for. */
	unescaped: boolean;
	/** The time the log line starts with, when it has one: when the request was signed. */
	loggedAt: SentAt | null;
}

// The base string starts with the ts: digits, then a line break, as text or real.
const TS_LINE = String.raw`(?=\d{1,15}(?:\\[rn]|\r|\n))`;
const BARE_START = new RegExp(String.raw`^((?:b?['"])?)` + TS_LINE);
// A log prefix ends with `=`, `:` or a blank, before the quote: `… DEBUG signer: base_string='`.
const PREFIXED_START = new RegExp(String.raw`^(.*?(?:[=:][ \t]*|[ \t]))((?:b?['"])?)` + TS_LINE);

/** A value for a note, cut at 80 characters (the message puts it in quotes). */
function forNote(value: string): string {
	return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}

/** Where the quote opened before `from` closes; a backslash escapes the next character. */
function closingQuote(text: string, from: number, quote: string): number {
	for (let index = from; index < text.length; index++) {
		const char = text.charAt(index);
		if (char === '\\') index++;
		else if (char === quote) return index;
	}
	return -1;
}

/**
 * Takes a base string out of the log line it was pasted with (`2021-04-12 10:02:30,118 DEBUG
 * signer: base_string='1618221750\n…\n\n'`): the prefix before the ts, the quotes around it and
 * anything after the closing quote are taken off, and `\n` shown as text is read as a line break
 * unless `unescape` says otherwise (null: when the paste shows escapes). Text that starts with the
 * ts is taken as it is.
 */
export function readLoggedBaseString(
	text: string,
	unescape: boolean | null = null
): LoggedBaseString {
	const head = text.slice(0, 500);
	const bare = BARE_START.exec(head);
	let prefixed = bare ? null : PREFIXED_START.exec(head);
	// A prefix never holds a line of the base string; blanks alone are the customer's, not a log's.
	if (prefixed && (/\\[nr]/.test(prefixed[1] ?? '') || (prefixed[1] ?? '').trim() === ''))
		prefixed = null;
	const prefix = prefixed?.[1] ?? '';
	const opening = bare?.[1] ?? prefixed?.[2] ?? '';
	const start = (bare ?? prefixed)?.[0].length ?? 0;
	const quote = opening.replace(/^b/, '');
	let body = (bare ?? prefixed) ? text.slice(start) : text;
	const tookOff: Text[] = [];
	if (prefix.trim() !== '')
		tookOff.push(t('diagnosis_took_prefix', { prefix: forNote(prefix.trim()) }));
	if (quote !== '') {
		const close = closingQuote(body, 0, quote);
		if (close < 0) tookOff.push(t('diagnosis_took_opening_quote'));
		else {
			const after = body.slice(close + 1).trim();
			body = body.slice(0, close);
			tookOff.push(t('diagnosis_took_quotes'));
			if (after !== '') tookOff.push(t('diagnosis_took_after', { text: forNote(after) }));
		}
	}
	const escaped = hasEscapedLineBreaks(body);
	const unescaped = unescape ?? escaped;
	return {
		text: unescaped ? unescapeQuoted(body, quote) : body,
		tookOff,
		escaped,
		unescaped,
		loggedAt: prefix === '' ? null : (logLineTime(prefix)?.sentAt ?? null)
	};
}

/** A quoted body's escapes read: as a JSON string when it was in double quotes and is one. */
function unescapeQuoted(body: string, quote: string): string {
	if (quote === '"') {
		try {
			const parsed: unknown = JSON.parse(`"${body}"`);
			if (typeof parsed === 'string') return parsed;
		} catch {
			// Not JSON: the plain escapes below.
		}
	}
	return unescapeBaseString(body);
}

/** "a, b and c", in the page's language. */
function joinWords(words: readonly Text[]): Text {
	const [first, second, ...rest] = words;
	if (first === undefined) return t('diagnosis_took_quotes');
	if (second === undefined) return first;
	if (rest.length === 0) return t('diagnosis_list_two', { first, second });
	return t('diagnosis_list_more', { first, rest: joinWords([second, ...rest]) });
}

/**
 * Compares a base string pasted from a customer's log with the expected one: taken out of its log
 * line first (readLoggedBaseString), and the notes say what was taken off and what was unescaped.
 */
export function diffLoggedBaseString(
	expected: string,
	pasted: string,
	unescape: boolean | null = null
): BaseStringDiff & { read: LoggedBaseString } {
	const read = readLoggedBaseString(pasted, unescape);
	const diff = diffBaseString(expected, read.text);
	const notes: Text[] = [];
	if (read.tookOff.length > 0)
		notes.push(t('diagnosis_diff_took_off', { list: joinWords(read.tookOff) }));
	if (read.unescaped && read.escaped) notes.push(t('diagnosis_diff_read_escapes'));
	return {
		...diff,
		canUnescape: read.escaped || diff.canUnescape,
		notes: [...notes, ...diff.notes],
		read
	};
}

const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d;
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The invisible characters of a line, indexed in code points. One pass over the line, then one
 * back over its blank end: a space counts as leading or trailing with only white space (a tab, the
 * CR) beyond it, and each character is looked at a fixed number of times.
 */
function invisibles(line: string): Invisible[] {
	// Blanks are one code unit each: the blank start and end are counted in code units.
	let lead = 0;
	while (lead < line.length && isBlank(line.charCodeAt(lead))) lead += 1;
	let trail = line.length;
	while (trail > lead && isBlank(line.charCodeAt(trail - 1))) trail -= 1;
	const found: Invisible[] = [];
	for (let at = 0, index = 0; at < line.length; index += 1) {
		const code = line.codePointAt(at) ?? 0;
		let kind: InvisibleKind | null = null;
		if (code === 0x0d) kind = 'cr';
		else if (code === 0x09) kind = 'tab';
		else if (code === 0x20 && at < lead) kind = 'leading-space';
		else if (code === 0x20 && at >= trail) kind = 'trailing-space';
		else if (code === 0xa0) kind = 'no-break-space';
		else if ((code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff)
			kind = 'zero-width';
		else if (code < 0x20 || code === 0x7f) kind = 'control';
		if (kind !== null) found.push({ kind, index });
		at += code > 0xffff ? 2 : 1;
	}
	return found;
}

/**
 * Marks the differing middle of two lines: the common prefix and suffix stay unmarked. Linear in
 * the lines (one scan from each end, no table of both); counted in code units, then moved off the
 * middle of a surrogate pair so that the segments split the lines between characters.
 */
export function segmentDiff(expected: string, actual: string): [DiffSegment[], DiffSegment[]] {
	const a = expected;
	const b = actual;
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a.charCodeAt(prefix) === b.charCodeAt(prefix))
		prefix += 1;
	// A pair whose high halves are equal is one character that differs: it belongs to the middle.
	if (
		prefix > 0 &&
		isHigh(a.charCodeAt(prefix - 1)) &&
		(isLow(a.charCodeAt(prefix)) || isLow(b.charCodeAt(prefix)))
	)
		prefix -= 1;
	let suffix = 0;
	while (
		suffix < a.length - prefix &&
		suffix < b.length - prefix &&
		a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)
	)
		suffix += 1;
	if (
		suffix > 0 &&
		isLow(a.charCodeAt(a.length - suffix)) &&
		(isHigh(a.charCodeAt(a.length - suffix - 1)) || isHigh(b.charCodeAt(b.length - suffix - 1)))
	)
		suffix -= 1;
	const segments = (line: string): DiffSegment[] =>
		[
			{ text: line.slice(0, prefix), changed: false },
			{ text: line.slice(prefix, line.length - suffix), changed: true },
			{ text: line.slice(line.length - suffix), changed: false }
		].filter((segment) => segment.text !== '');
	return [segments(a), segments(b)];
}

/** Compares a base string pasted from a customer's log with the expected one, line by line. */
export function diffBaseString(expected: string, actual: string): BaseStringDiff {
	const want = splitLines(expected, MAX_DIFF_LINES).lines;
	const { lines: got, more } = splitLines(actual, MAX_DIFF_LINES);
	const lines: LineDiff[] = [];
	for (let index = 0; index < Math.max(want.length, got.length); index += 1) {
		const w = want[index];
		const g = got[index];
		const [expectedSegments, actualSegments] = segmentDiff(w?.value ?? '', g?.value ?? '');
		lines.push({
			number: index + 1,
			name: BASE_STRING_RULES[index]?.name ?? 'extra line',
			expected: w?.value ?? null,
			actual: g?.value ?? null,
			expectedTerminated: w?.terminated ?? false,
			actualTerminated: g?.terminated ?? false,
			same:
				w !== undefined && g !== undefined && w.value === g.value && w.terminated === g.terminated,
			expectedSegments,
			actualSegments,
			invisible: g === undefined ? [] : invisibles(g.value)
		});
	}
	const same = expected === actual;
	const first = lines.find((line) => !line.same);
	const notesFound = notes(expected, actual, lines);
	if (more > 0)
		notesFound.push(
			t('diagnosis_diff_more_lines', { count: String(more), shown: String(lines.length) })
		);
	return {
		lines,
		same,
		firstDifference: first?.number ?? (same ? null : lineOfFirstDifference(expected, actual)),
		canUnescape: hasEscapedLineBreaks(actual),
		notes: notesFound
	};
}

/** The number of the line where two texts first differ: past the lines compared one by one. */
function lineOfFirstDifference(a: string, b: string): number {
	let at = 0;
	while (at < a.length && at < b.length && a.charCodeAt(at) === b.charCodeAt(at)) at += 1;
	let line = 1;
	for (let end = a.indexOf('\n'); end >= 0 && end < at; end = a.indexOf('\n', end + 1)) line += 1;
	return line;
}

function notes(expected: string, actual: string, lines: LineDiff[]): Text[] {
	const result: Text[] = [];
	if (expected !== actual && withoutTrailing(expected, '\n') === withoutTrailing(actual, '\n')) {
		result.push(t('diagnosis_diff_line_feeds'));
	}
	if (lines.some((line) => line.invisible.some((mark) => mark.kind === 'cr'))) {
		result.push(t('diagnosis_diff_crlf'));
	}
	if (hasEscapedLineBreaks(actual)) {
		result.push(t('diagnosis_diff_escaped'));
	}
	return result;
}
