// The pool's coordinator puts the parts back together in file order, whatever order the workers
// finish them in: the counts added up (Tally.absorb), and "nonce used twice" decided over the whole
// log with one nonce table: a part's worker keeps none (it writes down each request's pair), so a
// pair used before, in the same part or an earlier one, is found here, and its verdict and the
// counts are corrected before the part is released.
import { NonceLedger, Tally } from '../tally';
import type { TriageSummary } from '../types';
import { setNonceFirstUsedAt, setRefused } from '../verdict-batch';
import type { PartResult } from './part';

/** How many request numbers a group quotes (Tally's EXAMPLES). */
const EXAMPLES = 10;

/** A part ready to be shown or written: its verdicts corrected, its counts added. */
export interface ReleasedPart {
	result: PartResult;
	/** The part's verdict text with the corrections written in ('csv', 'ndjson'). */
	text: string | null;
	/** The pairs it uses that an earlier request used first. */
	reuses: number;
}

export class PartMerger {
	readonly tally: Tally;
	readonly nonces: NonceLedger;
	/** Results that came before those ahead of them. */
	#waiting = new Map<number, PartResult>();
	#next = 0;

	constructor(windowSeconds: number, nonces = new NonceLedger()) {
		this.tally = new Tally(windowSeconds);
		this.nonces = nonces;
	}

	/** The index of the next part to release: every part before it is counted. */
	get released(): number {
		return this.#next;
	}

	/** Results waiting for an earlier one. */
	get waiting(): number {
		return this.#waiting.size;
	}

	/** Takes a part's result; returns the parts that can be released now, in order. */
	take(result: PartResult): ReleasedPart[] {
		this.#waiting.set(result.index, result);
		const released: ReleasedPart[] = [];
		for (let next = this.#waiting.get(this.#next); next; next = this.#waiting.get(this.#next)) {
			this.#waiting.delete(this.#next);
			this.#next += 1;
			released.push(this.#release(next));
		}
		return released;
	}

	#release(result: PartResult): ReleasedPart {
		const { journal, summary } = result;
		const numbers = verdictNumbers(result);
		/** Places among the part's verdicts, and the request first using their pair. */
		const reuses: { place: number; first: number }[] = [];
		for (let at = 0; at < journal.count; at++) {
			const place = journal.record[at] as number;
			const first = this.nonces.seeHashes(
				journal.high[at] as number,
				journal.low[at] as number,
				numbers(place),
				result.matched[place] === 1
			);
			// Used before, in this part or an earlier one: the worker kept no table (part.ts).
			if (first !== null) reuses.push({ place, first });
		}
		let text = result.text;
		if (reuses.length > 0) {
			// A match whose nonce was used before is refused (service-answer.ts): its verdict too.
			const refused = reuses.filter(({ place }) => result.matched[place] === 1);
			if (result.batch) {
				for (const { place, first } of reuses) setNonceFirstUsedAt(result.batch, place, first);
				for (const { place } of refused) setRefused(result.batch, place, 'nonce-reused');
			}
			if (text !== null && result.nonceAt !== null)
				text = patched(text, result.nonceAt, result.verdictAt, result.matched, reuses);
			this.tally.absorb(
				withReuses(
					summary,
					reuses.map(({ place }) => numbers(place)),
					refused.map(({ place }) => numbers(place))
				)
			);
		} else this.tally.absorb(summary);
		return { result, text, reuses: reuses.length };
	}
}

/** The request number of a part's verdict at a place, from whichever form the verdicts travel in. */
function verdictNumbers(result: PartResult): (place: number) => number {
	const source = result.batch?.values ?? result.numbers;
	// A batch keeps five values a verdict, the number first.
	const stride = result.batch ? 5 : 1;
	if (source === null) throw new Error(`part ${result.index} has no verdict numbers`);
	return (place) => source[place * stride] as number;
}

/** The verdict and refusal cells of a match, as CSV and NDJSON write them, and as refused. */
const CSV_MATCH = 'match,';
const CSV_REFUSED = 'refused,nonce-reused';
const NDJSON_MATCH = '"match","refusal":null';
const NDJSON_REFUSED = '"refused","refusal":"nonce-reused"';

/**
 * The text with each verdict's nonce cell written (an empty CSV cell, or NDJSON's `null`), and a
 * match's verdict and refusal cells made refused. The verdict cell comes before the nonce cell in a
 * row, and the rows are in order: the pieces are cut in one pass.
 */
function patched(
	text: string,
	nonceAt: Uint32Array,
	verdictAt: Uint32Array | null,
	matched: Uint8Array,
	reuses: readonly { place: number; first: number }[]
): string {
	const pieces: string[] = [];
	let from = 0;
	for (const { place, first } of reuses) {
		if (verdictAt !== null && matched[place] === 1) {
			const at = verdictAt[place] as number;
			const [before, after] = text.startsWith(CSV_MATCH, at)
				? [CSV_MATCH, CSV_REFUSED]
				: [NDJSON_MATCH, NDJSON_REFUSED];
			if (text.startsWith(before, at)) {
				pieces.push(text.slice(from, at), after);
				from = at + before.length;
			}
		}
		const at = nonceAt[place] as number;
		pieces.push(text.slice(from, at), String(first));
		// NDJSON holds `null` where CSV holds nothing.
		from = text.startsWith('null', at) ? at + 4 : at;
	}
	pieces.push(text.slice(from));
	return pieces.join('');
}

/** Numbers in order, the first EXAMPLES of them. */
const firstOf = (numbers: number[]) => numbers.sort((a, b) => a - b).slice(0, EXAMPLES);

/**
 * A part's summary with the reuses of pairs the coordinator found counted in, and the matches among
 * them (`refused`) moved to the refused group.
 */
export function withReuses(
	summary: TriageSummary,
	numbers: number[],
	refused: number[]
): TriageSummary {
	const examples = { ...summary.examples };
	examples.nonce = firstOf([...(examples.nonce ?? []), ...numbers]);
	if (refused.length === 0)
		return { ...summary, noncesReused: summary.noncesReused + numbers.length, examples };
	const moved = new Set(refused);
	examples.match = (examples.match ?? []).filter((number) => !moved.has(number));
	examples.refused = firstOf([...(examples.refused ?? []), ...refused]);
	examples['refused:nonce-reused'] = firstOf([
		...(examples['refused:nonce-reused'] ?? []),
		...refused
	]);
	const refusals = summary.refusals.map((entry) => ({ ...entry }));
	const nonce = refusals.find(({ id }) => id === 'nonce-reused');
	if (nonce) nonce.count += refused.length;
	else refusals.push({ id: 'nonce-reused', count: refused.length });
	refusals.sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));
	return {
		...summary,
		noncesReused: summary.noncesReused + numbers.length,
		groups: {
			...summary.groups,
			match: summary.groups.match - refused.length,
			refused: summary.groups.refused + refused.length
		},
		refusals,
		examples
	};
}
