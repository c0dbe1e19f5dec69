export type SegmentKind = 'text' | 'lf' | 'cr' | 'tab' | 'space' | 'control';

export interface Segment {
	kind: SegmentKind;
	/** What to show: the text itself, or a symbol standing for the invisible character. */
	shown: string;
	/** What a screen reader says for an invisible character. */
	label?: string;
}

const SYMBOLS: Record<Exclude<SegmentKind, 'text' | 'control'>, [string, string]> = {
	lf: ['↵', 'line feed'],
	cr: ['\\r', 'carriage return'],
	tab: ['\\t', 'tab'],
	space: ['·', 'space']
};

// No-break and zero-width spaces look like nothing, or like a plain space, yet change the bytes.
const INVISIBLE = new Set([0x00a0, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const SPACE = 0x20;

/**
 * Half of a UTF-16 pair without its other half: a paste or a link can hold one, no text encoding
 * can (UTF-8 writes U+FFFD instead), and a browser draws it as U+FFFD or as nothing.
 */
function isLoneSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdfff;
}

function mark(kind: keyof typeof SYMBOLS): Segment {
	const [shown, label] = SYMBOLS[kind];
	return { kind, shown, label };
}

/**
 * A segment for the character of code `code` that needs a mark, or null for plain text. A surrogate
 * reaches here only alone: markLine steps over whole pairs.
 */
function markFor(code: number, outerSpace: boolean): Segment | null {
	if (code === 0x09) return mark('tab');
	if (code === SPACE) return outerSpace ? mark('space') : null;
	if (code < 0x20 || code === 0x7f || INVISIBLE.has(code) || isLoneSurrogate(code)) {
		const hex = code.toString(16).toUpperCase().padStart(4, '0');
		return { kind: 'control', shown: `<U+${hex}>`, label: `invisible character U+${hex}` };
	}
	return null;
}

/** The segments of the line from `start` to `end` (no CR or LF in it), added to `segments`. */
function markLine(text: string, start: number, end: number, segments: Segment[]): void {
	let leadEnd = start;
	while (leadEnd < end && text.charCodeAt(leadEnd) === SPACE) leadEnd++;
	let trailStart = end;
	while (trailStart > leadEnd && text.charCodeAt(trailStart - 1) === SPACE) trailStart--;
	// Plain text between marks is one segment, cut from the text: not built a character at a time.
	let plainFrom = start;
	for (let index = start; index < end; index++) {
		const code = text.charCodeAt(index);
		// A whole pair (high, then low) is one character of plain text.
		if (code >= 0xd800 && code <= 0xdbff && index + 1 < end) {
			const next = text.charCodeAt(index + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				index++;
				continue;
			}
		}
		const segment = markFor(code, index < leadEnd || index >= trailStart);
		if (segment === null) continue;
		if (index > plainFrom) segments.push({ kind: 'text', shown: text.slice(plainFrom, index) });
		segments.push(segment);
		plainFrom = index + 1;
	}
	if (end > plainFrom) segments.push({ kind: 'text', shown: text.slice(plainFrom, end) });
}

/**
 * Splits text into what is visible as it is and marks for what is not: every LF, CR and tab and
 * control character, and the spaces at either end of a line, where a stray one hides best. One pass
 * over the text, each line's ends found from its ends: linear in the text, whatever its shape.
 */
export function visibleSegments(text: string): Segment[] {
	const segments: Segment[] = [];
	for (let start = 0; ;) {
		let end = start;
		while (end < text.length && text.charAt(end) !== '\n' && text.charAt(end) !== '\r') end++;
		markLine(text, start, end, segments);
		if (end === text.length) return segments;
		segments.push(mark(text.charAt(end) === '\n' ? 'lf' : 'cr'));
		start = end + 1;
	}
}

/** The same marks as plain text, for copying and for tests. */
export function visibleText(text: string): string {
	return visibleSegments(text)
		.map((segment) => segment.shown)
		.join('');
}

const LINE_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r' };

/**
 * The text on one line, as a log or a string literal writes it: `\` as `\\`, LF as `\n`, CR as
 * `\r`; every other character as it is.
 */
export function escapeLineBreaks(text: string): string {
	return text.replace(/[\\\n\r]/g, (char) => LINE_ESCAPES[char] ?? char);
}
