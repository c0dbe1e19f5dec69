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

export type Verdict = 'match' | 'explained' | 'unexplained';

export interface Diagnosis {
	verdict: Verdict;
	match: boolean;
	/** The mac computed the correct way (spec §5). */
	expectedMac: string;
	expectedBaseString: string;
	customerMac: string;
	/** The mistakes, alone or in pairs, that reproduce the customer's mac; most likely first. */
	explanations: Reproduction[];
	/**
	 * True when nothing reproduces the mac: the mac_key, a mistake the catalogue lacks, or inputs
	 * this page cannot see differ.
	 */
	keyOrUnseenInputs: boolean;
	/** One paragraph for the page: the verdict in plain words. */
	message: Text;
	/** Distinct ways of signing computed, the correct one included. */
	variantsTried: number;
}
