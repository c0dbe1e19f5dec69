// Stage 3 of triage: the groups. Counts only, kept as the verdicts stream past, so that memory
// grows with the number of kids and nonces, never with the verdicts themselves.
import type {
	HmacEngine,
	KidCount,
	TriageFormat,
	TriageSummary,
	UnreadableCode,
	VerdictKind,
	VerdictRecord
} from './types';
import { UNEXPLAINED } from './types';

/**
 * Two FNV-1a hashes, in one pass, of the UTF-16 units of `kid`, a line feed and `nonce` (the text
 * is never joined: a triage hashes a pair per request), as one 52-bit number.
 */
function pairHash52(kid: string, nonce: string): number {
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
	return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

/**
 * Which kid and nonce pairs were used, as the sandbox's server keys them (a nonce belongs to its
 * kid). Each pair is kept as a 52-bit hash, not as text: a log of millions of requests stays
 * within tens of megabytes, and two different pairs share a hash about once in 10^15 pairs.
 */
export class NonceLedger {
	#seen = new Map<number, number>();

	/** Records the pair; returns the number of the request that used it first, or null. */
	see(kid: string, nonce: string, number: number): number | null {
		const hash = pairHash52(kid, nonce);
		const first = this.#seen.get(hash);
		if (first !== undefined) return first;
		this.#seen.set(hash, number);
		return null;
	}
}

/** Kids counted one by one; past this many, the rest is one number. */
const MAX_KIDS = 10_000;
/** Request numbers kept per group, to quote in the summary. */
const EXAMPLES = 10;

export class Tally {
	#groups: Record<VerdictKind, number> = { match: 0, mismatch: 0, 'no-key': 0, unreadable: 0 };
	#mistakes = new Map<string, number>();
	#unreadable = new Map<UnreadableCode, number>();
	#kids = new Map<string, KidCount>();
	#otherKids = 0;
	#outsideWindow = 0;
	#withLoggedTime = 0;
	#noncesReused = 0;
	#skipped = 0;
	#examples: Record<string, number[]> = {};

	constructor(readonly windowSeconds: number) {}

	get requests(): number {
		const groups = this.#groups;
		return groups.match + groups.mismatch + groups['no-key'] + groups.unreadable;
	}

	skip(): void {
		this.#skipped += 1;
	}

	#example(group: string, number: number): void {
		const list = (this.#examples[group] ??= []);
		if (list.length < EXAMPLES) list.push(number);
	}

	add(record: VerdictRecord): void {
		this.#groups[record.verdict] += 1;
		this.#example(record.verdict, record.number);
		if (record.verdict === 'mismatch') {
			const mistake = record.mistake ?? UNEXPLAINED;
			this.#mistakes.set(mistake, (this.#mistakes.get(mistake) ?? 0) + 1);
			this.#example(mistake, record.number);
		}
		if (record.unreadable !== null) {
			const { code } = record.unreadable;
			this.#unreadable.set(code, (this.#unreadable.get(code) ?? 0) + 1);
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
		if (record.verdict === 'unreadable') return;
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
		if (record.verdict === 'mismatch') kid.mismatches += 1;
		if (record.verdict === 'no-key') kid.noKey += 1;
	}

	summary(run: {
		format: TriageFormat | null;
		bytesRead: number;
		hmac: HmacEngine;
		elapsedMs: number;
		cancelled: boolean;
	}): TriageSummary {
		const byCount = <T extends string>(counts: Map<T, number>) =>
			[...counts]
				.map(([key, count]) => ({ key, count }))
				.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
		return {
			...run,
			requests: this.requests,
			skipped: this.#skipped,
			groups: { ...this.#groups },
			mistakes: byCount(this.#mistakes)
				.filter(({ key }) => key !== UNEXPLAINED)
				.map(({ key, count }) => ({ id: key, count })),
			unexplained: this.#mistakes.get(UNEXPLAINED) ?? 0,
			clock: {
				outsideWindow: this.#outsideWindow,
				withLoggedTime: this.#withLoggedTime,
				windowSeconds: this.windowSeconds
			},
			noncesReused: this.#noncesReused,
			unreadable: byCount(this.#unreadable).map(({ key, count }) => ({ code: key, count })),
			kids: [...this.#kids.values()].sort(
				(a, b) => b.requests - a.requests || (a.kid < b.kid ? -1 : 1)
			),
			otherKids: this.#otherKids,
			examples: structuredClone(this.#examples)
		};
	}
}
