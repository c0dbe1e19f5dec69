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
const INVISIBLE = /[\u00a0\u200b-\u200d\u2060\ufeff]/;

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
 * Splits text into what is visible as it is and marks for what is not: every LF, CR, tab and
 * control character, and the spaces at either end of a line, where a stray one hides best.
 */
export function visibleSegments(text: string): Segment[] {
	const segments: Segment[] = [];
	const push = (segment: Segment) => {
		const last = segments.at(-1);
		if (segment.kind === 'text' && last?.kind === 'text') last.shown += segment.shown;
		else segments.push(segment);
	};
	for (const line of text.split(/(\r|\n)/)) {
		if (line === '\n') push(mark('lf'));
		else if (line === '\r') push(mark('cr'));
		else {
			const lead = /^ */.exec(line)?.[0].length ?? 0;
			const trail = line.length === lead ? 0 : (/ *$/.exec(line)?.[0].length ?? 0);
			Array.from(line).forEach((char, index) => {
				const code = char.codePointAt(0) ?? 0;
				if (char === '\t') push(mark('tab'));
				else if (char === ' ' && (index < lead || index >= line.length - trail))
					push(mark('space'));
				else if (code < 0x20 || code === 0x7f || INVISIBLE.test(char) || isLoneSurrogate(code)) {
					const hex = code.toString(16).toUpperCase().padStart(4, '0');
					push({ kind: 'control', shown: `<U+${hex}>`, label: `invisible character U+${hex}` });
				} else push({ kind: 'text', shown: char });
			});
		}
	}
	return segments;
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
