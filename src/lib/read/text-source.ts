// A byte stream read as text one chunk at a time, never whole: its encoding told from its first
// bytes (encoding.ts), each chunk decoded on its own with the byte offset it starts at (so that a
// reader can say where in the file it stopped), the bytes counted for progress, and lines cut at
// LF, CRLF or CR alone with a bound on their length.
import {
	SNIFF_BYTES,
	encodedLength,
	incompleteTail,
	sniffEncoding,
	type Sniffed,
	type TextEncoding
} from './encoding';

/** A line longer than this is reported, not kept: a request fits in a few kilobytes. */
export const MAX_LINE_LENGTH = 1 << 20;

/** What the first bytes refused: UTF-32, a compressed file or binary data. */
export type Refusal = Exclude<Sniffed, { encoding: TextEncoding }>;

interface Piece {
	text: string;
	/** The byte offset of the text's first character in the file. */
	start: number;
}

const NO_BYTES: Uint8Array = new Uint8Array(0);
const NO_FAILURE = Symbol('no failure');

export class TextSource {
	/** Bytes taken from the stream so far. */
	bytesRead = 0;
	/** The encoding read, once the first bytes have told it; null before, or when they were refused. */
	encoding: TextEncoding | null = null;
	/** Why the file is not read as text at all, once the first bytes have told it. */
	refused: Refusal | null = null;
	#reader: ReadableStreamDefaultReader<Uint8Array>;
	// Invalid bytes become U+FFFD: a line of binary garbage is then unreadable, not an exception.
	// Each chunk is decoded whole (its last character's bytes completed first): a mark in the middle
	// of the file is a character (U+FEFF), and only the first one is skipped, by sniffing.
	#decoder: TextDecoder | null = null;
	/** The first bytes, held until there are enough to tell the encoding. */
	#head: Uint8Array[] = [];
	#headLength = 0;
	/** A character's first bytes, waiting for the rest in the next chunk. */
	#carry: Uint8Array = NO_BYTES;
	/** The byte offset of the next byte to decode. */
	#offset = 0;
	#ahead: Piece[] = [];
	#current: Piece = { text: '', start: 0 };
	#done = false;
	/** The stream's failure, thrown once what was read before it has been given. */
	#failure: unknown = NO_FAILURE;

	/**
	 * `encoding`, when given, is known already (a part of a file whose start told it, for the
	 * triage's pool): the bytes are decoded as it from the first, nothing sniffed or skipped.
	 */
	constructor(stream: ReadableStream<Uint8Array>, encoding?: TextEncoding) {
		this.#reader = stream.getReader();
		if (encoding !== undefined) {
			this.encoding = encoding;
			this.#decoder = new TextDecoder(encoding, { ignoreBOM: true });
		}
	}

	/** The next piece of text, or null at the end. Throws when the stream itself fails. */
	async next(): Promise<string | null> {
		const piece = this.#ahead.shift() ?? (await this.#read());
		if (piece === null) return null;
		this.#current = piece;
		return piece.text;
	}

	/** Reads the next piece ahead, to be given again by next(); null at the end. */
	async peek(): Promise<string | null> {
		const piece = await this.#read();
		if (piece === null) return null;
		this.#ahead.push(piece);
		return piece.text;
	}

	/** Forgets what peek read (white space no reader needs), so that it is not held. */
	dropAhead(): void {
		this.#ahead = [];
	}

	/** The byte offset in the file of the character at `index` of the last piece next() gave. */
	offsetOf(index: number): number {
		const { text, start } = this.#current;
		const encoding = this.encoding ?? 'utf-8';
		return (
			start + encodedLength(text.slice(0, Math.max(0, Math.min(index, text.length))), encoding)
		);
	}

	/** Stops reading: the stream is cancelled and its resources released. */
	async cancel(): Promise<void> {
		this.#done = true;
		this.#ahead = [];
		this.#head = [];
		await this.#reader.cancel().catch(() => undefined);
	}

	async #read(): Promise<Piece | null> {
		while (!this.#done) {
			let next: ReadableStreamReadResult<Uint8Array>;
			try {
				next = await this.#reader.read();
			} catch (error) {
				// What came before the failure is read first; the failure is thrown after it.
				this.#done = true;
				this.#failure = error;
				const started = this.#decoder !== null || this.#start();
				const piece = started ? this.#decode(this.#carry, true) : null;
				if (piece !== null) return piece;
				break;
			}
			const { done, value } = next;
			if (done) {
				this.#done = true;
				if (this.#decoder === null && !this.#start()) return null;
				return this.#decode(this.#carry, true);
			}
			if (!(value instanceof Uint8Array))
				throw new TypeError('the stream gave something not bytes');
			this.bytesRead += value.byteLength;
			if (this.#decoder === null) {
				this.#head.push(value);
				this.#headLength += value.byteLength;
				if (this.#headLength < SNIFF_BYTES) continue;
				if (!this.#start()) return null;
				const piece = this.#decode(this.#carry, false);
				if (piece !== null) return piece;
				continue;
			}
			const piece = this.#decode(this.#joined(value), false);
			if (piece !== null) return piece;
		}
		if (this.#failure !== NO_FAILURE && this.refused === null) throw this.#failure;
		return null;
	}

	/** Tells the encoding from the first bytes; false when they are refused (or there are none). */
	#start(): boolean {
		const head = this.#joined(...this.#head);
		this.#head = [];
		if (head.length === 0) return false;
		const sniffed = sniffEncoding(head);
		if ('refused' in sniffed) {
			this.refused = sniffed;
			this.#done = true;
			void this.#reader.cancel().catch(() => undefined);
			return false;
		}
		this.encoding = sniffed.encoding;
		this.#decoder = new TextDecoder(sniffed.encoding, { ignoreBOM: true });
		this.#offset = sniffed.skip;
		this.#carry = head.subarray(sniffed.skip);
		return true;
	}

	/** The carried bytes and these, as one array (copied only when there is something to join). */
	#joined(...chunks: Uint8Array[]): Uint8Array {
		const parts = this.#carry.length > 0 ? [this.#carry, ...chunks] : chunks;
		this.#carry = NO_BYTES;
		if (parts.length === 1) return parts[0] as Uint8Array;
		const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
		let at = 0;
		for (const part of parts) {
			joined.set(part, at);
			at += part.byteLength;
		}
		return joined;
	}

	/** The text of `bytes` but the start of a character they end in (kept for the next chunk). */
	#decode(bytes: Uint8Array, final: boolean): Piece | null {
		const decoder = this.#decoder;
		if (decoder === null) return null;
		const keep = final ? 0 : incompleteTail(bytes, this.encoding ?? 'utf-8');
		const body = keep > 0 ? bytes.subarray(0, bytes.length - keep) : bytes;
		this.#carry = keep > 0 ? bytes.slice(bytes.length - keep) : NO_BYTES;
		const start = this.#offset;
		this.#offset += body.byteLength;
		return body.byteLength === 0 ? null : { text: decoder.decode(body), start };
	}
}

/**
 * A small file read whole (a keys file) as text, in the encoding its first bytes tell, the mark
 * left out; or why it is not text. Lines in it end at LF, CRLF or CR alone, as in a log.
 */
export function decodeText(bytes: Uint8Array): { text: string } | { refused: Refusal } {
	const sniffed = sniffEncoding(bytes);
	if ('refused' in sniffed) return { refused: sniffed };
	const decoder = new TextDecoder(sniffed.encoding, { ignoreBOM: true });
	return { text: decoder.decode(bytes.subarray(sniffed.skip)) };
}

export interface Line {
	/** From 1. */
	number: number;
	text: string;
	/** True when the line was longer than the maximum; `text` is then empty. */
	tooLong: boolean;
}

const LF = 0x0a;

/**
 * Cuts text given a piece at a time into lines: a line ends at LF, at CRLF and at CR alone (old Mac
 * files, and logs written by one). Holds one partial line at most, and not past `maxLength`.
 */
export class LineSplitter {
	#carry = '';
	#overflow = false;
	/** The last piece ended in CR: an LF starting the next one ends no line. */
	#afterCr = false;
	#number: number;

	constructor(
		readonly maxLength = MAX_LINE_LENGTH,
		/** Lines before the first piece (blank lines a reader dropped while looking at the start). */
		linesBefore = 0
	) {
		this.#number = linesBefore;
	}

	/** The lines that end in this piece. */
	feed(piece: string): Line[] {
		const lines: Line[] = [];
		if (piece === '') return lines;
		let start = this.#afterCr && piece.charCodeAt(0) === LF ? 1 : 0;
		this.#afterCr = false;
		let lf = piece.indexOf('\n', start);
		let cr = piece.indexOf('\r', start);
		while (lf !== -1 || cr !== -1) {
			const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
			this.#add(lines, piece.slice(start, end));
			start = end + 1;
			if (end === cr) {
				if (start === piece.length) this.#afterCr = true;
				else if (piece.charCodeAt(start) === LF) start += 1;
			}
			if (lf !== -1 && lf < start) lf = piece.indexOf('\n', start);
			if (cr !== -1 && cr < start) cr = piece.indexOf('\r', start);
		}
		if (!this.#overflow) this.#carry += piece.slice(start);
		if (this.#carry.length > this.maxLength) {
			this.#carry = '';
			this.#overflow = true;
		}
		return lines;
	}

	/** The last line, when the text does not end with a line break. */
	end(): Line[] {
		if (this.#carry === '' && !this.#overflow) return [];
		const lines: Line[] = [];
		this.#add(lines, '');
		return lines;
	}

	#add(lines: Line[], text: string): void {
		const whole = this.#carry === '' ? text : this.#carry + text;
		this.#carry = '';
		this.#number += 1;
		const tooLong = this.#overflow || whole.length > this.maxLength;
		this.#overflow = false;
		lines.push({ number: this.#number, text: tooLong ? '' : whole, tooLong });
	}
}

/**
 * The lines of the source, a piece's worth at a time (one await per piece, not per line). Memory
 * holds one piece and one partial line at most.
 */
export async function* linesOf(
	source: TextSource,
	splitter = new LineSplitter()
): AsyncGenerator<Line[]> {
	for (let piece = await source.next(); piece !== null; piece = await source.next()) {
		const lines = splitter.feed(piece);
		if (lines.length > 0) yield lines;
	}
	const last = splitter.end();
	if (last.length > 0) yield last;
}
