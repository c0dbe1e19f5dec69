// The search for the catalogued mistakes that reproduce a mac: each variant made when its turn
// comes, in the order of likelihood, and the whole search held to a budget counted in work, so that
// one request with a huge URL costs a bounded time and memory and always the same outcome.
import type { Digest } from '$lib/mac';
import { MISTAKES, type Candidate, type Mistake, type MistakeContext } from './mistakes/catalogue';
import { SLOT_FIELDS } from './mistakes/entry';
import {
	keyIdentity,
	macBytes,
	renderBaseString,
	DIGEST_ENCODINGS,
	type DigestEncoding,
	type HashName,
	type SigningInputs
} from './signing-inputs';
import {
	ENCODING,
	FIELD_BITS,
	HASH,
	LINE_BITS,
	charsOf,
	sameShape,
	withChanges,
	changes,
	sameLines,
	workOf,
	changedWork,
	type Changes
} from './input-fields';
import { TextTable, Utf8Scratch } from './text-table';

/**
 * An HMAC as the core's hmac() computes it: the key (text as UTF-8, or bytes as they are), the
 * text as UTF-8, SHA-1 or SHA-256. It must throw (or reject) where hmac() does, on an empty key. A
 * triage of many mismatches passes a synchronous one that keeps each key's state.
 */
export type DigestSigner = ((
	key: string | Uint8Array,
	text: string,
	hash: HashName
) => Digest | Promise<Digest>) & {
	/**
	 * The same, synchronously, for a text given as the `length` bytes of its UTF-8 at the start of
	 * `bytes` (with room after them that it may overwrite): the search has written them already.
	 */
	utf8?: (key: string | Uint8Array, bytes: Uint8Array, length: number, hash: HashName) => Digest;
};

/**
 * The work one diagnosis may do, counted in units of roughly equal time: a variant costs HASH_COST
 * for each character of its base string and key (rendered, looked up, written as UTF-8 and hashed;
 * a signer may key each HMAC anew), a call of a mistake READ_COST for each character of the lines
 * it reads (SLOT_FIELDS: a rewrite of the query decodes and re-encodes the request URI several
 * times over), each plus a fixed cost for the objects made. Counted in work, not in time, so that
 * the outcome does not depend on how busy the machine is. The client zoo's requests and the bench's
 * normal ones need 1.3 million at most, a request with a 1 kB URL about 10 million (npm run bench
 * prints them); past 64 million, a few hundred milliseconds into a request with a 1 MB URL, nonce or
 * key, the search stops.
 */
export const DIAGNOSIS_BUDGET = 64_000_000;
const HASH_COST = 8;
const READ_COST = 32;
const CALL_COST = 64;
const VARIANT_COST = 128;

/** A mistake with what it reads or changes (SLOT_FIELDS) as bits, and those of its lines. */
interface Entry {
	mistake: Mistake;
	/** Its place in the catalogue. */
	index: number;
	lines: number;
	bits: number;
}

const ENTRIES: readonly Entry[] = MISTAKES.map((mistake, index) => {
	const bits = SLOT_FIELDS[mistake.slot].reduce((bits, field) => bits | FIELD_BITS[field], 0);
	return { mistake, index, lines: bits & LINE_BITS, bits };
});

/** The work of a call of a mistake on `inputs`: the characters of the lines it reads. */
function callWork({ lines }: Entry, inputs: SigningInputs): number {
	return CALL_COST + READ_COST * charsOf(lines, inputs);
}

export interface Part {
	mistake: Mistake;
	candidate: Candidate;
}

export interface Variant {
	inputs: SigningInputs;
	parts: Part[];
}

/** A variant that gives exactly the customer's mac, with the base string it signed. */
export interface Found {
	variant: Variant;
	baseString: string;
}

export function likelihood(parts: readonly Part[]): number {
	return parts.reduce((product, part) => product * part.mistake.prior, 1);
}

/**
 * The mistakes alone in the order they are tried: the likeliest first, the catalogue's order among
 * equals, so that when two mistakes sign the same thing the likelier one is named.
 */
const SINGLES_ORDER: readonly number[] = MISTAKES.map((_, index) => index).sort(
	(a, b) => (MISTAKES[b]?.prior ?? 0) - (MISTAKES[a]?.prior ?? 0)
);

/**
 * The pairs in the order they are tried: a first mistake and the later mistakes of other slots
 * applied to each of its variants, by the likelihood of the pair (the product of the priors), then
 * by the first mistake's place in the catalogue, then each of its variants, then the second's
 * place. Pairs of the same likelihood and first mistake make one run, taken variant by variant.
 */
const PAIR_RUNS: readonly { first: number; seconds: Entry[] }[] = (() => {
	const pairs: { first: number; second: number; likelihood: number }[] = [];
	MISTAKES.forEach((first, a) =>
		MISTAKES.forEach((second, b) => {
			if (b > a && second.slot !== first.slot)
				pairs.push({ first: a, second: b, likelihood: 1 * first.prior * second.prior });
		})
	);
	pairs.sort((x, y) => y.likelihood - x.likelihood || x.first - y.first || x.second - y.second);
	const runs: { first: number; seconds: Entry[]; likelihood: number }[] = [];
	for (const { first, second, likelihood } of pairs) {
		const last = runs.at(-1);
		const entry = ENTRIES[second] as Entry;
		if (last && last.first === first && last.likelihood === likelihood) last.seconds.push(entry);
		else runs.push({ first, seconds: [entry], likelihood });
	}
	return runs;
})();

/** Each encoding's bit in TriedText.encodings, and its place among the mac's targets. */
function encodingIndex(encoding: DigestEncoding): number {
	return DIGEST_ENCODINGS.indexOf(encoding);
}

/** The base strings tried under one key, by hash. */
interface Lanes {
	sha1?: TextTable<TriedText>;
	sha256?: TextTable<TriedText>;
}

const newEntry = (): TriedText => ({ encodings: 0 });

interface TriedText {
	/** The encodings of this digest compared so far, one bit each. */
	encodings: number;
	digest?: Digest | Promise<Digest>;
}

/** Inputs with what is known of them once tried: their base string and its entry in Tried. */
export interface Made {
	inputs: SigningInputs;
	text?: string;
	entry?: TriedText;
}

/**
 * The variants computed so far, by key and hash, then by base string: one HMAC per distinct base
 * string, key and hash (the encodings are renderings of it), and each encoding of it compared once.
 * A text key is looked up as it is, key bytes by what they hold.
 */
export class Tried {
	/** By key (text as it is, bytes by what they hold), then by hash: the base strings tried. */
	readonly #byTextKey = new Map<string, Lanes>();
	readonly #byBytesKey = new Map<string, Lanes>();
	/** The same lanes by the key as given: key bytes by identity, found again without their id. */
	readonly #byKey = new Map<string | Uint8Array, Lanes>();
	/** The distinct variants claimed: the expected one first. */
	count = 0;
	/** The UTF-8 of the base string looked up last, and the entry it belongs to. */
	readonly #utf8 = Utf8Scratch.take();
	#written: TriedText | undefined;
	constructor(readonly sign: DigestSigner) {}

	/** The base strings tried under `key`. */
	#lanes(key: string | Uint8Array): Lanes {
		let lanes = this.#byKey.get(key);
		if (lanes === undefined) {
			const byKey = typeof key === 'string' ? this.#byTextKey : this.#byBytesKey;
			const id = typeof key === 'string' ? key : keyIdentity(key);
			lanes = byKey.get(id);
			if (lanes === undefined) {
				lanes = {};
				byKey.set(id, lanes);
			}
			this.#byKey.set(key, lanes);
		}
		return lanes;
	}

	/** Ends this search's use of its scratch: nothing may be looked up or signed after. */
	finish(): void {
		this.#utf8.giveBack();
	}

	/** The entry of this base string signed with the inputs' key and hash. */
	entry({ key, hash }: SigningInputs, text: string): TriedText {
		const lanes = this.#lanes(key);
		const texts =
			hash === 'SHA-1' ? (lanes.sha1 ??= new TextTable()) : (lanes.sha256 ??= new TextTable());
		const entry = texts.find(text, this.#utf8.write(text), newEntry);
		this.#written = entry;
		return entry;
	}

	/**
	 * Marks the entry's digest in this encoding as tried: false when a variant signing the same mac
	 * (key, hash, base string and encoding) was tried before.
	 */
	claim(entry: TriedText, encoding: DigestEncoding): boolean {
		const bit = 1 << encodingIndex(encoding);
		if ((entry.encodings & bit) !== 0) return false;
		entry.encodings |= bit;
		this.count += 1;
		return true;
	}

	/** The digest of a claimed entry's text with the inputs' key and hash, signed once. */
	digest(inputs: SigningInputs, text: string, entry: TriedText): Digest | Promise<Digest> {
		if (entry.digest !== undefined) return entry.digest;
		const { utf8 } = this.sign;
		// The entry looked up last has its UTF-8 at hand: signed from it, not encoded again.
		if (utf8 !== undefined && this.#written === entry) {
			const { bytes, length } = this.#utf8;
			return (entry.digest = utf8(inputs.key, bytes, length, inputs.hash));
		}
		return (entry.digest = this.sign(inputs.key, text, inputs.hash));
	}
}

/**
 * Tries variants against the customer's mac until the budget is spent: those that reproduce it, in
 * the order tried (a synchronous signer's digests are compared at once; a promise's when settled).
 */
class Trial {
	spent = 0;
	/** Whether the budget ran out: the variants after that point were not tried. */
	stopped = false;
	/** Whether the search ends here, with `first`, at a reproduction found. */
	#done = false;
	readonly #found: (Found | null)[] = [];
	readonly #pending: Promise<void>[] = [];
	/**
	 * The digest bytes the mac is in each hash and encoding (null: none), decoded when first asked:
	 * SHA-1's encodings (encodingIndex), then SHA-256's.
	 */
	readonly #target: (Uint8Array | null | undefined)[] = Array.from(
		{ length: 2 * DIGEST_ENCODINGS.length },
		() => undefined
	);

	constructor(
		readonly customerMac: string,
		readonly tried: Tried,
		readonly budget: number,
		/** Whether the first reproduction found ends the search (a synchronous signer's). */
		readonly first = false
	) {}

	/**
	 * Counts `work` against the budget: false, and stopped, once it is spent; false too once the
	 * search is done.
	 */
	spend(work: number): boolean {
		if (this.stopped || this.#done) return false;
		this.spent += work;
		if (this.spent > this.budget) this.stopped = true;
		return !this.stopped;
	}

	/** The bytes a digest of this hash must have to be the mac in this encoding; null when none can. */
	target(hash: HashName, encoding: DigestEncoding): Uint8Array | null {
		const index = (hash === 'SHA-1' ? 0 : DIGEST_ENCODINGS.length) + encodingIndex(encoding);
		let bytes = this.#target[index];
		if (bytes === undefined) {
			bytes = macBytes(this.customerMac, hash, encoding);
			this.#target[index] = bytes;
		}
		return bytes;
	}

	/** Whether `inputs` with `changed` applied sign in a hash and encoding that can give the mac. */
	canProduce(inputs: SigningInputs, { bits, inputs: values }: Changes): boolean {
		return (
			this.target(
				bits & HASH ? values.hash : inputs.hash,
				bits & ENCODING ? values.encoding : inputs.encoding
			) !== null
		);
	}

	/**
	 * The variants `mistake` makes out of what `from` signs, each tried after `first` (a pair);
	 * false once the budget is spent.
	 */
	pairs(
		first: Part,
		from: Made,
		second: Entry,
		context: MistakeContext,
		replay: readonly Single[] | null
	): boolean {
		const { mistake } = second;
		if (!this.spend(callWork(second, from.inputs))) return false;
		if (replay !== null) {
			for (const { part, changed } of replay) {
				// A hash and encoding that cannot give the mac: counted as tried, with no inputs made.
				if (!this.canProduce(from.inputs, changed)) {
					if (!this.spend(VARIANT_COST + HASH_COST * changedWork(from.inputs, changed)))
						return false;
					continue;
				}
				const inputs = withChanges(from.inputs, changed);
				if (!this.try(inputs, from, mistake, part.candidate, first)) return false;
			}
			return true;
		}
		for (const candidate of mistake.variants(from.inputs, context))
			if (!this.try(sameShape(candidate.inputs), from, mistake, candidate, first)) return false;
		return true;
	}

	/**
	 * Signs `inputs`, the candidate `mistake` made out of `from` (after `first` in a pair), unless
	 * a variant signing the same mac was; false once the budget is spent. Its base string is rendered
	 * only when it can produce the mac, and is `from`'s when it changes no line (another key, hash
	 * or encoding): the same text, looked up once. `made`, when given, keeps the text and entry for
	 * the pairs made from it.
	 */
	try(
		inputs: SigningInputs,
		from: Made,
		mistake: Mistake,
		candidate: Candidate,
		first?: Part,
		made?: Made
	): boolean {
		if (!this.spend(VARIANT_COST + HASH_COST * workOf(inputs))) return false;
		const target = this.target(inputs.hash, inputs.encoding);
		if (target === null) return true;
		let text: string;
		let entry: TriedText | undefined;
		if (sameLines(inputs, from.inputs)) {
			text = from.text ??= renderBaseString(from.inputs);
			if (inputs.key === from.inputs.key && inputs.hash === from.inputs.hash) entry = from.entry;
		} else text = renderBaseString(inputs);
		entry ??= this.tried.entry(inputs, text);
		if (made) {
			made.text = text;
			made.entry = entry;
		}
		if (!this.tried.claim(entry, inputs.encoding)) return true;
		const index = this.#found.push(null) - 1;
		const digest = this.tried.digest(inputs, text, entry);
		// A promise's digest is compared when it settles, in a closure; a digest at hand at once.
		if (digest instanceof Promise)
			this.#pending.push(
				digest.then((settled) => {
					if (sameBytes(settled.bytes, target))
						this.#found[index] = found(inputs, text, mistake, candidate, first);
				})
			);
		else if (sameBytes(digest.bytes, target)) {
			this.#found[index] = found(inputs, text, mistake, candidate, first);
			// Tried in the order a whole search names them, nothing before it pending: the first.
			if (this.first && this.#pending.length === 0) this.#done = true;
		}
		return true;
	}

	/** The variants that reproduce the mac so far, in the order tried. */
	async found(): Promise<Found[]> {
		await Promise.all(this.#pending);
		return this.#found.filter((found) => found !== null);
	}
}

function found(
	inputs: SigningInputs,
	baseString: string,
	mistake: Mistake,
	candidate: Candidate,
	first: Part | undefined
): Found {
	const part = { mistake, candidate };
	return { variant: { inputs, parts: first === undefined ? [part] : [first, part] }, baseString };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}

export interface SearchResult {
	found: Found[];
	/** The work done, against the budget. */
	work: number;
	/** The budget ran out before every variant was tried. */
	stopped: boolean;
}

/** A mistake alone: its candidate, what it signs, and what it changed of the correct inputs. */
interface Single {
	part: Part;
	made: Made;
	changed: Changes;
}

/**
 * Every mistake alone, then (when none reproduces the mac) every pair of mistakes of different
 * slots, the later one applied to the earlier one's result; only variants whose hash and encoding
 * can produce a mac shaped like the customer's are signed. Stops where the budget runs out, with
 * what was found until then: the likeliest of those is the one a whole search would name first.
 * `correct` is what the request signs, tried already. With `first`, a synchronous signer's first
 * reproduction ends the search: it is the one the whole search would name first (the singles and
 * the pairs are tried from the likeliest), and a caller that needs only its id saves the rest.
 */
export async function searchMistakes(
	correct: Made,
	context: MistakeContext,
	customerMac: string,
	tried: Tried,
	budget = DIAGNOSIS_BUDGET,
	{ first = false }: { first?: boolean } = {}
): Promise<SearchResult> {
	const trial = new Trial(customerMac, tried, budget, first);
	// What the request signs, in the shape of every variant made from it.
	correct = { ...correct, inputs: sameShape(correct.inputs) };
	// Each mistake's variants alone, by its place in the catalogue: the first halves of the pairs,
	// and the changes each mistake makes where the inputs hold what it reads unchanged.
	// Made by push, not by map(): V8 gives the array map() makes another kind once it compiles the
	// map into this function, and the loads below, which had seen only the other, were compiled
	// again (every thread of the triage, once).
	const singles: Single[][] = [];
	for (let index = 0; index < MISTAKES.length; index++) singles.push([]);
	singles: for (const index of SINGLES_ORDER) {
		const entry = ENTRIES[index] as Entry;
		const { mistake } = entry;
		if (!trial.spend(callWork(entry, correct.inputs))) break;
		const own = singles[index] as Single[];
		for (const candidate of mistake.variants(correct.inputs, context)) {
			const inputs = sameShape(candidate.inputs);
			const single: Single = {
				part: { mistake, candidate },
				made: { inputs, text: undefined, entry: undefined },
				changed: changes(inputs, correct.inputs)
			};
			if (!trial.try(inputs, correct, mistake, candidate, undefined, single.made)) break singles;
			own.push(single);
		}
	}
	const found = await trial.found();
	if (found.length > 0 || trial.stopped)
		return { found, work: trial.spent, stopped: trial.stopped };

	pairs: for (const run of PAIR_RUNS) {
		for (const first of singles[run.first] as Single[]) {
			for (const second of run.seconds) {
				// Where the first mistake left what the second reads as it was, the second makes the
				// changes it made alone (SLOT_FIELDS): applied here rather than asked for again.
				const replay =
					(first.changed.bits & second.bits) === 0 ? (singles[second.index] as Single[]) : null;
				if (!trial.pairs(first.part, first.made, second, context, replay)) break pairs;
			}
		}
	}
	return { found: await trial.found(), work: trial.spent, stopped: trial.stopped };
}
