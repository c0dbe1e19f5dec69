// The mistake catalogue: every way of signing wrongly that the diagnosis tries, alone and in pairs.
import type { CatalogueEntry } from './entry';
import { REQUEST_MISTAKES } from './request';
import { SIGNING_MISTAKES } from './signing';

export type { Candidate, MistakeContext, Slot } from './entry';

/**
 * The catalogue, in the order a signer builds the request, which is the order two mistakes are
 * applied in: the query is rewritten before the whole URL is signed, the host before its port.
 */
const CATALOGUE = [...REQUEST_MISTAKES, ...SIGNING_MISTAKES] as const;

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
