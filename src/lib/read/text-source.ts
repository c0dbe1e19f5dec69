// A byte stream read as text one chunk at a time, never whole: UTF-8 decoded across chunk
// boundaries, the bytes counted for progress, and lines cut with a bound on their length.

/** A line longer than this is reported, not kept: a request fits in a few kilobytes. */
export const MAX_LINE_LENGTH = 1 << 20;

export class TextSource {
	/** Bytes taken from the stream so far. */
	bytesRead = 0;
	#reader: ReadableStreamDefaultReader<Uint8Array>;
	// Invalid UTF-8 becomes U+FFFD: a line of binary garbage is then unreadable, not an exception.
	#decoder = new TextDecoder('utf-8');
	#pending: string[] = [];
	#done = false;

	constructor(stream: ReadableStream<Uint8Array>) {
		this.#reader = stream.getReader();
	}

	/** The next piece of text, or null at the end. Throws when the stream itself fails. */
	async next(): Promise<string | null> {
		const pending = this.#pending.shift();
		if (pending !== undefined) return pending;
		while (!this.#done) {
			const { done, value } = await this.#reader.read();
			if (done) {
				this.#done = true;
				const tail = this.#decoder.decode();
				return tail === '' ? null : tail;
			}
			if (!(value instanceof Uint8Array))
				throw new TypeError('the stream gave something not bytes');
			this.bytesRead += value.byteLength;
			const text = this.#decoder.decode(value, { stream: true });
			if (text !== '') return text;
		}
		return null;
	}

	/** Puts text back, to be read again first (what format detection looked at). */
	unshift(text: string): void {
		if (text !== '') this.#pending.unshift(text);
	}

	/** Stops reading: the stream is cancelled and its resources released. */
	async cancel(): Promise<void> {
		this.#done = true;
		this.#pending = [];
		await this.#reader.cancel().catch(() => undefined);
	}
}

export interface Line {
	/** From 1. */
	number: number;
	text: string;
	/** True when the line was longer than MAX_LINE_LENGTH; `text` is then empty. */
	tooLong: boolean;
}

/**
 * The lines of the source, a chunk's worth at a time (one await per chunk, not per line). A line
 * ends at LF; a CR before it is dropped. Memory holds one chunk and one partial line at most.
 */
export async function* linesOf(
	source: TextSource,
	maxLength = MAX_LINE_LENGTH
): AsyncGenerator<Line[]> {
	let carry = '';
	let overflow = false;
	let number = 0;
	const line = (text: string): Line => {
		number += 1;
		const tooLong = overflow || text.length > maxLength;
		overflow = false;
		return { number, text: tooLong ? '' : text.endsWith('\r') ? text.slice(0, -1) : text, tooLong };
	};
	for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
		const lines: Line[] = [];
		let start = 0;
		for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
			lines.push(line(carry === '' ? chunk.slice(start, end) : carry + chunk.slice(start, end)));
			carry = '';
			start = end + 1;
		}
		if (!overflow) carry += chunk.slice(start);
		if (carry.length > maxLength) {
			carry = '';
			overflow = true;
		}
		if (lines.length > 0) yield lines;
	}
	if (carry !== '' || overflow) yield [line(carry)];
}
