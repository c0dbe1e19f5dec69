// Verdicts on their way from the worker to the page, a batch at a time. Posted as objects, each
// record is structured-cloned field by field, and a 100,000-request run spends longer cloning than
// verifying, much of it on the page's main thread. A batch instead travels as a few columns: the
// numbers in one Float64Array, the kinds and flags in one Uint16Array (both transferred, not
// copied), the texts in one string cut at the offsets of a Uint32Array, and the few records with a
// mistake or a reason they are unreadable beside them; the likely client is one small integer a
// record in a Uint16Array of its own. decodeVerdicts gives back records equal to
// those encoded.
import type { UriForm } from '$lib/mac';
import type { SentAtSource } from '$lib/read/sent-at';
import type { Unreadable } from '$lib/read/types';
import type { Refusal } from '$lib/diagnosis/service-answer';
import type { VerdictKind, VerdictRecord } from './types';

export interface VerdictBatch {
	count: number;
	/** Per record: number, status, sentAt's ms, clock's ageSeconds, nonceFirstUsedAt. */
	values: Float64Array<ArrayBuffer>;
	/** Per record: the bits below. */
	flags: Uint16Array<ArrayBuffer>;
	/** Per record: its likely client's code ($lib/diagnosis/likely-client, 10 bits). */
	clients: Uint16Array<ArrayBuffer>;
	/** Per record: method, url, kid and authorization, one after the other. */
	text: string;
	/** Where each of those four texts ends in `text`. */
	ends: Uint32Array<ArrayBuffer>;
	/**
	 * The records that have a mistake, a refusal or are unreadable: their index in the batch and
	 * those fields.
	 */
	rare: {
		index: number;
		mistake: string | null;
		unreadable: Unreadable | null;
		refusal: Refusal | null;
	}[];
}

const VALUES = 5;
const TEXTS = 4;

const VERDICTS: readonly VerdictKind[] = ['match', 'mismatch', 'no-key', 'unreadable', 'refused'];
const SOURCES: readonly SentAtSource[] = ['har', 'date', 'log'];
const VERDICT_MASK = 0b111;
const BROWSER = 1 << 3;
const STATUS = 1 << 4;
const SENT_AT = 1 << 5;
const ZONE_KNOWN = 1 << 6;
const SOURCE_SHIFT = 7;
const CLOCK = 1 << 9;
const AGE = 1 << 10;
const OUTSIDE_WINDOW = 1 << 11;
const NONCE_FIRST = 1 << 12;
const HEADER_FORMAT = 1 << 13;

export function encodeVerdicts(records: readonly VerdictRecord[]): VerdictBatch {
	const count = records.length;
	const values = new Float64Array(count * VALUES);
	const flags = new Uint16Array(count);
	const clients = new Uint16Array(count);
	const ends = new Uint32Array(count * TEXTS);
	const texts: string[] = [];
	const rare: VerdictBatch['rare'] = [];
	let end = 0;
	for (let index = 0; index < count; index++) {
		const record = records[index] as VerdictRecord;
		let bits = VERDICTS.indexOf(record.verdict);
		if (record.uriForm === 'browser') bits |= BROWSER;
		const at = index * VALUES;
		values[at] = record.number;
		if (record.status !== null) {
			bits |= STATUS;
			values[at + 1] = record.status;
		}
		const { sentAt, clock } = record;
		if (sentAt !== null) {
			bits |= SENT_AT | (SOURCES.indexOf(sentAt.source) << SOURCE_SHIFT);
			if (sentAt.zoneKnown) bits |= ZONE_KNOWN;
			values[at + 2] = sentAt.ms;
		}
		if (clock !== null) {
			bits |= CLOCK;
			if (clock.outsideWindow) bits |= OUTSIDE_WINDOW;
			if (clock.ageSeconds !== null) {
				bits |= AGE;
				values[at + 3] = clock.ageSeconds;
			}
		}
		if (record.nonceFirstUsedAt !== null) {
			bits |= NONCE_FIRST;
			values[at + 4] = record.nonceFirstUsedAt;
		}
		if (record.headerFormat === true) bits |= HEADER_FORMAT;
		flags[index] = bits;
		clients[index] = record.client;
		const text = index * TEXTS;
		texts.push(record.method, record.url, record.kid, record.authorization);
		ends[text] = end += record.method.length;
		ends[text + 1] = end += record.url.length;
		ends[text + 2] = end += record.kid.length;
		ends[text + 3] = end += record.authorization.length;
		if (record.mistake !== null || record.unreadable !== null || record.refusal !== null)
			rare.push({
				index,
				mistake: record.mistake,
				unreadable: record.unreadable,
				refusal: record.refusal
			});
	}
	return { count, values, flags, clients, text: texts.join(''), ends, rare };
}

/**
 * Marks record `index` of a batch as using again the kid and nonce of request `first`: the triage's
 * pool learns it only when the parts before have been merged (a nonce used in an earlier part).
 */
export function setNonceFirstUsedAt(batch: VerdictBatch, index: number, first: number): void {
	batch.values[index * VALUES + 4] = first;
	batch.flags[index] = (batch.flags[index] as number) | NONCE_FIRST;
}

/** Whether record `index` of a batch is a match (nothing yet seen that the service would refuse). */
export function isMatchAt(batch: VerdictBatch, index: number): boolean {
	return VERDICTS[(batch.flags[index] as number) & VERDICT_MASK] === 'match';
}

/**
 * Makes record `index` of a batch, a match, refused for `refusal`: the pool learns a nonce was used
 * before only when the parts before have been merged.
 */
export function setRefused(batch: VerdictBatch, index: number, refusal: Refusal): void {
	const bits = batch.flags[index] as number;
	batch.flags[index] = (bits & ~VERDICT_MASK) | VERDICTS.indexOf('refused');
	batch.rare.push({ index, mistake: null, unreadable: null, refusal });
}

/** What postMessage may move rather than copy. */
export function transferables(batch: VerdictBatch): Transferable[] {
	return [batch.values.buffer, batch.flags.buffer, batch.clients.buffer, batch.ends.buffer];
}

/** Record `index` of a batch, its mistake and reason unreadable left null. */
function decodeAt(batch: VerdictBatch, index: number): VerdictRecord {
	const { values, flags, text, ends } = batch;
	const bits = flags[index] as number;
	const at = index * VALUES;
	const cut = index * TEXTS;
	const start = cut === 0 ? 0 : (ends[cut - 1] as number);
	const methodEnd = ends[cut] as number;
	const urlEnd = ends[cut + 1] as number;
	const kidEnd = ends[cut + 2] as number;
	return {
		number: values[at] as number,
		method: text.slice(start, methodEnd),
		url: text.slice(methodEnd, urlEnd),
		kid: text.slice(urlEnd, kidEnd),
		verdict: VERDICTS[bits & VERDICT_MASK] as VerdictKind,
		mistake: null,
		refusal: null,
		status: bits & STATUS ? (values[at + 1] as number) : null,
		authorization: text.slice(kidEnd, ends[cut + 3] as number),
		uriForm: (bits & BROWSER ? 'browser' : 'as-written') satisfies UriForm,
		sentAt:
			bits & SENT_AT
				? {
						ms: values[at + 2] as number,
						source: SOURCES[(bits >> SOURCE_SHIFT) & 0b11] as SentAtSource,
						zoneKnown: (bits & ZONE_KNOWN) !== 0
					}
				: null,
		clock:
			bits & CLOCK
				? {
						ageSeconds: bits & AGE ? (values[at + 3] as number) : null,
						outsideWindow: (bits & OUTSIDE_WINDOW) !== 0
					}
				: null,
		nonceFirstUsedAt: bits & NONCE_FIRST ? (values[at + 4] as number) : null,
		client: batch.clients[index] as number,
		unreadable: null,
		...(bits & HEADER_FORMAT ? { headerFormat: true as const } : {})
	};
}

export function decodeVerdicts(batch: VerdictBatch): VerdictRecord[] {
	const records: VerdictRecord[] = new Array(batch.count);
	for (let index = 0; index < batch.count; index++) records[index] = decodeAt(batch, index);
	for (const { index, mistake, unreadable, refusal } of batch.rare) {
		const record = records[index] as VerdictRecord;
		record.mistake = mistake;
		record.unreadable = unreadable;
		record.refusal = refusal;
	}
	return records;
}

/**
 * The verdicts of a run kept as the batches came, in file order, read a row at a time: a record is
 * made only when asked for (the rows in view, an export), and what a filter or a sort looks at is
 * read from the columns without one.
 */
export class VerdictColumns {
	#batches: VerdictBatch[] = [];
	/** The index of each batch's first row. */
	#starts: number[] = [];
	/** Per batch: its rows with a mistake or a reason unreadable. */
	#rare: Map<number, VerdictBatch['rare'][number]>[] = [];
	#length = 0;
	/** The statuses logged, and whether some request had none: what a filter by status offers. */
	#statuses = new Set<number>();
	#withoutStatus = false;
	/** The batch of the row looked at last, and its first row: rows are mostly read in order. */
	#batch = -1;
	#start = 0;
	#end = 0;

	get length(): number {
		return this.#length;
	}

	add(batch: VerdictBatch): void {
		if (batch.count === 0) return;
		this.#batches.push(batch);
		this.#starts.push(this.#length);
		this.#rare.push(new Map(batch.rare.map((rare) => [rare.index, rare])));
		this.#length += batch.count;
		for (let row = 0; row < batch.count; row++)
			if ((batch.flags[row] as number) & STATUS)
				this.#statuses.add(batch.values[row * VALUES + 1] as number);
			else this.#withoutStatus = true;
	}

	/** The statuses logged so far, in ascending order. */
	statuses(): number[] {
		return [...this.#statuses].sort((a, b) => a - b);
	}

	/** Whether some request so far had no status logged. */
	get withoutStatus(): boolean {
		return this.#withoutStatus;
	}

	/** Finds row `index`'s batch; returns the row's index within it. */
	#find(index: number): number {
		if (index < this.#start || index >= this.#end) {
			if (index < 0 || index >= this.#length) throw new RangeError(`no verdict ${index}`);
			const starts = this.#starts;
			let low = 0;
			let high = starts.length - 1;
			while (low < high) {
				const middle = (low + high + 1) >> 1;
				if ((starts[middle] as number) <= index) low = middle;
				else high = middle - 1;
			}
			this.#batch = low;
			this.#start = starts[low] as number;
			this.#end = this.#start + (this.#batches[low] as VerdictBatch).count;
		}
		return index - this.#start;
	}

	/** Row `index` (from 0, in file order) as a record. */
	at(index: number): VerdictRecord {
		const row = this.#find(index);
		const record = decodeAt(this.#batches[this.#batch] as VerdictBatch, row);
		const rare = (this.#rare[this.#batch] as Map<number, VerdictBatch['rare'][number]>).get(row);
		if (rare !== undefined) {
			record.mistake = rare.mistake;
			record.unreadable = rare.unreadable;
			record.refusal = rare.refusal;
		}
		return record;
	}

	number(index: number): number {
		const row = this.#find(index);
		return (this.#batches[this.#batch] as VerdictBatch).values[row * VALUES] as number;
	}

	verdict(index: number): VerdictKind {
		const row = this.#find(index);
		const bits = (this.#batches[this.#batch] as VerdictBatch).flags[row] as number;
		return VERDICTS[bits & VERDICT_MASK] as VerdictKind;
	}

	/** The mistake of a mismatch (null while none is known, and for the other verdicts). */
	mistake(index: number): string | null {
		const row = this.#find(index);
		return (
			(this.#rare[this.#batch] as Map<number, VerdictBatch['rare'][number]>).get(row)?.mistake ??
			null
		);
	}

	/** The status logged with it, or null. */
	status(index: number): number | null {
		const row = this.#find(index);
		const batch = this.#batches[this.#batch] as VerdictBatch;
		return (batch.flags[row] as number) & STATUS
			? (batch.values[row * VALUES + 1] as number)
			: null;
	}

	/** Why the service would refuse it, for a refused one; null for the others. */
	refusal(index: number): Refusal | null {
		const row = this.#find(index);
		return (
			(this.#rare[this.#batch] as Map<number, VerdictBatch['rare'][number]>).get(row)?.refusal ??
			null
		);
	}

	/** Whether its ts lies outside the window against its logged time. */
	outsideWindow(index: number): boolean {
		const row = this.#find(index);
		return (
			(((this.#batches[this.#batch] as VerdictBatch).flags[row] as number) & OUTSIDE_WINDOW) !== 0
		);
	}

	/** Whether its Authorization header is not written as the spec shows it (of any verdict). */
	headerFormat(index: number): boolean {
		const row = this.#find(index);
		return (
			(((this.#batches[this.#batch] as VerdictBatch).flags[row] as number) & HEADER_FORMAT) !== 0
		);
	}

	/** Whether an earlier request used its kid and nonce. */
	nonceReused(index: number): boolean {
		const row = this.#find(index);
		return (
			(((this.#batches[this.#batch] as VerdictBatch).flags[row] as number) & NONCE_FIRST) !== 0
		);
	}

	/** Its likely client's code. */
	client(index: number): number {
		const row = this.#find(index);
		return (this.#batches[this.#batch] as VerdictBatch).clients[row] as number;
	}

	/** One of its texts: 0 method, 1 url, 2 kid, 3 authorization. */
	text(index: number, which: 0 | 1 | 2 | 3): string {
		const row = this.#find(index);
		const { text, ends } = this.#batches[this.#batch] as VerdictBatch;
		const cut = row * TEXTS + which;
		return text.slice(cut === 0 ? 0 : (ends[cut - 1] as number), ends[cut] as number);
	}
}
