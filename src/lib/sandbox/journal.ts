// The sandbox server's journal of requests (src/node/sandbox-server), and what an entry of it is:
// the page's live journal (live/) reads the same entries from the server's events stream.
import type { SandboxVerdict } from './service';

/** One request as the sandbox server saw and answered it: no key, the kid masked. */
export interface JournalEntry {
	/** 1, 2, 3 … since the server started (a cleared journal keeps counting). */
	seq: number;
	/** ISO 8601, UTC. */
	time: string;
	method: string;
	/** The URL as called: scheme, Host, and the path and query exactly as received. */
	url: string;
	/** The kid the header named, masked as the case file masks it; null when none could be read. */
	kid: string | null;
	status: number;
	verdict: SandboxVerdict;
	/** X-Sandbox-Diagnosis as sent (also under --strict, where it is not sent), or null for ok. */
	diagnosis: string | null;
	/** The base string the sandbox built, where it could read the header. */
	baseString: string | null;
	/** The Authorization header, the kid masked; lets the page open the request on /verify. */
	authorization: string | null;
}

/**
 * The last `size` requests, in a ring: memory stays bounded however many arrive. Listeners hear
 * each new entry (the events stream).
 */
export class Journal {
	#entries: JournalEntry[] = [];
	#start = 0;
	#seq = 0;
	#listeners = new Set<(entry: JournalEntry) => void>();

	constructor(readonly size = 1000) {}

	add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
		const full = { seq: ++this.#seq, ...entry };
		if (this.#entries.length < this.size) this.#entries.push(full);
		else {
			this.#entries[this.#start] = full;
			this.#start = (this.#start + 1) % this.size;
		}
		for (const listener of this.#listeners) listener(full);
		return full;
	}

	/** Oldest first. */
	entries(): JournalEntry[] {
		return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
	}

	clear(): void {
		this.#entries = [];
		this.#start = 0;
	}

	listen(listener: (entry: JournalEntry) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	get listeners(): number {
		return this.#listeners.size;
	}
}
