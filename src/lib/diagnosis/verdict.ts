// The verdict: what the diagnosis concludes, the mistakes that reproduce the customer's mac, and the
// message the page and the case file show.
import type { Text } from '$lib/i18n/text';
import type { MistakeId } from './mistakes/catalogue';
import type { DigestEncoding, HashName } from './signing-inputs';

export interface MistakeSummary {
	id: MistakeId;
	title: Text;
	fix: Text;
}

/** One way of signing wrongly, a mistake or a pair, that gives exactly the customer's mac. */
export interface Reproduction {
	/** The mistake's id, or two ids joined by "+" for a pair. */
	id: string;
	mistakes: MistakeSummary[];
	title: Text;
	fix: Text;
	/** The prior likelihood, or the product of both for a pair; only for ordering. */
	likelihood: number;
	/** The base string this wrong signer produced. */
	baseString: string;
	hash: HashName;
	encoding: DigestEncoding;
	/** The key it used, in words (never the key itself). */
	keyForm: Text;
}

/**
 * 'stopped': the mac does not match, and the search for the mistakes behind it ran out of its
 * budget (a huge URL) before any variant reproduced it: too long to diagnose, not unexplained.
 */
export type Verdict = 'match' | 'explained' | 'unexplained' | 'stopped';

/**
 * The mistake id that the triage (its CSV and summary) and the sandbox's diagnosis header give a
 * mismatch whose diagnosis stopped, where 'unexplained' stands for one that nothing reproduces.
 */
export const DIAGNOSIS_STOPPED = 'diagnosis-stopped';

export interface Diagnosis {
	verdict: Verdict;
	match: boolean;
	/** The mac computed the correct way (spec §5). */
	expectedMac: string;
	expectedBaseString: string;
	customerMac: string;
	/**
	 * Whether the expected base string signs the header's ext as line 7: true for a header with ext
	 * unless its mac signs the spec's empty line 7 (then that is the expected one, and a match is
	 * one). A right signature with ext signed is refused (service-answer.ts).
	 */
	signedExt: boolean;
	/** The mistakes, alone or in pairs, that reproduce the customer's mac; most likely first. */
	explanations: Reproduction[];
	/**
	 * True when nothing reproduces the mac: the mac_key, a mistake the catalogue lacks, or inputs
	 * this page cannot see differ. False when the search stopped: it did not try everything.
	 */
	keyOrUnseenInputs: boolean;
	/** One paragraph for the page: the verdict in plain words. */
	message: Text;
	/** Distinct ways of signing computed, the correct one included. */
	variantsTried: number;
	/** The work the search for mistakes did, in DIAGNOSIS_BUDGET's units; 0 for a match. */
	work: number;
}
