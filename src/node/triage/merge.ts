// `npm run triage -- --merge PART.json...`: the `--json` summaries of the parts of one log, each
// triaged on its own (split by lines, in parallel), added up into the summary of the whole log. The
// counts add up; what does not is carried by each part: its kid and nonce pairs, so that a nonce a
// later part uses again counts as used again, as it would in one run over the whole log.
import { REFUSALS } from '$lib/diagnosis/service-answer';
import { Buffer } from 'node:buffer';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { NonceLedger, Tally } from '$lib/triage/tally';
import { withReuses } from '$lib/triage/pool/merge';
import type { TriageSummary } from '$lib/triage/types';

/**
 * A part's kid and nonce pairs, as the ledger keeps them (two hashes, never the text), in base64:
 * for each pair in the order of first use, the number of the request that used it first (a varint
 * of the difference from the previous pair's), then the first hash (4 bytes) and the second (3),
 * little-endian. About 12 characters a pair: it grows with the requests, as the ledger does.
 */
export interface NonceFingerprints {
	pairs: number;
	fingerprints: string;
}

/** What `--json` prints: the summary, where its verdicts went, and its pairs for --merge. */
export interface PartSummary extends TriageSummary {
	verdicts: string | null;
	nonceLedger: NonceFingerprints;
}

export function encodeLedger(ledger: NonceLedger): NonceFingerprints {
	const { high, low, first, matched } = ledger.entries();
	const bytes = Buffer.alloc(high.length * 15);
	let at = 0;
	let previous = 0;
	for (let index = 0; index < high.length; index++) {
		let delta = (first[index] as number) - previous;
		previous = first[index] as number;
		while (delta >= 0x80) {
			bytes[at++] = (delta % 0x80) | 0x80;
			delta = Math.floor(delta / 0x80);
		}
		bytes[at++] = delta;
		at = bytes.writeInt32LE(high[index] as number, at);
		at = bytes.writeUIntLE((low[index] as number) | (matched[index] === 1 ? MATCHED : 0), at, 3);
	}
	return { pairs: high.length, fingerprints: bytes.subarray(0, at).toString('base64') };
}

/**
 * The flag of a pair's second hash (3 bytes, of which the hash takes 21 bits) saying its first use
 * was a match: a later part using the pair makes that use refused (see NonceLedger.markMatch).
 */
const MATCHED = 0x800000;

/** The pairs, each given to `see` in the order of first use; false when the text is not a ledger. */
function eachPair(
	{ pairs, fingerprints }: NonceFingerprints,
	see: (high: number, low: number, first: number, matched: boolean) => void
): boolean {
	const bytes = Buffer.from(fingerprints, 'base64');
	let at = 0;
	let first = 0;
	for (let pair = 0; pair < pairs; pair++) {
		let delta = 0;
		let scale = 1;
		for (;;) {
			const byte = bytes[at++];
			if (byte === undefined || scale > 2 ** 49) return false;
			delta += (byte & 0x7f) * scale;
			scale *= 0x80;
			if (byte < 0x80) break;
		}
		if (at + 7 > bytes.length) return false;
		const field = bytes.readUIntLE(at + 4, 3);
		const low = field & ~MATCHED;
		if (low === 0 || low > 0x100000) return false;
		first += delta;
		see(bytes.readInt32LE(at), low, first, (field & MATCHED) !== 0);
		at += 7;
	}
	return at === bytes.length;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
	typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const counted = (value: unknown, key: string) =>
	Array.isArray(value) &&
	value.every((item) => isObject(item) && typeof item[key] === 'string' && isCount(item.count));

/** Why `value` is not a part's summary as `--json` prints it, or null when it is one. */
function problem(value: unknown): string | null {
	if (!isObject(value)) return 'not a JSON object';
	const ledger = value.nonceLedger;
	if (!isObject(ledger) || !isCount(ledger.pairs) || typeof ledger.fingerprints !== 'string')
		return 'no nonceLedger: made by triage --json before it could be merged?';
	const groups = value.groups;
	if (
		!isObject(groups) ||
		!['match', 'refused', 'mismatch', 'no-key', 'unreadable'].every((kind) => isCount(groups[kind]))
	)
		return 'no groups: made by triage --json before refused requests were counted apart?';
	const clock = value.clock;
	if (
		!isObject(clock) ||
		!isCount(clock.outsideWindow) ||
		!isCount(clock.withLoggedTime) ||
		!isCount(clock.windowSeconds)
	)
		return 'no clock';
	for (const key of [
		'requests',
		'skipped',
		'unexplained',
		'noncesReused',
		'otherKids',
		'bytesRead'
	])
		if (!isCount(value[key])) return `no ${key}`;
	if (!counted(value.mistakes, 'id') || !counted(value.clients, 'id'))
		return 'no mistakes or clients';
	if (!counted(value.unreadable, 'code')) return 'no unreadable';
	if (
		!counted(value.refusals, 'id') ||
		!(value.refusals as { id: string }[]).every(({ id }) => (REFUSALS as string[]).includes(id))
	)
		return 'no refusals';
	const kids = value.kids;
	if (
		!Array.isArray(kids) ||
		!kids.every(
			(kid) =>
				isObject(kid) &&
				typeof kid.kid === 'string' &&
				isCount(kid.requests) &&
				isCount(kid.mismatches) &&
				isCount(kid.noKey)
		)
	)
		return 'no kids';
	const examples = value.examples;
	if (
		!isObject(examples) ||
		!Object.values(examples).every((list) => Array.isArray(list) && list.every(isCount))
	)
		return 'no examples';
	if (
		value.format !== null &&
		value.format !== 'har' &&
		value.format !== 'ndjson' &&
		value.format !== 'log-lines'
	)
		return 'no format';
	return null;
}

export interface Part {
	/** The file it came from, for messages. */
	name: string;
	text: string;
}

/**
 * The parts, in the order of the log they were cut from, as one summary and its ledger; or a
 * sentence saying which part cannot be merged and why. The request numbers of a part count on
 * from the lines (or HAR entries) of the parts before it: each part read `requests + skipped` of
 * them. Exact, nonces included, while all the kids together fit in the summary's 10,000.
 */
export function mergeParts(parts: readonly Part[]): { summary: PartSummary } | string {
	const summaries: PartSummary[] = [];
	for (const { name, text } of parts) {
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return `${name} is not JSON (give the files triage --json printed).`;
		}
		const wrong = problem(value);
		if (wrong !== null) return `${name} is not a triage --json summary: ${wrong}.`;
		summaries.push(value as PartSummary);
	}
	const read = summaries.filter((summary) => summary.format !== null);
	const format = read[0]?.format ?? null;
	const other = read.find((summary) => summary.format !== format);
	if (other !== undefined)
		return `${parts[summaries.indexOf(other)]?.name} was read as ${other.format}, an earlier part as ${format}: parts of one log are read alike.`;
	const windowSeconds = summaries[0]?.clock.windowSeconds ?? TS_WINDOW_SECONDS;
	const window = summaries.findIndex((summary) => summary.clock.windowSeconds !== windowSeconds);
	if (window !== -1)
		return `${parts[window]?.name} was triaged with --window ${summaries[window]?.clock.windowSeconds}, ${parts[0]?.name} with ${windowSeconds}: give every part the same.`;

	const tally = new Tally(windowSeconds);
	const ledger = new NonceLedger();
	let offset = 0;
	for (const [index, summary] of summaries.entries()) {
		const on = (number: number) => (number === 0 ? 0 : number + offset);
		// A pair an earlier part used makes this part's first use of it a nonce used again.
		const again: number[] = [];
		// Of those, the ones whose request was a match in its part: now refused (service-answer.ts).
		const refused: number[] = [];
		const valid = eachPair(summary.nonceLedger, (high, low, first, matched) => {
			if (ledger.seeHashes(high, low, on(first), matched) === null) return;
			again.push(on(first));
			if (matched) refused.push(on(first));
		});
		if (!valid) return `${parts[index]?.name} has a nonceLedger that cannot be read.`;
		const examples = Object.fromEntries(
			Object.entries(summary.examples).map(([group, numbers]) => [group, numbers.map(on)])
		);
		tally.absorb(withReuses({ ...summary, examples }, again, refused));
		offset += summary.requests + summary.skipped;
	}
	const summary = tally.summary({
		format,
		// The whole is empty when every part is (an empty part of a split log says so itself).
		empty: summaries.every((part) => part.empty === true),
		bytesRead: summaries.reduce((sum, part) => sum + part.bytesRead, 0),
		elapsedMs: summaries.reduce((sum, part) => sum + (Number(part.elapsedMs) || 0), 0),
		cancelled: summaries.some((part) => part.cancelled === true)
	});
	return { summary: { ...summary, verdicts: null, nonceLedger: encodeLedger(ledger) } };
}
