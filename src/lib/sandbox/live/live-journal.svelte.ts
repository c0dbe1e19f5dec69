import { curlCommand } from '$lib/mac/curl';
import type { JournalEntry } from '../journal';
import { serverBase, type AddressProblem } from './address';

/** Where `npm run sandbox` and sandbox-server.mjs listen by default. */
export const DEFAULT_ADDRESS = 'http://127.0.0.1:8787';
/** Entries the page keeps: as many as the server's journal keeps by default. */
const MAX_ENTRIES = 1000;

export type LiveStatus =
	| { kind: 'idle' }
	| { kind: 'connecting' }
	| { kind: 'open' }
	/** The stream broke after it was open; the browser tries again on its own. */
	| { kind: 'reconnecting' }
	/** Nothing answered as a sandbox server at the address. */
	| { kind: 'refused' }
	| { kind: 'bad-address'; reason: AddressProblem };

/** The parts of the browser the live view needs, so that a test can give its own. */
export interface LiveDeps {
	fetch: typeof fetch;
	EventSource: typeof EventSource;
}

/**
 * The journal of a running sandbox server, live: its entries from GET /__sandbox/journal, then each
 * new one from the events stream. The address is the only thing typed; nothing is stored.
 */
export class LiveJournal {
	address = $state(DEFAULT_ADDRESS);
	status: LiveStatus = $state({ kind: 'idle' });
	entries: JournalEntry[] = $state([]);
	#source: EventSource | null = null;
	#connected = '';

	constructor(private readonly deps: () => LiveDeps) {}

	/** The address as the base of the server's endpoints, or what is wrong with it. */
	readonly origin = $derived(serverBase(this.address));

	get connected(): boolean {
		return this.#source !== null;
	}

	async connect(): Promise<void> {
		this.disconnect();
		const origin = this.origin;
		if ('error' in origin) {
			this.status = { kind: 'bad-address', reason: origin.error };
			return;
		}
		const { fetch, EventSource } = this.deps();
		this.status = { kind: 'connecting' };
		this.#connected = origin.url;
		try {
			const answer = await fetch(`${origin.url}/__sandbox/journal`, { cache: 'no-store' });
			if (!answer.ok) throw new Error(String(answer.status));
			const body = (await answer.json()) as { entries?: JournalEntry[] };
			if (!Array.isArray(body.entries)) throw new Error('not a journal');
			if (this.#connected !== origin.url) return;
			this.entries = body.entries.slice(-MAX_ENTRIES);
		} catch {
			if (this.#connected === origin.url) this.status = { kind: 'refused' };
			return;
		}
		const source = new EventSource(`${origin.url}/__sandbox/events`);
		this.#source = source;
		source.addEventListener('open', () => (this.status = { kind: 'open' }));
		source.addEventListener('error', () => {
			if (this.#source === source && this.status.kind === 'open')
				this.status = { kind: 'reconnecting' };
		});
		source.addEventListener('entry', (event) => this.#add((event as MessageEvent<string>).data));
	}

	disconnect(): void {
		this.#source?.close();
		this.#source = null;
		this.#connected = '';
		if (this.status.kind !== 'bad-address') this.status = { kind: 'idle' };
	}

	/** Clears the server's journal, and the page's copy. */
	async clear(): Promise<void> {
		const origin = this.origin;
		if ('error' in origin) return;
		try {
			await this.deps().fetch(`${origin.url}/__sandbox/journal`, { method: 'DELETE' });
			this.entries = [];
		} catch {
			this.status = { kind: 'refused' };
		}
	}

	#add(data: string): void {
		let entry: JournalEntry;
		try {
			entry = JSON.parse(data) as JournalEntry;
		} catch {
			return;
		}
		if (typeof entry?.seq !== 'number') return;
		// After a reconnect the server may repeat nothing, but a page that loaded the journal and then
		// opened the stream could see one entry twice.
		if (this.entries.some((known) => known.seq === entry.seq)) return;
		const next = [...this.entries, entry];
		this.entries = next.length > MAX_ENTRIES ? next.slice(-MAX_ENTRIES) : next;
	}
}

/** What /verify is handed for an entry: the request as a curl command (its scheme and port kept). */
export function entryAsRequest(entry: JournalEntry): string | null {
	return entry.authorization === null ? null : curlCommand(entry.url, entry.authorization);
}
