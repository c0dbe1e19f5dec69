import type { Text } from '$lib/i18n/text';
import type { WrittenTarget } from '$lib/mac';
import type { SigningInputs } from '../signing-inputs';

/** What a mistake changes. Two mistakes in one slot change the same thing, so they never pair. */
export type Slot =
	| 'host'
	| 'host-port'
	| 'port'
	| 'path'
	| 'query'
	| 'uri-form'
	| 'method'
	| 'ending'
	| 'line-end'
	| 'ts'
	| 'nonce'
	| 'key'
	| 'hash'
	| 'encoding';

/**
 * The fields of the inputs a mistake of each slot reads or changes. Its variants depend on these
 * (and the context) alone: on inputs that hold the same values in them, it makes the same changes
 * with the same titles, which lets the diagnosis apply a mistake's changes to the first half of a
 * pair without asking it again (diagnosis-budget.test.ts checks each against the catalogue). They
 * are also what a mistake reads for the diagnosis's budget: a rewrite of the request URI reads all
 * of it, another key or encoding none of the base string.
 */
export const SLOT_FIELDS: Record<Slot, readonly (keyof SigningInputs)[]> = {
	host: ['host'],
	'host-port': ['host', 'port'],
	port: ['port'],
	path: ['uri'],
	query: ['uri'],
	'uri-form': ['uri', 'host', 'port'],
	method: ['method'],
	ending: ['ending', 'ext'],
	'line-end': ['lineEnd'],
	ts: ['ts'],
	nonce: ['nonce'],
	key: ['key', 'keyForm'],
	hash: ['hash'],
	encoding: ['encoding']
};

/** The request as it really was, for titles and for the values a mistake puts in its place. */
export interface MistakeContext {
	scheme: 'https' | 'http';
	/** The port as the URL writes it, '' when it shows none. */
	explicitPort: string;
	/** Hosts of the known deployments, lower case. */
	knownHosts: readonly string[];
	/** The host and URI as the URL's text writes them, when the URL is known as text. */
	written?: WrittenTarget;
	/**
	 * What the URL's text writes between the host and the path, ":443" or "" (when the URL is known
	 * as text): a signer that cuts the URL after the host name keeps it in the request URI.
	 */
	writtenPort?: string;
	/** The header's kid, which the access_token repeats (spec §2.3): a key some signers use instead. */
	kid?: string;
}

export interface Candidate {
	inputs: SigningInputs;
	title: Text;
	/** Overrides the entry's fix when this candidate needs another one. */
	fix?: Text;
}

/** One entry of the catalogue: a way of signing wrongly, and the wrong inputs it makes. */
export interface CatalogueEntry {
	id: string;
	/** How often support sees it, roughly; only orders the mistakes that all reproduce the mac. */
	prior: number;
	slot: Slot;
	fix: Text;
	/** The wrong inputs this mistake makes out of `inputs`; none when it would change nothing. */
	variants(inputs: SigningInputs, context: MistakeContext): Candidate[];
}
