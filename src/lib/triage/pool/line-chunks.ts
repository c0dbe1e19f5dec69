// The triage's pool splits a log of lines into parts that workers read side by side. A part ends
// at a line break, so that each worker reads whole lines; the lines before each part are counted
// here, so that a worker numbers its requests as a reader of the whole file would (readers.ts:
// a line ends at LF, at CRLF and at CR alone). Only a file of lines in UTF-8 is split: a HAR is one
// JSON document, and UTF-16 is rare enough to be read by one worker as before (plan()).
import { detectFormat } from '$lib/read/readers';
import { sniffEncoding, SNIFF_BYTES } from '$lib/read/encoding';
import { MAX_LINE_LENGTH } from '$lib/read/text-source';
import type { LogFormat } from '$lib/read/types';

const LF = 0x0a;
const CR = 0x0d;

/** Bytes of the file's start that plan() looks at. */
export const PLAN_BYTES = 65_536;

/** How the pool reads a file, from its first bytes: its format, and the byte-order mark to skip. */
export interface PoolPlan {
	format: Exclude<LogFormat, 'har'>;
	/** Bytes of a UTF-8 byte-order mark at the start (3), else 0. */
	skip: number;
}

/**
 * Whether the file whose first bytes (PLAN_BYTES, or all of a shorter file) are `head` can be split
 * into parts, and how: null for anything but lines in UTF-8 (a HAR, UTF-16, a file refused, one
 * empty), and for a file whose first SNIFF_BYTES are all white space (the whole-file reader drops
 * such a start unnumbered; one worker reads it as before).
 */
export function plan(head: Uint8Array): PoolPlan | null {
	const sniffed = sniffEncoding(head.subarray(0, SNIFF_BYTES));
	if ('refused' in sniffed || sniffed.encoding !== 'utf-8') return null;
	const start = head.subarray(sniffed.skip, SNIFF_BYTES);
	if (!start.some((byte) => byte !== 0x20 && byte !== 0x09 && byte !== LF && byte !== CR))
		return null;
	// Decoded as the reader decodes it; a character cut at the end of `head` is a U+FFFD at the end
	// of the text, past the lines detection looks at.
	const format = detectFormat(new TextDecoder().decode(head.subarray(sniffed.skip)));
	if (format === null || format === 'har') return null;
	return { format, skip: sniffed.skip };
}

/**
 * The line breaks in `bytes`, counted as LineSplitter counts them: LF, CRLF (one) and CR alone. A
 * CR as the last byte counts as a break (a part never ends between a CR and its LF: see cut()).
 */
export function countLines(bytes: Uint8Array, indexOf: IndexOf = typedIndexOf): number {
	let lines = 0;
	// LFs natively; CRs are rare, and looked for once.
	for (let at = indexOf(bytes, LF, 0); at !== -1; at = indexOf(bytes, LF, at + 1)) lines += 1;
	for (let at = indexOf(bytes, CR, 0); at !== -1; at = indexOf(bytes, CR, at + 1))
		if (bytes[at + 1] !== LF) lines += 1;
	return lines;
}

/**
 * Finds a byte from `from` on. A TypedArray's indexOf in a browser; Node gives Buffer's, which
 * scans about four times as fast (the coordinator counts the lines of every part).
 */
export type IndexOf = (bytes: Uint8Array, byte: number, from: number) => number;
const typedIndexOf: IndexOf = (bytes, byte, from) => bytes.indexOf(byte, from);

/**
 * Where a part of `bytes` may end: just after its last line break whose end is certain (a CR as the
 * last byte may be followed by an LF in the next bytes), or -1 when there is none.
 */
export function cut(bytes: Uint8Array): number {
	const lf = bytes.lastIndexOf(LF);
	// (A negative start would count from the end.)
	const cr = bytes.length < 2 ? -1 : bytes.lastIndexOf(CR, bytes.length - 2);
	const end = Math.max(lf, cr);
	return end === -1 ? -1 : end + 1;
}

/** A part of the file: whole lines, numbered on from `linesBefore`. */
export interface LinePart {
	/** From 0, in file order. */
	index: number;
	/** The part's bytes; empty for a line too long to be sent (`tooLong`). */
	bytes: Uint8Array<ArrayBuffer>;
	/** Lines in the file before the part's first. */
	linesBefore: number;
	/** Lines that end in the part (the last part's last line counts when it has no break). */
	lines: number;
	/** The byte offset of the part's first byte in the file. */
	byteStart: number;
	/** Byte length of the part in the file (of the line dropped, for `tooLong`). */
	byteLength: number;
	/**
	 * True for a single line longer than a reader keeps, dropped here unread: it is line
	 * `linesBefore + 1`, unreadable as 'too-long', as the whole-file reader counts it.
	 */
	tooLong: boolean;
}

/**
 * Cuts bytes given a block at a time into parts of about `size` bytes, each ending at a line break.
 * Holds one part's bytes at most, plus one line: a line of more than 4 × MAX_LINE_LENGTH bytes (so
 * more than MAX_LINE_LENGTH characters in any UTF-8) is dropped as it comes and becomes a part of
 * its own, marked too long.
 */
export class LineChunker {
	#held: Uint8Array<ArrayBuffer>[] = [];
	#heldBytes = 0;
	#index = 0;
	#lines = 0;
	#offset: number;
	/** Within a line too long: bytes dropped, until its break. */
	#dropping = false;
	#dropped = 0;
	/** The dropped line ended in a CR at the end of a block: an LF starting the next ends nothing. */
	#afterCr = false;
	readonly #tooLong: number;

	constructor(
		readonly size: number,
		/** The byte offset of the first byte given (a byte-order mark skipped). */
		startOffset = 0,
		maxLineBytes = 4 * MAX_LINE_LENGTH,
		readonly indexOf: IndexOf = typedIndexOf
	) {
		this.#offset = startOffset;
		this.#tooLong = maxLineBytes;
	}

	/** Lines in the parts cut so far. */
	get lines(): number {
		return this.#lines;
	}

	/** The parts complete with this block. */
	feed(block: Uint8Array): LinePart[] {
		const parts: LinePart[] = [];
		let rest = block;
		while (rest.length > 0) {
			if (this.#dropping) {
				rest = this.#drop(rest, parts);
				continue;
			}
			const room = Math.max(0, this.size - this.#heldBytes);
			if (rest.length < room) {
				this.#hold(rest);
				break;
			}
			// Enough for a part: it ends at the last break within the first `room` bytes, or, where there
			// is none, at the first break after them.
			let end = room > 0 ? cut(rest.subarray(0, room)) : -1;
			if (end === -1) end = firstBreakEnd(rest, room);
			if (end === -1) {
				// No break in the block: the line goes on into the next one.
				this.#hold(rest);
				if (this.#heldBytes > this.#tooLong) this.#overlong(parts);
				break;
			}
			this.#hold(rest.subarray(0, end));
			parts.push(this.#part(false));
			rest = rest.subarray(end);
		}
		return parts;
	}

	/** The last part: what is held (its last line without a break). */
	end(): LinePart[] {
		if (this.#dropping) {
			this.#dropping = false;
			return [this.#tooLongPart()];
		}
		return this.#heldBytes === 0 ? [] : [this.#part(true)];
	}

	#hold(bytes: Uint8Array): void {
		if (bytes.length === 0) return;
		// Copied: a block's buffer may be reused by whoever read it.
		this.#held.push(bytes.slice());
		this.#heldBytes += bytes.length;
	}

	#part(final: boolean): LinePart {
		const bytes = join(this.#held, this.#heldBytes);
		this.#held = [];
		this.#heldBytes = 0;
		return this.#partOf(bytes, final);
	}

	#partOf(bytes: Uint8Array<ArrayBuffer>, final: boolean): LinePart {
		let lines = countLines(bytes, this.indexOf);
		if (final) {
			const last = bytes[bytes.length - 1];
			if (last !== LF && last !== CR) lines += 1;
		}
		const part: LinePart = {
			index: this.#index++,
			bytes,
			linesBefore: this.#lines,
			lines,
			byteStart: this.#offset,
			byteLength: bytes.length,
			tooLong: false
		};
		this.#lines += lines;
		this.#offset += bytes.length;
		return part;
	}

	/**
	 * More is held than a line may be: the whole lines held go as a part, and when the line after
	 * them is itself too long, it is dropped from here to its break.
	 */
	#overlong(parts: LinePart[]): void {
		const bytes = join(this.#held, this.#heldBytes);
		this.#held = [];
		this.#heldBytes = 0;
		const end = cut(bytes);
		if (end > 0) {
			this.#hold(bytes.subarray(0, end));
			parts.push(this.#part(false));
		}
		const line = bytes.subarray(Math.max(end, 0));
		if (line.length <= this.#tooLong) {
			this.#hold(line);
			return;
		}
		this.#dropping = true;
		this.#dropped = line.length;
		// A CR as the last byte ended the line, unless an LF follows it: the next block tells.
		this.#afterCr = line[line.length - 1] === CR;
	}

	/** Drops the too-long line's bytes up to its break; returns what follows it. */
	#drop(block: Uint8Array, parts: LinePart[]): Uint8Array {
		let from = 0;
		if (this.#afterCr) {
			this.#afterCr = false;
			if (block[0] === LF) {
				this.#dropped += 1;
				from = 1;
			}
			this.#dropping = false;
			parts.push(this.#tooLongPart());
			return block.subarray(from);
		}
		const lf = block.indexOf(LF);
		const cr = block.indexOf(CR);
		const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
		if (at === -1) {
			this.#dropped += block.length;
			return block.subarray(block.length);
		}
		let end = at + 1;
		if (at === cr && at === block.length - 1) {
			// The break is a CR at the end of the block: an LF may follow in the next.
			this.#dropped += end;
			this.#afterCr = true;
			return block.subarray(end);
		}
		if (at === cr && block[end] === LF) end += 1;
		this.#dropped += end;
		this.#dropping = false;
		parts.push(this.#tooLongPart());
		return block.subarray(end);
	}

	#tooLongPart(): LinePart {
		const part: LinePart = {
			index: this.#index++,
			bytes: new Uint8Array(0),
			linesBefore: this.#lines,
			lines: 1,
			byteStart: this.#offset,
			byteLength: this.#dropped,
			tooLong: true
		};
		this.#lines += 1;
		this.#offset += this.#dropped;
		this.#dropped = 0;
		return part;
	}
}

/** The end of the first line break at or after `from` whose end is certain, or -1. */
function firstBreakEnd(bytes: Uint8Array, from: number): number {
	const lf = bytes.indexOf(LF, from);
	let cr = bytes.indexOf(CR, from);
	if (cr === bytes.length - 1) cr = -1;
	if (lf === -1 && cr === -1) return -1;
	const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
	return at === cr && bytes[at + 1] === LF ? at + 2 : at + 1;
}

function join(chunks: Uint8Array<ArrayBuffer>[], length: number): Uint8Array<ArrayBuffer> {
	if (chunks.length === 1) return chunks[0] as Uint8Array<ArrayBuffer>;
	const joined = new Uint8Array(length);
	let at = 0;
	for (const chunk of chunks) {
		joined.set(chunk, at);
		at += chunk.length;
	}
	return joined;
}
