// Stage 3 of triage: the groups. Counts only, kept as the verdicts stream past, so that memory
// grows with the number of kids and nonces, never with the verdicts themselves.
import type {
	KidCount,
	TriageCounts,
	TriageFormat,
	TriageSummary,
	VerdictKind,
	VerdictRecord
} from './types';
import { UNEXPLAINED } from './types';
import type { Unreadable, UnreadableCode } from '$lib/read/types';
import { clientGroup, clientGroupId, clientGroupOf } from '$lib/diagnosis/likely-client';
import type { Refusal } from '$lib/diagnosis/service-answer';
import { keylessFindings, type KeylessId } from '$lib/diagnosis/without-key';
import { readAsMeant } from '$lib/read/header-format';
import { fastAuthorization } from './fast-parse';

/**
 * The bytes a request takes in a log, at least, as a rule: an NDJSON line or a log line with its
 * URL and MAC header is rarely shorter (the bench's lines are about 260 bytes). A log's size over
 * this is the pairs its nonce table is made for.
 */
export const LEDGER_BYTES_PER_PAIR = 256;
/** The largest table made ahead of its pairs: 2^22 slots, 64 MiB (a log of 4 million requests). */
const MAX_PRESIZED_SLOTS = 2 ** 22;

/**
 * Which kid and nonce pairs were used, as the sandbox's server keys them (a nonce belongs to its
 * kid). Each pair is kept as two FNV-1a hashes of the UTF-16 units of `kid`, a line feed and `nonce`
 * (52 bits: 32 of one, 20 of the other), not as text, in an open-addressed table of typed arrays: a
 * log of millions of requests stays within tens of megabytes, nothing is allocated per request, and
 * two different pairs share a hash about once in 10^15 pairs.
 */
export class NonceLedger {
	// Each slot is 16 bytes of one buffer, read as two views: the first hash (Int32 at 4 × slot), the
	// second hash's low 20 bits plus one (Int32 at 4 × slot + 1; 0 marks an empty slot) and the
	// number of the request that used the pair first (Float64 at 2 × slot + 1). A probe into a table
	// of millions of pairs then touches one cache line, not three arrays far apart.
	// Made here, not in the constructor alone: V8 then knows each field's type from the start, and a
	// probe reads it faster (a third faster, measured).
	#hashes = new Int32Array(1024 * 4);
	#first = new Float64Array(this.#hashes.buffer);
	#slots = 1024;
	#size = 0;

	/**
	 * `expected`: how many pairs the log likely holds (LEDGER_BYTES_PER_PAIR), so that the table is
	 * made at its size once: growing it from 1,024 slots to millions moved every pair again at each
	 * doubling, three quarters of the coordinator's nonce work on a log of a million requests. More
	 * pairs than expected grow it as before.
	 */
	constructor(expected = 0) {
		let slots = this.#slots;
		// At most half full (see seeHashes), and at most MAX_PRESIZED_SLOTS made ahead.
		while (slots < expected * 2 && slots < MAX_PRESIZED_SLOTS) slots *= 2;
		if (slots === this.#slots) return;
		this.#slots = slots;
		this.#hashes = new Int32Array(slots * 4);
		this.#first = new Float64Array(this.#hashes.buffer);
	}

	/** The slot of the pair see() recorded last when it was new; -1 when it was used before. */
	#lastNew = -1;

	/**
	 * Marks the pair see() recorded last, when it was new, as first used by a match: a part of a log
	 * triaged alone does not know an earlier part used it, and the merge that finds so makes that
	 * match refused (pool/merge.ts, `triage --merge`). Kept as the sign of the slot's number.
	 */
	markMatch(): void {
		if (this.#lastNew < 0) return;
		const at = this.#lastNew * 2 + 1;
		this.#first[at] = -Math.abs(this.#first[at] as number);
	}

	/** Records the pair; returns the number of the request that used it first, or null. */
	see(kid: string, nonce: string, number: number): number | null {
		let a = 0x811c9dc5;
		let b = 0x050c5d1f;
		for (let i = 0; i < kid.length; i++) {
			const unit = kid.charCodeAt(i);
			a = Math.imul(a ^ unit, 0x01000193);
			b = Math.imul(b ^ unit, 0x01000193);
		}
		a = Math.imul(a ^ 0x0a, 0x01000193);
		b = Math.imul(b ^ 0x0a, 0x01000193);
		for (let i = 0; i < nonce.length; i++) {
			const unit = nonce.charCodeAt(i);
			a = Math.imul(a ^ unit, 0x01000193);
			b = Math.imul(b ^ unit, 0x01000193);
		}
		return this.seeHashes(a, (b & 0xfffff) + 1, number);
	}

	/**
	 * Records a pair by its two hashes, as entries() gives them (the second's 20 bits plus one), for
	 * `triage --merge`; returns what see() returns.
	 */
	seeHashes(a: number, low: number, number: number, matched = false): number | null {
		const hashes = this.#hashes;
		const mask = this.#slots - 1;
		let slot = a & mask;
		for (;;) {
			const held = hashes[slot * 4 + 1] as number;
			if (held === 0) break;
			if (held === low && hashes[slot * 4] === a) {
				this.#lastNew = -1;
				return Math.abs(this.#first[slot * 2 + 1] as number);
			}
			slot = (slot + 1) & mask;
		}
		hashes[slot * 4] = a;
		hashes[slot * 4 + 1] = low;
		this.#first[slot * 2 + 1] = matched ? -number : number;
		this.#lastNew = slot;
		this.#size += 1;
		// At most half full: probes stay short.
		if (this.#size * 2 > this.#slots) this.#grow();
		return null;
	}

	/**
	 * Every pair recorded, as its two hashes, the number of its first request and whether that was
	 * a match (markMatch), in first-use order.
	 */
	entries(): { high: Int32Array; low: Int32Array; first: Float64Array; matched: Uint8Array } {
		const hashes = this.#hashes;
		const slots: number[] = [];
		for (let slot = 0; slot < this.#slots; slot++) if (hashes[slot * 4 + 1] !== 0) slots.push(slot);
		const first = this.#first;
		const number = (slot: number) => Math.abs(first[slot * 2 + 1] as number);
		slots.sort((a, b) => number(a) - number(b));
		return {
			high: Int32Array.from(slots, (slot) => hashes[slot * 4] as number),
			low: Int32Array.from(slots, (slot) => hashes[slot * 4 + 1] as number),
			first: Float64Array.from(slots, number),
			matched: Uint8Array.from(slots, (slot) => ((first[slot * 2 + 1] as number) < 0 ? 1 : 0))
		};
	}

	#grow(): void {
		const hashes = this.#hashes;
		const first = this.#first;
		const slots = this.#slots;
		// The new table in locals: a private field read again at each step of the loop cost as much
		// as the move itself.
		const grown = new Int32Array(slots * 2 * 4);
		const grownFirst = new Float64Array(grown.buffer);
		const mask = slots * 2 - 1;
		const lastNew = this.#lastNew;
		for (let old = 0; old < slots; old++) {
			const low = hashes[old * 4 + 1] as number;
			if (low === 0) continue;
			const high = hashes[old * 4] as number;
			let slot = high & mask;
			while (grown[slot * 4 + 1] !== 0) slot = (slot + 1) & mask;
			grown[slot * 4] = high;
			grown[slot * 4 + 1] = low;
			grownFirst[slot * 2 + 1] = first[old * 2 + 1] as number;
			// The pair recorded last moves too: markMatch finds it at its new slot.
			if (old === lastNew) this.#lastNew = slot;
		}
		this.#slots = slots * 2;
		this.#hashes = grown;
		this.#first = grownFirst;
	}
}

/** Counted keys, most first, ties by key. */
function byCount<T extends string>(counts: Map<T, number>): { key: T; count: number }[] {
	return [...counts]
		.map(([key, count]) => ({ key, count }))
		.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}

/** Kids counted one by one; past this many, the rest is one number. */
const MAX_KIDS = 10_000;
/** Request numbers kept per group, to quote in the summary. */
const EXAMPLES = 10;

export class Tally {
	#groups: Record<VerdictKind, number> = {
		match: 0,
		refused: 0,
		mismatch: 0,
		'no-key': 0,
		unreadable: 0
	};
	#mistakes = new Map<string, number>();
	#refusals = new Map<Refusal, number>();
	#unreadable = new Map<UnreadableCode, number>();
	#kids = new Map<string, KidCount>();
	/** Per kid, its mismatches by mistake: bounded by MAX_KIDS times the catalogue's ids. */
	#kidMistakes = new Map<string, Map<string, number>>();
	#otherKids = 0;
	#outsideWindow = 0;
	#withLoggedTime = 0;
	#noncesReused = 0;
	#headerFormat = 0;
	#keyless = new Map<KeylessId, number>();
	/** Readable requests per likely client's group (the clients it names: 8 bits). */
	#clients = new Float64Array(256);
	#skipped = 0;
	#examples: Record<string, number[]> = {};
	#stopped: Unreadable | null = null;

	constructor(readonly windowSeconds: number) {}

	get requests(): number {
		const groups = this.#groups;
		return groups.match + groups.refused + groups.mismatch + groups['no-key'] + groups.unreadable;
	}

	skip(): void {
		this.#skipped += 1;
	}

	#example(group: string, number: number): void {
		const list = (this.#examples[group] ??= []);
		if (list.length < EXAMPLES) list.push(number);
	}

	add(record: VerdictRecord): void {
		// A group's first few requests are its examples: past those, none is looked up.
		if ((this.#groups[record.verdict] += 1) <= EXAMPLES)
			this.#example(record.verdict, record.number);
		if (record.verdict === 'mismatch') {
			const mistake = record.mistake ?? UNEXPLAINED;
			this.#mistakes.set(mistake, (this.#mistakes.get(mistake) ?? 0) + 1);
			this.#example(mistake, record.number);
		}
		if (record.refusal !== null) {
			this.#refusals.set(record.refusal, (this.#refusals.get(record.refusal) ?? 0) + 1);
			this.#example(`refused:${record.refusal}`, record.number);
		}
		if (record.unreadable !== null) {
			const { code } = record.unreadable;
			this.#unreadable.set(code, (this.#unreadable.get(code) ?? 0) + 1);
			// The reader marks the item that ends its reading with where it stopped.
			if (record.unreadable.at !== undefined) this.#stopped = record.unreadable;
		}
		if (record.clock !== null) {
			this.#withLoggedTime += 1;
			if (record.clock.outsideWindow) {
				this.#outsideWindow += 1;
				this.#example('clock', record.number);
			}
		}
		if (record.nonceFirstUsedAt !== null) {
			this.#noncesReused += 1;
			this.#example('nonce', record.number);
		}
		if (record.headerFormat === true) {
			this.#headerFormat += 1;
			this.#example('header-format', record.number);
		}
		if (record.verdict === 'no-key') this.#addKeyless(record);
		if (record.verdict === 'unreadable') return;
		(this.#clients[clientGroup(record.client)] as number) += 1;
		let kid = this.#kids.get(record.kid);
		if (kid === undefined) {
			if (this.#kids.size >= MAX_KIDS) {
				this.#otherKids += 1;
				return;
			}
			kid = { kid: record.kid, requests: 0, mismatches: 0, noKey: 0 };
			this.#kids.set(record.kid, kid);
		}
		kid.requests += 1;
		if (record.verdict === 'mismatch') {
			kid.mismatches += 1;
			this.#addKidMistake(record.kid, record.mistake ?? UNEXPLAINED, 1);
		}
		if (record.verdict === 'no-key') kid.noKey += 1;
	}

	#addKidMistake(kid: string, mistake: string, count: number): void {
		let mistakes = this.#kidMistakes.get(kid);
		if (mistakes === undefined) this.#kidMistakes.set(kid, (mistakes = new Map()));
		mistakes.set(mistake, (mistakes.get(mistake) ?? 0) + count);
	}

	/** What a request of a kid with no key shows alone: its header read again (such requests only). */
	#addKeyless(record: VerdictRecord): void {
		let params: { ts: string; mac: string } | null = fastAuthorization(record.authorization);
		if (params === null) {
			try {
				params = readAsMeant(record.authorization).params;
			} catch {
				return;
			}
		}
		for (const id of keylessFindings(params.ts, params.mac)) {
			this.#keyless.set(id, (this.#keyless.get(id) ?? 0) + 1);
			this.#example(`keyless:${id}`, record.number);
		}
	}

	/** The counts so far: small (a few groups and reasons), cheap to make every batch. */
	counts(): TriageCounts {
		return {
			requests: this.requests,
			groups: { ...this.#groups },
			mistakes: byCount(this.#mistakes)
				.filter(({ key }) => key !== UNEXPLAINED)
				.map(({ key, count }) => ({ id: key, count })),
			unexplained: this.#mistakes.get(UNEXPLAINED) ?? 0,
			refusals: byCount(this.#refusals).map(({ key, count }) => ({ id: key, count })),
			clock: {
				outsideWindow: this.#outsideWindow,
				withLoggedTime: this.#withLoggedTime,
				windowSeconds: this.windowSeconds
			},
			noncesReused: this.#noncesReused,
			headerFormat: this.#headerFormat,
			keyless: byCount(this.#keyless).map(({ key, count }) => ({ id: key, count })),
			clients: this.#clientCounts(),
			unreadable: byCount(this.#unreadable).map(({ key, count }) => ({ code: key, count }))
		};
	}

	/**
	 * The likely clients counted, most first; ties in the order of CLIENT_IDS, a client before
	 * groups of several, 'unknown' last.
	 */
	#clientCounts(): { id: string; count: number }[] {
		const counts: { group: number; count: number }[] = [];
		this.#clients.forEach((count, group) => {
			if (count > 0) counts.push({ group, count });
		});
		// 0 (unknown) last; one client (a power of 2) before several; then by the lowest client.
		const rank = (group: number) =>
			group === 0 ? 1 << 20 : ((group & (group - 1)) === 0 ? 0 : 1 << 10) + (group & -group);
		return counts
			.sort((a, b) => b.count - a.count || rank(a.group) - rank(b.group))
			.map(({ group, count }) => ({ id: clientGroupId(group), count }));
	}

	summary(run: {
		format: TriageFormat | null;
		empty: boolean;
		bytesRead: number;
		elapsedMs: number;
		cancelled: boolean;
		workers?: number;
	}): TriageSummary {
		const counts = this.counts();
		return {
			...run,
			workers: run.workers ?? 0,
			stopped: this.#stopped,
			requests: counts.requests,
			skipped: this.#skipped,
			groups: counts.groups,
			mistakes: counts.mistakes,
			unexplained: counts.unexplained,
			refusals: counts.refusals,
			clock: counts.clock,
			noncesReused: counts.noncesReused,
			headerFormat: counts.headerFormat,
			keyless: counts.keyless,
			clients: counts.clients,
			unreadable: counts.unreadable,
			kids: [...this.#kids.values()]
				.map((kid) => {
					const mistakes = this.#kidMistakes.get(kid.kid);
					if (mistakes === undefined) return { ...kid };
					return {
						...kid,
						mistakes: [...mistakes]
							.map(([id, count]) => ({ id, count }))
							.sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1))
					};
				})
				.sort((a, b) => b.requests - a.requests || (a.kid < b.kid ? -1 : 1)),
			otherKids: this.#otherKids,
			examples: structuredClone(this.#examples)
		};
	}

	/**
	 * Adds the counts of a summary of the requests that come after these, its examples already
	 * numbered on from these (`triage --merge`, src/node/triage/merge.ts). Exact while the kids
	 * of all the summaries together fit in MAX_KIDS: past that, which kids a whole run would have
	 * listed depends on an order the summaries do not keep.
	 */
	absorb(part: TriageSummary): void {
		const add = <T>(counts: Map<T, number>, key: T, count: number) => {
			if (count > 0) counts.set(key, (counts.get(key) ?? 0) + count);
		};
		for (const kind of Object.keys(this.#groups) as VerdictKind[])
			this.#groups[kind] += part.groups[kind] ?? 0;
		for (const { id, count } of part.mistakes) add(this.#mistakes, id, count);
		add(this.#mistakes, UNEXPLAINED, part.unexplained);
		for (const { id, count } of part.refusals) add(this.#refusals, id, count);
		for (const { code, count } of part.unreadable) add(this.#unreadable, code, count);
		this.#outsideWindow += part.clock.outsideWindow;
		this.#withLoggedTime += part.clock.withLoggedTime;
		this.#noncesReused += part.noncesReused;
		this.#headerFormat += part.headerFormat ?? 0;
		for (const { id, count } of part.keyless ?? []) add(this.#keyless, id, count);
		this.#skipped += part.skipped;
		for (const { id, count } of part.clients) (this.#clients[clientGroupOf(id)] as number) += count;
		for (const { kid, requests, mismatches, noKey, mistakes } of part.kids) {
			const held = this.#kids.get(kid);
			if (held !== undefined) {
				held.requests += requests;
				held.mismatches += mismatches;
				held.noKey += noKey;
			} else if (this.#kids.size < MAX_KIDS)
				this.#kids.set(kid, { kid, requests, mismatches, noKey });
			else {
				this.#otherKids += requests;
				continue;
			}
			for (const { id, count } of mistakes ?? []) this.#addKidMistake(kid, id, count);
		}
		this.#otherKids += part.otherKids;
		// A part that stopped reading stopped the whole: nothing after it is counted.
		if (part.stopped !== null) this.#stopped = part.stopped;
		for (const [group, numbers] of Object.entries(part.examples))
			for (const number of numbers) this.#example(group, number);
	}
}
