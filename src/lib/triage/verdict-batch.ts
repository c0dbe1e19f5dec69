// Verdicts on their way from the worker to the page, a batch at a time. Posted as objects, each
// record is structured-cloned field by field, and a 100,000-request run spends longer cloning than
// verifying, much of it on the page's main thread. A batch instead travels as a few columns: the
// numbers in one Float64Array, the kinds and flags in one Uint16Array (both transferred, not
// copied), the texts in one string cut at the offsets of a Uint32Array, and the few records with a
// mistake or a reason they are unreadable beside them. decodeVerdicts gives back records equal to
// those encoded.
import type { UriForm } from '$lib/mac';
import type { SentAtSource } from '$lib/verify/paste/sent-at';
import type { Unreadable, VerdictKind, VerdictRecord } from './types';

export interface VerdictBatch {
	count: number;
	/** Per record: number, status, sentAt's ms, clock's ageSeconds, nonceFirstUsedAt. */
	values: Float64Array<ArrayBuffer>;
	/** Per record: the bits below. */
	flags: Uint16Array<ArrayBuffer>;
	/** Per record: method, url, kid and authorization, one after the other. */
	text: string;
	/** Where each of those four texts ends in `text`. */
	ends: Uint32Array<ArrayBuffer>;
	/** The records that have a mistake or are unreadable: their index in the batch and those fields. */
	rare: { index: number; mistake: string | null; unreadable: Unreadable | null }[];
}

const VALUES = 5;
const TEXTS = 4;

const VERDICTS: readonly VerdictKind[] = ['match', 'mismatch', 'no-key', 'unreadable'];
const SOURCES: readonly SentAtSource[] = ['har', 'date', 'log'];
const VERDICT_MASK = 0b11;
const BROWSER = 1 << 2;
const STATUS = 1 << 3;
const SENT_AT = 1 << 4;
const ZONE_KNOWN = 1 << 5;
const SOURCE_SHIFT = 6;
const CLOCK = 1 << 8;
const AGE = 1 << 9;
const OUTSIDE_WINDOW = 1 << 10;
const NONCE_FIRST = 1 << 11;

export function encodeVerdicts(records: readonly VerdictRecord[]): VerdictBatch {
	const count = records.length;
	const values = new Float64Array(count * VALUES);
	const flags = new Uint16Array(count);
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
		flags[index] = bits;
		const text = index * TEXTS;
		texts.push(record.method, record.url, record.kid, record.authorization);
		ends[text] = end += record.method.length;
		ends[text + 1] = end += record.url.length;
		ends[text + 2] = end += record.kid.length;
		ends[text + 3] = end += record.authorization.length;
		if (record.mistake !== null || record.unreadable !== null)
			rare.push({ index, mistake: record.mistake, unreadable: record.unreadable });
	}
	return { count, values, flags, text: texts.join(''), ends, rare };
}

/** What postMessage may move rather than copy. */
export function transferables(batch: VerdictBatch): Transferable[] {
	return [batch.values.buffer, batch.flags.buffer, batch.ends.buffer];
}

export function decodeVerdicts(batch: VerdictBatch): VerdictRecord[] {
	const { count, values, flags, text, ends } = batch;
	const records: VerdictRecord[] = new Array(count);
	let start = 0;
	for (let index = 0; index < count; index++) {
		const bits = flags[index] as number;
		const at = index * VALUES;
		const cut = index * TEXTS;
		const methodEnd = ends[cut] as number;
		const urlEnd = ends[cut + 1] as number;
		const kidEnd = ends[cut + 2] as number;
		const authorizationEnd = ends[cut + 3] as number;
		records[index] = {
			number: values[at] as number,
			method: text.slice(start, methodEnd),
			url: text.slice(methodEnd, urlEnd),
			kid: text.slice(urlEnd, kidEnd),
			verdict: VERDICTS[bits & VERDICT_MASK] as VerdictKind,
			mistake: null,
			status: bits & STATUS ? (values[at + 1] as number) : null,
			authorization: text.slice(kidEnd, authorizationEnd),
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
			unreadable: null
		};
		start = authorizationEnd;
	}
	for (const { index, mistake, unreadable } of batch.rare) {
		const record = records[index] as VerdictRecord;
		record.mistake = mistake;
		record.unreadable = unreadable;
	}
	return records;
}
