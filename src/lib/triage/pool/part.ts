// A pool worker's work: one part of a log (line-chunks.ts), triaged by the engine as the whole file
// would be, its verdicts in the form the run wants them (the page's columns, CSV or NDJSON text),
// with what the coordinator needs to finish them: the kid and nonce pair of each request, since a
// nonce may have been used in an earlier part that another worker read (merge.ts).
import { triage } from '../engine';
import { csvRowWithNonceAt, ndjsonLineWithNonceAt } from '../exports';
import { parseKeys, type Keyring } from '../keys';
import { NonceLedger, Tally } from '../tally';
import type { TriageSummary, VerdictRecord } from '../types';
import { encodeVerdicts, transferables, type VerdictBatch } from '../verdict-batch';
import { unreadableRecord } from '../verify';
import type { PoolPlan } from './line-chunks';

/** What a run's verdicts become in the workers: columns for the page, text for the command line. */
export type PartOutput = 'batch' | 'csv' | 'ndjson' | 'none';

/** What every part of one run shares. */
export interface PartSettings {
	plan: PoolPlan;
	keys: string;
	windowSeconds: number;
	nowMs: number;
	output: PartOutput;
	revealKid: boolean;
}

/** One part to triage (a LinePart without its bookkeeping). */
export interface PartTask {
	index: number;
	bytes: Uint8Array<ArrayBuffer>;
	linesBefore: number;
	tooLong: boolean;
}

/**
 * The kid and nonce pairs of a part's requests, in their order: the pair's two hashes (as
 * NonceLedger keeps them) and the request's place among the part's verdicts. The coordinator's one
 * table decides which were used before, in this part or an earlier one (merge.ts).
 */
export interface NonceJournal {
	count: number;
	high: Int32Array<ArrayBuffer>;
	low: Int32Array<ArrayBuffer>;
	record: Uint32Array<ArrayBuffer>;
}

export interface PartResult {
	index: number;
	/** Verdicts of the part (all its readable and unreadable requests). */
	verdicts: number;
	summary: TriageSummary;
	journal: NonceJournal;
	/** 'batch': the verdicts as columns. */
	batch: VerdictBatch | null;
	/** 'csv', 'ndjson': the verdicts' text, and where in it each verdict's nonce cell starts. */
	text: string | null;
	nonceAt: Uint32Array<ArrayBuffer> | null;
	/** 'csv', 'ndjson': where each verdict's verdict cell starts (a match may become refused). */
	verdictAt: Uint32Array<ArrayBuffer> | null;
	/**
	 * Per verdict, 1 for a match: a nonce used in an earlier part makes it refused (merge.ts), and
	 * the counts must say so whatever form the verdicts travel in.
	 */
	matched: Uint8Array<ArrayBuffer>;
	/** The verdicts' request numbers, when they are not in `batch`. */
	numbers: Float64Array<ArrayBuffer> | null;
}

/**
 * A NonceLedger that writes down each pair it is shown, in order, with its request's number, and
 * keeps no table: every request's pair is looked up in the coordinator's, which holds the pairs of
 * the whole log (a table here too cost each worker a probe into megabytes a request, for answers
 * the coordinator finds again). Its verdicts say no nonce was used before until merge.ts says so.
 */
class JournalLedger extends NonceLedger {
	count = 0;
	high = new Int32Array(1024);
	low = new Int32Array(1024);
	numbers = new Float64Array(1024);

	override seeHashes(a: number, low: number, number: number): null {
		if (this.count === this.high.length) this.#grow();
		this.high[this.count] = a;
		this.low[this.count] = low;
		this.numbers[this.count] = number;
		this.count += 1;
		return null;
	}

	#grow(): void {
		const size = this.high.length * 2;
		const high = new Int32Array(size);
		const low = new Int32Array(size);
		const numbers = new Float64Array(size);
		high.set(this.high);
		low.set(this.low);
		numbers.set(this.numbers);
		Object.assign(this, { high, low, numbers });
	}

	/**
	 * The journal, each pair placed among the verdicts (in order, as the pairs are) by its number:
	 * `numbers` are the verdicts' request numbers, in order.
	 */
	journal(numbers: ArrayLike<number>, verdicts: number): NonceJournal {
		const n = this.count;
		const record = new Uint32Array(n);
		let place = 0;
		for (let at = 0; at < n; at++) {
			const number = this.numbers[at] as number;
			while (place < verdicts && (numbers[place] as number) < number) place += 1;
			record[at] = place;
		}
		return {
			count: n,
			high: this.high.slice(0, n),
			low: this.low.slice(0, n),
			record
		};
	}
}

/** The settings' keys parsed once per run, not once per part. */
const keyrings = new WeakMap<PartSettings, Keyring>();

/** Triages one part. Never rejects on what the part holds: unreadable lines are verdicts. */
export async function triagePart(
	task: PartTask,
	settings: PartSettings,
	options: { signal?: AbortSignal } = {}
): Promise<PartResult> {
	let keyring = keyrings.get(settings);
	if (keyring === undefined) {
		keyring = parseKeys(settings.keys).keyring;
		keyrings.set(settings, keyring);
	}
	if (task.tooLong)
		// A line the chunker dropped unread, counted as the whole-file reader counts it.
		return recordsResult(
			task.index,
			[unreadableRecord({ number: task.linesBefore + 1, code: 'too-long' })],
			settings
		);
	const collected = new Collected(settings);
	const ledger = new JournalLedger();
	const triageOptions: Parameters<typeof triage>[2] = {
		part: { format: settings.plan.format, encoding: 'utf-8', linesBefore: task.linesBefore },
		windowSeconds: settings.windowSeconds,
		nowMs: settings.nowMs,
		nonces: ledger,
		// The part's verdicts are posted together, but taken from the engine a batch at a time and
		// kept only as what the run wants of them (text, columns or numbers): a part's records are
		// not held until its end, and most die young, as a garbage collector likes them.
		batchSize: VERDICTS_AT_ONCE,
		intervalMs: Number.POSITIVE_INFINITY,
		onVerdicts: (batch) => collected.add(batch)
	};
	if (options.signal) triageOptions.signal = options.signal;
	const summary = await triage(bytesStream(task.bytes), keyring, triageOptions);
	return finish(task.index, collected, summary, ledger, settings);
}

/** Verdicts the engine gives a part's collector at a time. */
const VERDICTS_AT_ONCE = 1024;

/** What a part keeps of its verdicts, as they come: what its output needs, and their numbers. */
class Collected {
	count = 0;
	numbers = new Float64Array(1024);
	/** 'batch': the records, to be encoded as columns at the end. */
	records: VerdictRecord[] = [];
	/** 'csv', 'ndjson': the rows' text so far, and where each verdict's nonce cell starts in it. */
	texts: string[] = [];
	nonceAt = new Uint32Array(1024);
	verdictAt = new Uint32Array(1024);
	matched = new Uint8Array(1024);
	length = 0;
	readonly #write: typeof csvRowWithNonceAt | null;
	readonly #exportOptions: { revealKid: boolean };

	constructor(readonly settings: PartSettings) {
		this.#write =
			settings.output === 'csv'
				? csvRowWithNonceAt
				: settings.output === 'ndjson'
					? ndjsonLineWithNonceAt
					: null;
		this.#exportOptions = { revealKid: settings.revealKid };
	}

	add(batch: readonly VerdictRecord[]): void {
		const needed = this.count + batch.length;
		if (needed > this.numbers.length) {
			let size = this.numbers.length * 2;
			while (size < needed) size *= 2;
			const numbers = new Float64Array(size);
			numbers.set(this.numbers);
			this.numbers = numbers;
			const matched = new Uint8Array(size);
			matched.set(this.matched);
			this.matched = matched;
			if (this.#write !== null) {
				const nonceAt = new Uint32Array(size);
				nonceAt.set(this.nonceAt);
				this.nonceAt = nonceAt;
				const verdictAt = new Uint32Array(size);
				verdictAt.set(this.verdictAt);
				this.verdictAt = verdictAt;
			}
		}
		const write = this.#write;
		const rows: string[] = write === null ? [] : new Array(batch.length);
		for (let at = 0; at < batch.length; at++) {
			const record = batch[at] as VerdictRecord;
			this.numbers[this.count] = record.number;
			this.matched[this.count] = record.verdict === 'match' ? 1 : 0;
			if (write !== null) {
				const written = write(record, this.#exportOptions);
				rows[at] = written.row;
				this.nonceAt[this.count] = this.length + written.nonceAt;
				this.verdictAt[this.count] = this.length + written.verdictAt;
				this.length += written.row.length;
			} else if (this.settings.output === 'batch') this.records.push(record);
			this.count += 1;
		}
		if (write !== null) this.texts.push(rows.join(''));
	}
}

/**
 * Bytes of a part decoded at once. A part's text decoded whole is a string of a mebibyte, which V8
 * puts in its space for large objects: fresh pages of memory for every part, and a slower decode.
 * In pieces of 32 KiB the strings stay among the young objects, whose memory is reused. Measured
 * on `npm run triage` with a million requests (2 threads, same machine, in turn): whole parts
 * 5.20–5.26 s, 64 KiB pieces 4.45–4.49 s, 32 KiB 4.34–4.37 s; 128 KiB is as slow as whole parts.
 */
const DECODE_PIECE = 32 << 10;

/**
 * The part's bytes as a stream of DECODE_PIECE views of them: read at once (not copied into a
 * Blob and read back), and decoded a piece at a time.
 */
function bytesStream(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
	return new ReadableStream<Uint8Array>({
		start(controller) {
			for (let at = 0; at < bytes.byteLength; at += DECODE_PIECE)
				controller.enqueue(bytes.subarray(at, at + DECODE_PIECE));
			controller.close();
		}
	});
}

/**
 * A part made of unreadable verdicts the coordinator knows without reading (a line too long, a read
 * that failed), counted and written as a worker's part is.
 */
export function recordsResult(
	index: number,
	records: VerdictRecord[],
	settings: PartSettings
): PartResult {
	const tally = new Tally(settings.windowSeconds);
	const collected = new Collected(settings);
	for (const record of records) tally.add(record);
	collected.add(records);
	const summary = tally.summary({
		format: settings.plan.format,
		empty: false,
		bytesRead: 0,
		elapsedMs: 0,
		cancelled: false
	});
	return finish(index, collected, summary, new JournalLedger(), settings);
}

function finish(
	index: number,
	collected: Collected,
	summary: TriageSummary,
	ledger: JournalLedger,
	settings: PartSettings
): PartResult {
	const { count } = collected;
	const result: PartResult = {
		index,
		verdicts: count,
		summary,
		journal: ledger.journal(collected.numbers, count),
		batch: null,
		text: null,
		nonceAt: null,
		verdictAt: null,
		matched: collected.matched.slice(0, count),
		numbers: null
	};
	if (settings.output === 'batch') {
		result.batch = encodeVerdicts(collected.records);
		return result;
	}
	result.numbers = collected.numbers.slice(0, count);
	if (settings.output === 'csv' || settings.output === 'ndjson') {
		result.text = collected.texts.join('');
		result.nonceAt = collected.nonceAt.slice(0, count);
		result.verdictAt = collected.verdictAt.slice(0, count);
	}
	return result;
}

/** What postMessage may move rather than copy. */
export function resultTransferables(result: PartResult): Transferable[] {
	const { journal } = result;
	const list: Transferable[] = [journal.high.buffer, journal.low.buffer, journal.record.buffer];
	if (result.batch) list.push(...transferables(result.batch));
	if (result.nonceAt) list.push(result.nonceAt.buffer);
	if (result.verdictAt) list.push(result.verdictAt.buffer);
	list.push(result.matched.buffer);
	if (result.numbers) list.push(result.numbers.buffer);
	return list;
}
