import { closeSync, openSync, writeSync } from 'node:fs';

/** One request of `--record FILE`: what `npm run triage` reads back as an NDJSON log. */
export interface RecordLine {
	method: string;
	url: string;
	/** The header as received, its kid masked unless --record-kids. */
	authorization: string | null;
	/** ISO 8601, UTC. */
	time: string;
	status: number;
}

/**
 * Appends each request to a file as one NDJSON line, written through to the file (no buffer of our
 * own), so that a SIGTERM loses nothing. A write that fails is said once on stderr; serving goes on.
 */
export class Recorder {
	#fd: number | null;
	#failed = false;

	constructor(readonly path: string) {
		this.#fd = openSync(path, 'a');
	}

	write(line: RecordLine): void {
		if (this.#fd === null) return;
		try {
			writeSync(this.#fd, `${JSON.stringify(line)}\n`);
		} catch (error) {
			if (!this.#failed) console.error(`--record ${this.path}: ${(error as Error).message}`);
			this.#failed = true;
		}
	}

	close(): void {
		if (this.#fd === null) return;
		closeSync(this.#fd);
		this.#fd = null;
	}
}
