/**
 * The nonces seen within the ts window, per kid: a request may not reuse one (a sandbox assumption,
 * spec §5.8). Each is remembered until its window closes; those that expired are dropped from the
 * front of a queue kept in the order they came, so each request costs O(1) however many are held.
 * At `cap` the oldest is forgotten first: its nonce could then be used again early, and memory stays
 * bounded whatever the rate.
 */
export class NonceMemory {
	#until = new Map<string, number>();
	// The queue as two arrays, no object per entry: a million nonces is a million of each.
	#keys: string[] = [];
	#untils: number[] = [];
	#head = 0;

	constructor(readonly cap = 1_000_000) {}

	get size(): number {
		return this.#until.size;
	}

	/** Whether `nonce` of `kid` was seen and its window is still open at `now` (ms). */
	seen(kid: string, nonce: string, now: number): boolean {
		const until = this.#until.get(key(kid, nonce));
		return until !== undefined && until >= now;
	}

	/** Remembers `nonce` of `kid` until `until` (ms), forgetting what expired by `now`. */
	remember(kid: string, nonce: string, until: number, now: number): void {
		this.#expire(now);
		while (this.#until.size >= this.cap) this.#drop();
		const entry = key(kid, nonce);
		this.#until.set(entry, until);
		this.#keys.push(entry);
		this.#untils.push(until);
	}

	clear(): void {
		this.#until.clear();
		this.#keys = [];
		this.#untils = [];
		this.#head = 0;
	}

	#expire(now: number): void {
		// The window may have been changed since: an entry behind one that lives longer waits for it,
		// which only keeps it a little longer (seen() checks the time itself).
		while (this.#head < this.#keys.length && this.#untils[this.#head]! < now) this.#drop();
	}

	#drop(): void {
		if (this.#head >= this.#keys.length) return;
		const entry = this.#keys[this.#head]!;
		const until = this.#untils[this.#head]!;
		this.#head += 1;
		// The same nonce remembered again later has an entry of its own further back.
		if (this.#until.get(entry) === until) this.#until.delete(entry);
		if (this.#head > 1024 && this.#head * 2 > this.#keys.length) {
			this.#keys = this.#keys.slice(this.#head);
			this.#untils = this.#untils.slice(this.#head);
			this.#head = 0;
		}
	}
}

/**
 * One string for a kid and a nonce, made by join: a flat copy, where a template would keep the two
 * parts (and the whole Authorization header the nonce was cut from) alive as long as it is held.
 */
function key(kid: string, nonce: string): string {
	return [kid, nonce].join('\n');
}
