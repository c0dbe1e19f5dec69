// A request's shape as one small integer: how its Authorization header is written (the separator
// between parts, their order, ext, quoting) and what its nonce and ts look like. Read in one pass
// over the header's text, with indexOf and character codes only: no regular expression, no
// slice, nothing allocated, so that triage can afford it for every request.
import { SAMPLE_NONCES, type NonceStyle, type Separator, type TsStyle } from './client-profiles';

/** `,` between every two parts, `, ` between every two, or anything else (mixed, line breaks). */
export type ShapeSeparator = Separator | 'other';
/** A nonce no client of the vendor makes is 'other'. */
export type ShapeNonce = NonceStyle | 'other';
/**
 * 'padded' (10 digits with a leading 0), 'unpadded' (fewer than 10 digits), 'ten-digits' (what
 * either makes today), 'milliseconds' (13 digits), or 'other'.
 */
export type ShapeTs = TsStyle | 'ten-digits' | 'milliseconds' | 'other';

export interface Shape {
	/** False when the header is not `MAC` with id, ts, nonce and mac, each once. */
	readable: boolean;
	separator: ShapeSeparator;
	/** The parts in the order id, ts, nonce, mac (as every client writes them). */
	usualOrder: boolean;
	ext: boolean;
	/** Every value in double quotes. */
	quoted: boolean;
	nonce: ShapeNonce;
	ts: ShapeTs;
}

/** The styles of each part of a shape, in the order of their bits (fast-parse.ts reads them too). */
export const SEPARATORS: readonly ShapeSeparator[] = ['comma', 'comma-space', 'other'];
export const NONCES: readonly ShapeNonce[] = [
	'other',
	'base64-16',
	'letters-16',
	'decimal',
	'shell-sample',
	'php-sample',
	'go-sample'
];
export const TS_STYLES: readonly ShapeTs[] = [
	'other',
	'padded',
	'unpadded',
	'ten-digits',
	'milliseconds'
];

// The bits of a shape: separator (2), unusual order, ext, a bare value, nonce (3), ts (3), unreadable.
const SEPARATOR_MASK = 0b11;
const UNUSUAL_ORDER = 1 << 2;
const EXT = 1 << 3;
const BARE = 1 << 4;
const NONCE_SHIFT = 5;
const TS_SHIFT = 8;
const UNREADABLE = 1 << 11;
/** Every shape is below this: a table indexed by shape needs this many entries. */
export const SHAPES = 1 << 12;

/** The shape of a header that cannot be read. */
export const UNREADABLE_SHAPE = UNREADABLE;

const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const BACKSLASH = 0x5c;

function isBlank(code: number): boolean {
	return code === SPACE || code === TAB || code === 0x0a || code === 0x0d;
}

function isNameChar(code: number): boolean {
	return (
		(code >= 0x61 && code <= 0x7a) ||
		(code >= 0x41 && code <= 0x5a) ||
		(code >= 0x30 && code <= 0x39) ||
		code === 0x5f ||
		code === 0x2d
	);
}

function isDigit(code: number): boolean {
	return code >= 0x30 && code <= 0x39;
}

function isLetter(code: number): boolean {
	return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** 1 for the characters of standard Base64 (not `=`), by character code below 128. */
const BASE64 = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
	BASE64[char.charCodeAt(0)] = 1;

/** Whether `header` holds `word` at `at`, letters in either case (`word` in lower case). */
function hasWord(header: string, at: number, word: string): boolean {
	if (at + word.length > header.length) return false;
	for (let i = 0; i < word.length; i++)
		if ((header.charCodeAt(at + i) | 0x20) !== word.charCodeAt(i)) return false;
	return true;
}

/** The part a name names: 1 id, 2 ts, 3 nonce, 4 mac, 5 ext, 0 any other. */
function partOf(header: string, start: number, end: number): number {
	const length = end - start;
	const first = header.charCodeAt(start) | 0x20;
	if (length === 2 && first === 0x69 && (header.charCodeAt(start + 1) | 0x20) === 0x64) return 1;
	if (length === 2 && first === 0x74 && (header.charCodeAt(start + 1) | 0x20) === 0x73) return 2;
	if (length === 5 && hasWord(header, start, 'nonce')) return 3;
	if (length === 3 && hasWord(header, start, 'mac')) return 4;
	if (length === 3 && hasWord(header, start, 'ext')) return 5;
	return 0;
}

function isSample(header: string, start: number, end: number, sample: string): boolean {
	return end - start === sample.length && header.startsWith(sample, start);
}

/** The style of the nonce at header[start, end). */
function nonceStyle(header: string, start: number, end: number): ShapeNonce {
	const length = end - start;
	// The samples' nonces start with "8" (shell, Go) or "=" (PHP): most nonces are none of them.
	const first = header.charCodeAt(start);
	if (first === 0x38) {
		if (isSample(header, start, end, SAMPLE_NONCES['shell-sample'])) return 'shell-sample';
		if (isSample(header, start, end, SAMPLE_NONCES['go-sample'])) return 'go-sample';
	} else if (first === EQUALS && isSample(header, start, end, SAMPLE_NONCES['php-sample']))
		return 'php-sample';
	if (length === 24) {
		for (let i = start; i < start + 22; i++) if (BASE64[header.charCodeAt(i)] !== 1) return 'other';
		// 16 bytes leave the last character's low 4 bits 0: A, Q, g or w.
		const last = header.charCodeAt(start + 21);
		if (last !== 0x41 && last !== 0x51 && last !== 0x67 && last !== 0x77) return 'other';
		return header.charCodeAt(start + 22) === EQUALS && header.charCodeAt(start + 23) === EQUALS
			? 'base64-16'
			: 'other';
	}
	if (length === 16) {
		let letters = true;
		for (let i = start; i < end && letters; i++) letters = isLetter(header.charCodeAt(i));
		if (letters) return 'letters-16';
	}
	if (length >= 1 && length <= 10) {
		// .NET's Random.Next(): 0 to 2^31 - 2, in decimal with no leading zero.
		if (length > 1 && header.charCodeAt(start) === 0x30) return 'other';
		let value = 0;
		for (let i = start; i < end; i++) {
			const code = header.charCodeAt(i);
			if (!isDigit(code)) return 'other';
			value = value * 10 + (code - 0x30);
		}
		return value <= 2_147_483_646 ? 'decimal' : 'other';
	}
	return 'other';
}

/** The style of the ts at header[start, end). */
function tsStyle(header: string, start: number, end: number): ShapeTs {
	const length = end - start;
	if (length === 0) return 'other';
	for (let i = start; i < end; i++) if (!isDigit(header.charCodeAt(i))) return 'other';
	const leadingZero = header.charCodeAt(start) === 0x30;
	if (length === 10) return leadingZero ? 'padded' : 'ten-digits';
	if (leadingZero) return length === 1 ? 'unpadded' : 'other';
	if (length < 10) return 'unpadded';
	return length === 13 ? 'milliseconds' : 'other';
}

/**
 * The shape of an Authorization header as written (with or without `Authorization:`): linear in
 * its length, allocation-free. Unreadable unless it is `MAC` with id, ts, nonce and mac each once
 * (and ext at most once), names known, values quoted or bare.
 */
export function headerShape(header: string): number {
	const length = header.length;
	let at = 0;
	while (at < length && isBlank(header.charCodeAt(at))) at++;
	if (hasWord(header, at, 'authorization')) {
		at += 13;
		while (at < length && (header.charCodeAt(at) === SPACE || header.charCodeAt(at) === TAB)) at++;
		if (header.charCodeAt(at) !== 0x3a) return UNREADABLE;
		at++;
		while (at < length && isBlank(header.charCodeAt(at))) at++;
	}
	if (!hasWord(header, at, 'mac')) return UNREADABLE;
	at += 3;
	if (at >= length || !isBlank(header.charCodeAt(at))) return UNREADABLE;
	while (at < length && isBlank(header.charCodeAt(at))) at++;
	let seen = 0;
	let position = 0;
	let commas = 0;
	let commaSpaces = 0;
	let otherSeparators = 0;
	let bits = 0;
	let tsStart = 0;
	let tsEnd = 0;
	let nonceStart = 0;
	let nonceEnd = 0;
	for (;;) {
		const nameStart = at;
		while (at < length && isNameChar(header.charCodeAt(at))) at++;
		if (at === nameStart) return UNREADABLE;
		const part = partOf(header, nameStart, at);
		if (part === 0 || (seen & (1 << part)) !== 0) return UNREADABLE;
		seen |= 1 << part;
		if (part === 5) bits |= EXT;
		// id, ts, nonce, mac in that order, ext anywhere.
		else if (part !== ++position) bits |= UNUSUAL_ORDER;
		while (at < length && (header.charCodeAt(at) === SPACE || header.charCodeAt(at) === TAB)) at++;
		if (header.charCodeAt(at) !== EQUALS) return UNREADABLE;
		at++;
		while (at < length && (header.charCodeAt(at) === SPACE || header.charCodeAt(at) === TAB)) at++;
		let valueStart: number;
		let valueEnd: number;
		if (header.charCodeAt(at) === QUOTE) {
			valueStart = at + 1;
			// The next quote ends the value, unless a backslash escapes it (rare): then read it
			// character by character, escapes skipped.
			valueEnd = header.indexOf('"', valueStart);
			if (valueEnd < 0) return UNREADABLE;
			if (header.charCodeAt(valueEnd - 1) === BACKSLASH) {
				valueEnd = valueStart;
				while (valueEnd < length && header.charCodeAt(valueEnd) !== QUOTE)
					valueEnd += header.charCodeAt(valueEnd) === BACKSLASH ? 2 : 1;
				if (valueEnd >= length) return UNREADABLE;
			}
			at = valueEnd + 1;
		} else {
			bits |= BARE;
			valueStart = at;
			while (at < length) {
				const code = header.charCodeAt(at);
				if (code === COMMA || isBlank(code) || code === QUOTE) break;
				at++;
			}
			valueEnd = at;
		}
		if (part === 2) {
			tsStart = valueStart;
			tsEnd = valueEnd;
		} else if (part === 3) {
			nonceStart = valueStart;
			nonceEnd = valueEnd;
		}
		const afterValue = at;
		while (at < length && isBlank(header.charCodeAt(at))) at++;
		if (at === length) break;
		if (header.charCodeAt(at) !== COMMA) return UNREADABLE;
		if (at !== afterValue) otherSeparators++;
		at++;
		if (header.charCodeAt(at) === SPACE && !isBlank(header.charCodeAt(at + 1))) {
			commaSpaces++;
			at++;
		} else if (isBlank(header.charCodeAt(at))) {
			otherSeparators++;
			while (at < length && isBlank(header.charCodeAt(at))) at++;
		} else commas++;
	}
	// id, ts, nonce and mac are required.
	if ((seen & 0b11110) !== 0b11110) return UNREADABLE;
	const separator =
		otherSeparators > 0 || (commas > 0 && commaSpaces > 0) ? 2 : commaSpaces > 0 ? 1 : 0;
	return (
		bits |
		separator |
		(NONCES.indexOf(nonceStyle(header, nonceStart, nonceEnd)) << NONCE_SHIFT) |
		(TS_STYLES.indexOf(tsStyle(header, tsStart, tsEnd)) << TS_SHIFT)
	);
}

/** A shape's features, read back from its integer. */
export function decodeShape(shape: number): Shape {
	if ((shape & UNREADABLE) !== 0)
		return {
			readable: false,
			separator: 'other',
			usualOrder: false,
			ext: false,
			quoted: false,
			nonce: 'other',
			ts: 'other'
		};
	return {
		readable: true,
		separator: SEPARATORS[shape & SEPARATOR_MASK] ?? 'other',
		usualOrder: (shape & UNUSUAL_ORDER) === 0,
		ext: (shape & EXT) !== 0,
		quoted: (shape & BARE) === 0,
		nonce: NONCES[(shape >> NONCE_SHIFT) & 0b111] ?? 'other',
		ts: TS_STYLES[(shape >> TS_SHIFT) & 0b111] ?? 'other'
	};
}
