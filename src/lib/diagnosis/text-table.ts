// The base strings a diagnosis has signed under one key and hash, found again by their UTF-8: a
// search for a request nothing explains looks up some 450 base strings of 100 to 140 characters,
// and a Map keyed by the text cost it about 0.9 µs each (V8 flattens each concatenated text to hash
// it), more than the HMAC of most of them. Their UTF-8 is written anyway for the signer; hashed as
// 32-bit words it costs a tenth of that, and the signer is handed the same bytes.
import { utf8Into } from '$lib/mac/utf8-into';

/** Room after a text's UTF-8 that a signer may pad into (SHA-1 and SHA-256 pad within 72 bytes). */
const PAD_ROOM = 72;

/** Scratches kept for the next diagnosis (Utf8Scratch.take), and the largest kept. */
const SPARE: Utf8Scratch[] = [];
const SPARES_KEPT = 16;
const SPARE_BYTES = 64 * 1024;

/** The UTF-8 of the text encoded last (Utf8Scratch.write), shared by every table. */
export class Utf8Scratch {
	/**
	 * One that a finished diagnosis gave back, or a new one. A triage diagnoses thousands of
	 * mismatches: a new 4 kB buffer each (memory outside V8's heap, freed by its collector's
	 * callbacks) cost more than the search of most of them.
	 */
	static take(): Utf8Scratch {
		return SPARE.pop() ?? new Utf8Scratch();
	}

	/** Gives this back for another diagnosis (one grown for a huge text is left to the collector). */
	giveBack(): void {
		if (SPARE.length < SPARES_KEPT && this.bytes.length <= SPARE_BYTES) SPARE.push(this);
	}

	bytes = new Uint8Array(4096);
	#words = new Int32Array(this.bytes.buffer);
	length = 0;

	/** Writes `text`'s UTF-8 (zeros up to the next word after it) and returns its hash. */
	write(text: string): number {
		if (text.length * 3 + PAD_ROOM + 4 > this.bytes.length) {
			this.bytes = new Uint8Array((text.length * 3 + PAD_ROOM + 4 + 3) & ~3);
			this.#words = new Int32Array(this.bytes.buffer);
		}
		const bytes = this.bytes;
		const length = utf8Into(text, bytes);
		this.length = length;
		bytes[length] = 0;
		bytes[length + 1] = 0;
		bytes[length + 2] = 0;
		const words = this.#words;
		let hash = length | 0;
		for (let at = 0, end = (length + 3) >> 2; at < end; at++)
			hash = Math.imul(hash ^ (words[at] as number), 0x01000193);
		// Mixed so that the low bits, the table's slot, depend on every word.
		hash ^= hash >>> 15;
		hash = Math.imul(hash, 0x85ebca6b);
		return hash ^ (hash >>> 13);
	}
}

/** Open addressing over the hashes; a hit is confirmed by the text itself (one in billions differs). */
export class TextTable<T> {
	// Arrays, not Int32Arrays: V8 makes a typed array of more than 64 bytes outside its heap, which
	// costs a diagnosis (a table or two each, thousands of them in a triage) more than its use.
	#slots: number[] = zeros(64);
	#hashes: number[] = zeros(64);
	readonly #texts: string[] = [];
	readonly #values: T[] = [];

	/** The value of `text` (whose hash Utf8Scratch.write gave), made by `make` when it is new. */
	find(text: string, hash: number, make: () => T): T {
		const mask = this.#slots.length - 1;
		let slot = hash & mask;
		for (;;) {
			const held = this.#slots[slot] as number;
			if (held === 0) break;
			if (this.#hashes[slot] === hash && this.#texts[held - 1] === text)
				return this.#values[held - 1] as T;
			slot = (slot + 1) & mask;
		}
		const value = make();
		this.#texts.push(text);
		this.#values.push(value);
		this.#slots[slot] = this.#texts.length;
		this.#hashes[slot] = hash;
		if (this.#texts.length * 2 > this.#slots.length) this.#grow();
		return value;
	}

	#grow(): void {
		const slots = this.#slots;
		const hashes = this.#hashes;
		this.#slots = zeros(slots.length * 2);
		this.#hashes = zeros(slots.length * 2);
		const mask = this.#slots.length - 1;
		for (let old = 0; old < slots.length; old++) {
			const held = slots[old] as number;
			if (held === 0) continue;
			const hash = hashes[old] as number;
			let slot = hash & mask;
			while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
			this.#slots[slot] = held;
			this.#hashes[slot] = hash;
		}
	}
}

/** An array of `length` zeros, small integers all (the kind V8 keeps unboxed). */
function zeros(length: number): number[] {
	const array: number[] = [];
	for (let i = 0; i < length; i++) array.push(0);
	return array;
}
