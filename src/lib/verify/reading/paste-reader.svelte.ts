// The paste box's reader: a small wrapper around the reading worker, in the shape of the REPL's
// Bundler on svelte.dev (state the page reads, a worker it posts to, numbered jobs so that a newer
// one wins). A paste or link within OFF_MAIN_THREAD_CHARS is read at once, on the page; a larger
// one in the worker, so the page keeps answering while it works, and Cancel ends the worker.
import type { Text } from '$lib/i18n/text';
import { OFF_MAIN_THREAD_CHARS, pasteTooLarge } from '$lib/read/input-limits';
import { runJob, type JobMessage, type ReadJob, type ResultMessage } from './protocol';
import type { ShareLinkReading } from '../case/share-state';
import type { PasteReading } from './read-paste';
import { fromWire } from './wire';

export type ReadStatus = 'idle' | 'reading' | 'done' | 'cancelled';

/** Starts a reading worker; none where there are no workers (prerendering, jsdom): all is read at once there. */
export type StartWorker = (() => Worker) | null;

const startReadingWorker: StartWorker =
	typeof Worker === 'function'
		? () => new Worker(new URL('./reading.worker.ts', import.meta.url), { type: 'module' })
		: null;

interface Pending {
	id: number;
	job: ReadJob;
	apply: (result: PasteReading | ShareLinkReading) => void;
}

export class PasteReader {
	/** 'reading' while a job runs in the worker; 'cancelled' once the agent stopped it. */
	status = $state<ReadStatus>('idle');
	/** What the status is about: the paste box, or a share link being opened. */
	subject = $state<'paste' | 'link'>('paste');
	/** The paste's reading once done; null while reading, once cancelled, and for no paste. */
	result = $state.raw<PasteReading | null>(null);
	/** Why the paste was not read: over the box's limit (the paste stays in the box, unread). */
	tooLarge = $state.raw<Text<'limits_paste_too_large'> | null>(null);
	/** A reader that failed as none should (its error, as the engine words it); the page says so. */
	error = $state<string | null>(null);

	#startWorker: StartWorker;
	#worker: Worker | null = null;
	#id = 0;
	/** The job last started, to read again after a Cancel. */
	#last: Omit<Pending, 'id'> | null = null;
	/** The paste the result is (or will be) about. */
	#text = '';

	constructor(startWorker: StartWorker = startReadingWorker) {
		this.#startWorker = startWorker;
	}

	/** Reads the paste box's text; a newer text supersedes the one being read. */
	read(text: string): void {
		if (text === this.#text && this.subject === 'paste' && this.status !== 'cancelled') return;
		this.#begin('paste');
		this.#text = text;
		this.tooLarge = pasteTooLarge(text);
		if (this.tooLarge || text.trim() === '') {
			this.status = this.tooLarge ? 'done' : 'idle';
			return;
		}
		this.#run({ kind: 'paste', text }, (result) => (this.result = result as PasteReading));
	}

	/**
	 * Opens (decodes) a share link's fragment; `opened` gets what it holds, and puts its paste in
	 * the box, which reads it as any paste (so a Cancel then keeps it there).
	 */
	open(fragment: string, opened: (link: ShareLinkReading) => void): void {
		this.#begin('link');
		this.#text = '';
		this.#run({ kind: 'link', fragment }, (result) => opened(result as ShareLinkReading));
	}

	/** Stops the job under way: the worker is ended, and what was pasted stays where it is. */
	cancel(): void {
		if (this.status !== 'reading') return;
		this.#stop();
		this.status = 'cancelled';
	}

	/** Runs the job a Cancel stopped again. */
	retry(): void {
		const last = this.#last;
		if (this.status !== 'cancelled' || !last) return;
		this.#run(last.job, last.apply);
	}

	#begin(subject: 'paste' | 'link'): void {
		this.#stop();
		this.subject = subject;
		this.result = null;
		this.tooLarge = null;
		this.error = null;
	}

	/** Ends the job under way, if any: its answer, should one still come, is ignored. */
	#stop(): void {
		this.#id++;
		if (this.status === 'reading' && this.#worker) {
			// A reader cannot be interrupted inside the worker: ending the worker is the only stop.
			this.#worker.terminate();
			this.#worker = null;
		}
	}

	#run(job: ReadJob, apply: Pending['apply']): void {
		const id = ++this.#id;
		this.#last = { job, apply };
		const size = job.kind === 'paste' ? job.text.length : job.fragment.length;
		if (size <= OFF_MAIN_THREAD_CHARS || !this.#startWorker) {
			this.#finish(() => apply(runJob(job)));
			return;
		}
		this.status = 'reading';
		const worker = this.#worker ?? this.#start();
		const message: JobMessage = { id, job };
		worker.postMessage(message);
		worker.onmessage = ({ data }: MessageEvent<ResultMessage>) => {
			if (data.id !== this.#id) return;
			this.#finish(() => {
				if ('failed' in data) throw new Error(data.failed);
				apply(fromWire(data.result));
			});
		};
		worker.onerror = (event) => {
			// The worker could not start, or died: the next job starts a new one.
			event.preventDefault();
			if (this.#id !== id || this.#worker !== worker) return;
			worker.terminate();
			this.#worker = null;
			this.#finish(() => {
				throw new Error(event.message || 'the reading worker stopped');
			});
		};
	}

	#start(): Worker {
		this.#worker = this.#startWorker!();
		return this.#worker;
	}

	/** Marks the job done, then applies its result (which may start another: the paste a link carries). */
	#finish(complete: () => void): void {
		this.status = 'done';
		try {
			complete();
		} catch (error) {
			this.error = error instanceof Error ? error.message : String(error);
		}
	}
}
