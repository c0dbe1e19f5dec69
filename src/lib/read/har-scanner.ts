// A HAR is one JSON document, often hundreds of megabytes of response bodies. This scanner reads it
// a piece at a time and gives back each element of `log.entries` as its own JSON text, so that only
// one entry is ever parsed (and held) at once. Response and post bodies (`"text"` strings inside an
// entry) are left out of the entry's text as they stream past: no signature covers them.

/** An entry larger than this, bodies left out, is reported rather than kept. */
export const MAX_ENTRY_LENGTH = 16 << 20;

export type HarScan =
	| { kind: 'entry'; number: number; text: string }
	| {
			kind: 'error';
			code: 'har-broken' | 'har-cut-short' | 'har-no-entries' | 'too-long';
			/** The entry it concerns, or 0 for the file. */
			number: number;
	  };

interface Frame {
	array: boolean;
	/** An object's current key (the last key read), up to 64 characters. */
	key: string;
	/** An object waiting for a key (after `{` or `,`). */
	expectKey: boolean;
	role: 'root' | 'log' | 'entries' | null;
}

const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class HarScanner {
	#stack: Frame[] = [];
	#inString = false;
	#stringIsKey = false;
	#escape = false;
	#key = '';
	#inScalar = false;
	/** Stops at the first structural error: nothing after it can be trusted to be an entry. */
	#broken = false;
	#sawEntries = false;
	#entriesClosed = false;
	#started = false;

	// The entry being captured: its number, the text so far and where it resumes in this chunk.
	#entry = 0;
	#capturing = false;
	#parts: string[] = [];
	#length = 0;
	#from = -1;
	#eliding = false;
	#tooLong = false;

	/** Reads the next piece; returns the entries (and errors) that ended in it. */
	feed(chunk: string): HarScan[] {
		const out: HarScan[] = [];
		if (this.#broken) return out;
		if (this.#capturing && !this.#eliding) this.#from = 0;
		const n = chunk.length;
		for (let i = 0; i < n; i++) {
			const c = chunk.charCodeAt(i);
			if (this.#inString) {
				if (this.#escape) {
					this.#escape = false;
				} else if (c === BACKSLASH) {
					this.#escape = true;
				} else if (c === QUOTE) {
					this.#inString = false;
					if (this.#stringIsKey) {
						const top = this.#stack.at(-1);
						if (top) {
							top.key = this.#key;
							top.expectKey = false;
						}
					} else {
						if (this.#eliding) {
							this.#eliding = false;
							this.#from = i;
						}
						this.#valueEnd(chunk, i, out);
					}
				} else if (this.#stringIsKey && this.#key.length < 64) {
					this.#key += chunk[i];
				}
				continue;
			}
			if (this.#inScalar) {
				if (WHITE.has(c) || c === 0x2c || c === 0x5d || c === 0x7d) {
					this.#inScalar = false;
					this.#valueEnd(chunk, i - 1, out);
				} else continue;
			}
			if (WHITE.has(c)) continue;
			switch (c) {
				case QUOTE: {
					const top = this.#stack.at(-1);
					this.#inString = true;
					this.#stringIsKey = top !== undefined && !top.array && top.expectKey;
					if (this.#stringIsKey) this.#key = '';
					else if (!this.#valueStart(chunk, i, c, out)) return out;
					break;
				}
				case 0x7b: // {
				case 0x5b: {
					// [
					if (!this.#valueStart(chunk, i, c, out)) return out;
					break;
				}
				case 0x7d: // }
				case 0x5d: {
					// ]
					const frame = this.#stack.pop();
					if (frame === undefined || frame.array !== (c === 0x5d)) return this.#break(out);
					if (frame.role === 'entries') this.#entriesClosed = true;
					this.#valueEnd(chunk, i, out);
					break;
				}
				case 0x2c: {
					// ,
					const top = this.#stack.at(-1);
					if (top === undefined) return this.#break(out);
					if (!top.array) top.expectKey = true;
					break;
				}
				case 0x3a: // :
					break;
				default:
					this.#inScalar = true;
					if (!this.#valueStart(chunk, i, c, out)) return out;
			}
		}
		if (this.#capturing && !this.#eliding && this.#from >= 0) this.#keep(chunk.slice(this.#from));
		return out;
	}

	/** The end of the input: says what is missing if the HAR was cut short or had no entries. */
	end(): HarScan[] {
		if (this.#broken) return [];
		if (this.#inScalar) {
			this.#inScalar = false;
			const out: HarScan[] = [];
			this.#valueEnd('', -1, out);
			if (this.#stack.length === 0) return out;
		}
		if (this.#stack.length > 0 || this.#inString || !this.#started) {
			return [{ kind: 'error', code: 'har-cut-short', number: this.#capturing ? this.#entry : 0 }];
		}
		if (!this.#sawEntries) return [{ kind: 'error', code: 'har-no-entries', number: 0 }];
		return [];
	}

	#break(out: HarScan[]): HarScan[] {
		this.#broken = true;
		// Entries already closed: what follows them cannot hide one.
		if (!this.#entriesClosed)
			out.push({ kind: 'error', code: 'har-broken', number: this.#capturing ? this.#entry : 0 });
		return out;
	}

	/** A value starts at i with character c; false when the document is not a HAR there. */
	#valueStart(chunk: string, i: number, c: number, out: HarScan[]): boolean {
		const top = this.#stack.at(-1);
		if (top === undefined) {
			if (this.#started || c !== 0x7b) {
				this.#break(out);
				return false;
			}
			this.#started = true;
			this.#stack.push({ array: false, key: '', expectKey: true, role: 'root' });
			return true;
		}
		if (!top.array && top.expectKey) {
			this.#break(out);
			return false;
		}
		if (top.role === 'entries' && !this.#capturing) {
			this.#capturing = true;
			this.#entry += 1;
			this.#parts = [];
			this.#length = 0;
			this.#from = i;
			this.#tooLong = false;
		} else if (this.#capturing && c === QUOTE && !top.array && top.key === 'text') {
			// A body: keep its opening quote, skip its content, resume at its closing quote.
			this.#keep(chunk.slice(this.#from, i + 1));
			this.#eliding = true;
			this.#from = -1;
		}
		if (c === 0x7b || c === 0x5b) {
			let role: Frame['role'] = null;
			if (!this.#capturing) {
				if (top.role === 'root' && top.key === 'log' && c === 0x7b) role = 'log';
				else if (top.role === 'log' && top.key === 'entries' && c === 0x5b) {
					role = 'entries';
					this.#sawEntries = true;
				}
			}
			this.#stack.push({ array: c === 0x5b, key: '', expectKey: c === 0x7b, role });
		}
		return true;
	}

	/** A value ended at index `last` (inclusive); an entry ends when the stack is back at its list. */
	#valueEnd(chunk: string, last: number, out: HarScan[]): void {
		if (!this.#capturing || this.#stack.at(-1)?.role !== 'entries') return;
		if (this.#from >= 0) this.#keep(chunk.slice(this.#from, last + 1));
		this.#capturing = false;
		this.#from = -1;
		const text = this.#parts.join('');
		this.#parts = [];
		out.push(
			this.#tooLong
				? { kind: 'error', code: 'too-long', number: this.#entry }
				: { kind: 'entry', number: this.#entry, text }
		);
	}

	#keep(text: string): void {
		if (this.#tooLong) return;
		this.#length += text.length;
		if (this.#length > MAX_ENTRY_LENGTH) {
			this.#tooLong = true;
			this.#parts = [];
		} else this.#parts.push(text);
	}
}
