// The mistake catalogue: every way of signing wrongly that the diagnosis tries, alone and in pairs.
import type { CatalogueEntry } from './entry';
import { ALGORITHM_MISTAKES } from './algorithm';
import { DIGEST_ENCODING_MISTAKES, LAYOUT_MISTAKES } from './encoding';
import { HOST_MISTAKES } from './host';
import { KEY_MISTAKES } from './key';
import { REQUEST_URI_MISTAKES } from './request-uri';
import { TIME_MISTAKES } from './time';

export type { Candidate, MistakeContext, Slot } from './entry';

/**
 * The catalogue, in the order a signer builds the request, which is the order two mistakes are
 * applied in: the query is rewritten before the whole URL is signed, the host before its port. Each
 * file holds the mistakes in what they change: the host and port, the request URI, the base
 * string's layout, the time (ts and nonce), the key, the algorithm and the digest's encoding.
 */
const CATALOGUE = [
	...HOST_MISTAKES,
	...REQUEST_URI_MISTAKES,
	...LAYOUT_MISTAKES,
	...TIME_MISTAKES,
	...KEY_MISTAKES,
	...ALGORITHM_MISTAKES,
	...DIGEST_ENCODING_MISTAKES
] as const;

/** A catalogued mistake's id, as case files and the page name it. */
export type MistakeId = (typeof CATALOGUE)[number]['id'];

export interface Mistake extends CatalogueEntry {
	id: MistakeId;
}

export const MISTAKES: readonly Mistake[] = CATALOGUE;

/** The catalogue entry by id, for a page that shows one entry on its own. */
export function mistakeById(id: MistakeId): Mistake | undefined {
	return MISTAKES.find((mistake) => mistake.id === id);
}
