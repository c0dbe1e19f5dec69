// Mistakes in the algorithm: an HMAC over another hash than SHA-1.
import { text } from '$lib/i18n/text';
import type { CatalogueEntry } from './entry';

export const ALGORITHM_MISTAKES = [
	{
		id: 'hmac-sha256',
		prior: 0.05,
		slot: 'hash',
		fix: text('diagnosis_fix_hmac_sha256'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, hash: 'SHA-256' },
				title: text('diagnosis_title_hmac_sha256')
			}
		]
	}
] as const satisfies readonly CatalogueEntry[];
