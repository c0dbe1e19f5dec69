// A HAR is one JSON document, often hundreds of megabytes of response bodies. This scanner reads it
// a piece at a time and gives back each element of `log.entries` as its own JSON text, so that only
// one entry is ever parsed (and held) at once. Response and post bodies (`"text"` strings inside an
// entry) are left out of the entry's text as they stream past: no signature covers them.
//
// One bad entry costs that entry: one nested too deep, too long or broken inside (a bracket of the
// wrong kind, a value where a name belongs) is reported with its number, its brackets counted to
// its end, and the scan goes on with the next. Only damage outside the entries (or an entry whose
// brackets never close) stops the scan, which then says at which entry and where.

/** An entry larger than this, bodies left out, is reported rather than kept. */
export const MAX_ENTRY_LENGTH = 16 << 20;

/**
 * Levels of nesting an entry may have, itself the first (a HAR's deepest, an initiator's chain of
 * async stacks, has a few dozen); outside entries, levels of the whole document. Deeper brackets are
 * counted, not kept: memory stays flat whatever the file nests.
 */
export const MAX_ENTRY_DEPTH = 100;

export type HarScan =
	| { kind: 'entry'; number: number; text: string }
	/** An entry that cannot be read; the scan goes on after it. */
	| { kind: 'unreadable'; number: number; code: 'too-deep' | 'too-long' | 'not-json' }
	| {
			kind: 'stop';
			code: 'har-broken' | 'har-cut-short' | 'har-no-entries';
			/** The entry reading stopped at (the first not read), or 0 before any entry. */
			number: number;
			/** Where in the piece given to feed (-1: at the end of the input). */
			index: number;
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
	/** Stopped at a structural error outside the entries: nothing after it can be trusted. */
	#broken = false;
	#sawLog = false;
	#sawEntries = false;
	#entriesClosed = false;
	#started = false;
	/** Brackets open beyond the frames kept: too deep, or inside an entry found broken. */
	#counted = 0;
	/** Closing brackets of broken entries were let go: the brackets may never balance again. */
	#strays = false;

	// The entry being read: its number, its frame's depth, the text so far and where it resumes in
	// this piece, and what is wrong with it.
	#entry = 0;
	#capturing = false;
	#base = 0;
	#fault: 'too-deep' | 'not-json' | null = null;
	#parts: string[] = [];
	#length = 0;
	#from = -1;
	#eliding = false;
	#tooLong = false;

	/** Whether the document has a "log" object. */
	get sawLog(): boolean {
		return this.#sawLog;
	}

	/** Whether the log has an "entries" list. */
	get sawEntries(): boolean {
		return this.#sawEntries;
	}

	/** Entries begun so far. */
	get entries(): number {
		return this.#entry;
	}

	/** The entry being read, or the one that comes next: where reading is. */
	get current(): number {
		return this.#capturing ? this.#entry : this.#entry + 1;
	}

	/** Reads the next piece; returns the entries (and problems) that ended in it. */
	feed(chunk: string): HarScan[] {
		const out: HarScan[] = [];
		if (this.#broken) return out;
		if (this.#keeping && !this.#eliding) this.#from = 0;
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
					} else if (this.#counted === 0) {
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
			if (this.#counted > 0) {
				this.#count(chunk, i, c, out);
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
					const frame = this.#stack.at(-1);
					if (frame !== undefined && frame.array !== (c === 0x5d) && this.#inEntry()) {
						// Closed with the other bracket: the entry is broken, its brackets still count.
						this.#faultEntry('not-json');
						this.#count(chunk, i, c, out);
						break;
					}
					if (frame?.role === 'entries' && c === 0x7d) {
						// A closing bracket too many between entries (a broken entry closed twice): let go.
						this.#strays = true;
						break;
					}
					if (frame === undefined || frame.array !== (c === 0x5d)) return this.#break(i, out);
					this.#stack.pop();
					if (frame.role === 'entries') this.#entriesClosed = true;
					this.#valueEnd(chunk, i, out);
					break;
				}
				case 0x2c: {
					// ,
					const top = this.#stack.at(-1);
					if (top === undefined) return this.#break(i, out);
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
		if (this.#keeping && !this.#eliding && this.#from >= 0) this.#keep(chunk.slice(this.#from));
		return out;
	}

	/** The end of the input: says what is missing if the HAR was cut short or had no entries. */
	end(): HarScan[] {
		if (this.#broken) return [];
		// A scalar still open at the end may have been cut too: the document is unfinished anyway.
		if (this.#stack.length > 0 || this.#inString || this.#counted > 0 || !this.#started) {
			const number = this.#capturing ? this.#entry : this.#nextEntry();
			// Brackets let go that never balanced again: the file is broken, not (only) cut short.
			const code = this.#strays ? 'har-broken' : 'har-cut-short';
			return [{ kind: 'stop', code, number, index: -1 }];
		}
		if (!this.#sawEntries) return [{ kind: 'stop', code: 'har-no-entries', number: 0, index: -1 }];
		return [];
	}

	/** The text of the entry being read is still kept: nothing is wrong with it so far. */
	get #keeping(): boolean {
		return this.#capturing && this.#fault === null && !this.#tooLong;
	}

	/** Inside an entry (not at its list's level). */
	#inEntry(): boolean {
		return this.#capturing && this.#stack.length > this.#base;
	}

	/** The entry that would come next, once the list has begun; 0 before it. */
	#nextEntry(): number {
		return this.#sawEntries && !this.#entriesClosed ? this.#entry + 1 : 0;
	}

	#break(i: number, out: HarScan[]): HarScan[] {
		this.#broken = true;
		// After the document (its entries all read): trailing bytes that cannot hide an entry.
		if (!this.#entriesClosed || this.#stack.length > 0) {
			const number = this.#sawEntries ? this.#entry + 1 : 0;
			out.push({ kind: 'stop', code: 'har-broken', number, index: i });
		}
		return out;
	}

	/**
	 * The entry is not read: its text is let go, and the brackets open inside it are counted from
	 * here on, so that its end is found without following its structure.
	 */
	#faultEntry(fault: 'too-deep' | 'not-json'): void {
		this.#fault ??= fault;
		this.#parts = [];
		this.#from = -1;
		this.#eliding = false;
		this.#inScalar = false;
		this.#counted += this.#stack.length - this.#base;
		this.#stack.length = this.#base;
	}

	/** A character while brackets are counted: brackets of either kind, and strings (in feed). */
	#count(chunk: string, i: number, c: number, out: HarScan[]): void {
		if (c === QUOTE) {
			this.#inString = true;
			this.#stringIsKey = false;
		} else if (c === 0x7b || c === 0x5b) this.#counted += 1;
		else if (c === 0x7d || c === 0x5d) {
			this.#counted -= 1;
			if (this.#counted === 0) this.#valueEnd(chunk, i, out);
		}
	}

	/** A value starts at i with character c; false when the document is not a HAR there. */
	#valueStart(chunk: string, i: number, c: number, out: HarScan[]): boolean {
		const top = this.#stack.at(-1);
		if (top === undefined) {
			if (this.#started || c !== 0x7b) {
				this.#break(i, out);
				return false;
			}
			this.#started = true;
			this.#stack.push({ array: false, key: '', expectKey: true, role: 'root' });
			return true;
		}
		if (!top.array && top.expectKey) {
			if (!this.#inEntry()) {
				this.#break(i, out);
				return false;
			}
			// A value where a name belongs: the entry is broken; this value's brackets count too.
			this.#faultEntry('not-json');
			this.#count(chunk, i, c, out);
			return true;
		}
		if (top.role === 'entries' && !this.#capturing) {
			this.#capturing = true;
			this.#entry += 1;
			this.#base = this.#stack.length;
			this.#fault = null;
			this.#parts = [];
			this.#length = 0;
			this.#from = i;
			this.#tooLong = false;
		} else if (this.#keeping && c === QUOTE && !top.array && top.key === 'text') {
			// A body: keep its opening quote, skip its content, resume at its closing quote.
			this.#keep(chunk.slice(this.#from, i + 1));
			this.#eliding = true;
			this.#from = -1;
		}
		if (c === 0x7b || c === 0x5b) {
			const limit = this.#capturing ? this.#base + MAX_ENTRY_DEPTH : MAX_ENTRY_DEPTH;
			if (this.#stack.length >= limit) {
				if (this.#capturing) this.#faultEntry('too-deep');
				this.#counted += 1;
				return true;
			}
			let role: Frame['role'] = null;
			if (!this.#capturing) {
				if (top.role === 'root' && top.key === 'log' && c === 0x7b) {
					role = 'log';
					this.#sawLog = true;
				} else if (top.role === 'log' && top.key === 'entries' && c === 0x5b) {
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
		if (!this.#capturing || this.#stack.length !== this.#base) return;
		if (this.#keeping && this.#from >= 0) this.#keep(chunk.slice(this.#from, last + 1));
		this.#capturing = false;
		this.#from = -1;
		const text = this.#parts.join('');
		this.#parts = [];
		const number = this.#entry;
		if (this.#fault !== null) out.push({ kind: 'unreadable', number, code: this.#fault });
		else if (this.#tooLong) out.push({ kind: 'unreadable', number, code: 'too-long' });
		else out.push({ kind: 'entry', number, text });
	}

	#keep(text: string): void {
		if (!this.#keeping) return;
		this.#length += text.length;
		if (this.#length > MAX_ENTRY_LENGTH) {
			this.#tooLong = true;
			this.#parts = [];
		} else this.#parts.push(text);
	}
}
