// The paste box's reader (verify/reading): what it reads at once and what it sends to its worker,
// Cancel, a newer paste superseding an older one, and the reading crossing postMessage intact. The
// worker here is a stand-in that answers when the test says, with what the real worker would post
// (runJob, then toWire and structuredClone, as postMessage copies): no clock decides anything.
import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { OFF_MAIN_THREAD_CHARS, PASTE_BOX_MAX_BYTES } from '$lib/read/input-limits';
import { PasteError } from '$lib/read/parsed-request';
import { PasteReader } from '$lib/verify/reading/paste-reader.svelte';
import { runJob, type JobMessage } from '$lib/verify/reading/protocol';
import { readPaste } from '$lib/verify/reading/read-paste';
import { fromWire, toWire } from '$lib/verify/reading/wire';
import { encodeShareState } from '$lib/verify';
import { english } from './verify-english';

class StandInWorker {
	posted: JobMessage[] = [];
	terminated = false;
	onmessage: ((event: { data: unknown }) => void) | null = null;
	onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;

	postMessage(message: JobMessage): void {
		this.posted.push(structuredClone(message));
	}

	terminate(): void {
		this.terminated = true;
	}

	/** Answers the last job posted as the reading worker does. */
	answer(id = this.posted.at(-1)!.id): void {
		const job = this.posted.find((message) => message.id === id)!.job;
		this.onmessage?.({ data: structuredClone({ id, result: toWire(runJob(job)) }) });
	}
}

function readerWithWorkers() {
	const workers: StandInWorker[] = [];
	const reader = new PasteReader(() => {
		const worker = new StandInWorker();
		workers.push(worker);
		return worker as unknown as Worker;
	});
	return { reader, workers };
}

const HEADER = 'Authorization: MAC id="kid-1",ts="1700000000",nonce="n-1",mac="bWFj"';
/** A curl command past the threshold: its URL's query is long, the request still one. */
const LARGE = `curl 'https://open.tapapis.cn/p?q=${'a'.repeat(OFF_MAIN_THREAD_CHARS)}' -H '${HEADER}'`;

describe('the paste reader', () => {
	it('reads a paste within the threshold at once, with no worker', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read(HEADER);
		expect(reader.status).toBe('done');
		expect(reader.result?.single.ok).toBe(true);
		expect(workers).toHaveLength(0);
	});

	it('reads a larger paste in the worker, and shows what the page would have read itself', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read(LARGE);
		expect(reader.status).toBe('reading');
		expect(reader.result).toBeNull();
		expect(workers[0]!.posted).toEqual([
			{ id: expect.any(Number), job: { kind: 'paste', text: LARGE } }
		]);
		workers[0]!.answer();
		expect(reader.status).toBe('done');
		expect(reader.result).toEqual(readPaste(LARGE));
	});

	it('drops the run under way for a newer paste, and ignores an answer to a job replaced', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read(LARGE);
		reader.read(`${LARGE} `);
		expect(workers[0]!.terminated).toBe(true);
		const second = workers[1]!;
		expect(second.posted.at(-1)!.job).toEqual({ kind: 'paste', text: `${LARGE} ` });
		// An answer numbered as the first job, arriving late, changes nothing.
		second.onmessage?.({
			data: { id: workers[0]!.posted[0]!.id, result: toWire(readPaste(HEADER)) }
		});
		expect(reader.status).toBe('reading');
		second.answer();
		expect(reader.result).toEqual(readPaste(`${LARGE} `));
	});

	it('stops on Cancel: the worker ended, nothing shown as read, and it reads again when asked', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read(LARGE);
		reader.cancel();
		expect(workers[0]!.terminated).toBe(true);
		expect(reader.status).toBe('cancelled');
		expect(reader.result).toBeNull();
		reader.retry();
		expect(reader.status).toBe('reading');
		workers[1]!.answer();
		expect(reader.result?.single.ok).toBe(true);
	});

	it('does not read a paste over the box limit, and says how large it is', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read('x'.repeat(PASTE_BOX_MAX_BYTES + 1));
		expect(reader.status).toBe('done');
		expect(reader.result).toBeNull();
		expect(workers).toHaveLength(0);
		expect(english(reader.tooLarge!)).toBe(
			'The paste is 5.1 MB; the box reads up to 5 MB: use /triage for logs.'
		);
		// Counted in bytes of UTF-8: 1.7 million three-byte characters are 5.1 MB.
		reader.read('字'.repeat(1_700_000));
		expect(english(reader.tooLarge!)).toMatch(/^The paste is 5\.1 MB;/);
	});

	it('says a worker that failed, and starts a new one for the next paste', () => {
		const { reader, workers } = readerWithWorkers();
		reader.read(LARGE);
		workers[0]!.onerror?.({ message: 'Failed to fetch', preventDefault() {} });
		expect(reader.status).toBe('done');
		expect(reader.error).toBe('Failed to fetch');
		reader.read(`${LARGE} `);
		expect(workers).toHaveLength(2);
		expect(reader.error).toBeNull();
	});

	it('opens a large share link in the worker', () => {
		const { reader, workers } = readerWithWorkers();
		const fragment = encodeShareState(
			{
				signedRequest: HEADER,
				url: '',
				baseString: 'b'.repeat(OFF_MAIN_THREAD_CHARS),
				options: {}
			},
			{ includeKid: true }
		);
		const opened: unknown[] = [];
		reader.open(`#${fragment}`, (link) => opened.push(link));
		expect(reader.status).toBe('reading');
		expect(reader.subject).toBe('link');
		workers[0]!.answer();
		expect(opened).toEqual([
			{ kind: 'state', state: expect.objectContaining({ signedRequest: HEADER }) }
		]);
	});
});

describe('a reading crossing postMessage', () => {
	it("keeps the readers' errors: a PasteError with its Text, the core's errors inside a Text", () => {
		const pastes = [
			'not a request',
			`curl 'https://user:pw@open.tapapis.cn/p' -H '${HEADER}'`,
			'Authorization: MAC id="a"'
		];
		for (const paste of pastes) {
			const read = readPaste(paste);
			const crossed = fromWire<typeof read>(structuredClone(toWire(read)));
			expect(crossed).toEqual(read);
			if (!read.single.ok) {
				expect(crossed.single.ok).toBe(false);
				const error = (crossed.single as { error: MacInputError }).error;
				expect(error).toBeInstanceOf(MacInputError);
				expect(error.constructor).toBe(read.single.error.constructor);
				if (error instanceof PasteError)
					expect(english(error.text)).toBe(english((read.single.error as PasteError).text));
				else expect(error.message).toBe(read.single.error.message);
			}
			for (const [index, line] of (read.single.ok ? read.single.value.understood : []).entries())
				expect(
					english(
						(crossed.single as { value: { understood: (typeof line)[] } }).value.understood[index]
					)
				).toBe(english(line));
		}
	});
});
