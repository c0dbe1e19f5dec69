/**
 * The nonces seen within the ts window, per kid: a request may not reuse one (a sandbox assumption,
 * spec §5.8). Each is remembered until its window closes; those that expired are dropped from the
 * front of a queue kept in the order they came, so each request costs O(1) however many are held.
 * At `cap` the oldest is forgotten first: its nonce could then be used again early, and memory stays
 * bounded whatever the rate.
 */
export class NonceMemory {
	#until = new Map<string, number>();
	#queue: { key: string; until: number }[] = [];
	#head = 0;

	constructor(readonly cap = 1_000_000) {}

	get size(): number {
		return this.#until.size;
	}

	/** Whether `nonce` of `kid` was seen and its window is still open at `now` (ms). */
	seen(kid: string, nonce: string, now: number): boolean {
		const until = this.#until.get(`${kid}\n${nonce}`);
		return until !== undefined && until >= now;
	}

	/** Remembers `nonce` of `kid` until `until` (ms), forgetting what expired by `now`. */
	remember(kid: string, nonce: string, until: number, now: number): void {
		this.#expire(now);
		while (this.#until.size >= this.cap) this.#drop();
		const key = `${kid}\n${nonce}`;
		this.#until.set(key, until);
		this.#queue.push({ key, until });
	}

	clear(): void {
		this.#until.clear();
		this.#queue = [];
		this.#head = 0;
	}

	#expire(now: number): void {
		// The window may have been changed since: an entry behind one that lives longer waits for it,
		// which only keeps it a little longer (seen() checks the time itself).
		while (this.#head < this.#queue.length && this.#queue[this.#head]!.until < now) this.#drop();
	}

	#drop(): void {
		const entry = this.#queue[this.#head];
		if (entry === undefined) return;
		this.#head += 1;
		// The same nonce remembered again later has an entry of its own further back.
		if (this.#until.get(entry.key) === entry.until) this.#until.delete(entry.key);
		if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
			this.#queue = this.#queue.slice(this.#head);
			this.#head = 0;
		}
	}
}
