import type { ServerResponse } from 'node:http';
import type { Journal, JournalEntry } from '$lib/sandbox/journal';

/** Streams open at once; one more is answered 503. Each holds a socket and its buffer. */
export const MAX_EVENT_STREAMS = 32;
/** A stream whose reader falls this far behind is closed: memory stays bounded. */
const MAX_BUFFERED = 1024 * 1024;
/** A comment this often keeps proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * GET /__sandbox/events: each new journal entry as a Server-Sent Event (`event: entry`, its JSON
 * as data, its seq as id). The streams end when the server closes.
 */
export class EventStreams {
	#open = new Set<ServerResponse>();
	#heartbeat: ReturnType<typeof setInterval> | undefined;

	constructor(private readonly journal: Journal) {}

	/** Whether another stream may open. */
	get full(): boolean {
		return this.#open.size >= MAX_EVENT_STREAMS;
	}

	open(outgoing: ServerResponse, headers: Record<string, string>): void {
		outgoing.writeHead(200, {
			...headers,
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-store',
			'x-content-type-options': 'nosniff'
		});
		outgoing.write(': the sandbox journal, one event per request\nretry: 2000\n\n');
		const stop = this.journal.listen((entry) => this.#send(outgoing, entry));
		this.#open.add(outgoing);
		outgoing.once('close', () => {
			stop();
			this.#open.delete(outgoing);
			if (this.#open.size === 0) {
				clearInterval(this.#heartbeat);
				this.#heartbeat = undefined;
			}
		});
		this.#heartbeat ??= setInterval(() => {
			for (const stream of this.#open) stream.write(': heartbeat\n\n');
		}, HEARTBEAT_MS);
		this.#heartbeat.unref?.();
	}

	#send(outgoing: ServerResponse, entry: JournalEntry): void {
		if (outgoing.writableLength > MAX_BUFFERED) {
			outgoing.destroy();
			return;
		}
		// JSON has no raw line feed, so the data is one line.
		outgoing.write(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
	}

	/** Ends every stream (the server is closing). */
	closeAll(): void {
		for (const stream of this.#open) stream.end();
	}
}
