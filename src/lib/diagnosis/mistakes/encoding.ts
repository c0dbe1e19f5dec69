// Mistakes in how the base string and the digest are written: the base string's line ends, and the
// digest's encoding (hex, .NET's dashed hex, Base64 of the hex text, Python's bytes repr, Base64url,
// Base64 without padding).
import { text } from '$lib/i18n/text';
import type { CatalogueEntry } from './entry';

export const LAYOUT_MISTAKES = [
	{
		id: 'ext-line-dropped',
		prior: 0.1,
		slot: 'ending',
		fix: text('diagnosis_fix_ext_line_dropped'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'joined' },
				title: text(
					inputs.ext === '' ? 'diagnosis_title_ext_line_lost' : 'diagnosis_title_ext_lf_lacking'
				)
			}
		]
	},
	{
		id: 'extra-lf',
		prior: 0.03,
		slot: 'ending',
		fix: text('diagnosis_fix_extra_lf'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'extra-lf' },
				title: text('diagnosis_title_extra_lf')
			}
		]
	},
	{
		id: 'trailing-lfs-stripped',
		prior: 0.02,
		slot: 'ending',
		fix: text('diagnosis_fix_trailing_lfs_stripped'),
		variants: (inputs) =>
			inputs.ext === ''
				? [
						{
							inputs: { ...inputs, ending: 'stripped' },
							title: text('diagnosis_title_trailing_lfs_stripped')
						}
					]
				: []
	},
	{
		id: 'crlf',
		prior: 0.03,
		slot: 'line-end',
		fix: text('diagnosis_fix_crlf'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, lineEnd: '\r\n' },
				title: text('diagnosis_title_crlf')
			}
		]
	}
] as const satisfies readonly CatalogueEntry[];

export const DIGEST_ENCODING_MISTAKES = [
	{
		id: 'digest-hex',
		prior: 0.05,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_hex'),
		variants: (inputs) => [
			{ inputs: { ...inputs, encoding: 'hex' }, title: text('diagnosis_title_digest_hex') }
		]
	},
	{
		id: 'digest-base64url',
		prior: 0.04,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_base64url'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64url' },
				title: text('diagnosis_title_digest_base64url')
			},
			{
				inputs: { ...inputs, encoding: 'base64url-unpadded' },
				title: text('diagnosis_title_digest_base64url_unpadded')
			}
		]
	},
	{
		id: 'digest-hex-dashed',
		prior: 0.01,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_hex_dashed'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'hex-dashed' },
				title: text('diagnosis_title_digest_hex_dashed')
			}
		]
	},
	{
		id: 'digest-base64-of-hex',
		prior: 0.02,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_base64_of_hex'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64-of-hex' },
				title: text('diagnosis_title_digest_base64_of_hex')
			}
		]
	},
	{
		id: 'digest-bytes-repr',
		prior: 0.01,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_bytes_repr'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'bytes-repr' },
				title: text('diagnosis_title_digest_bytes_repr')
			}
		]
	},
	{
		id: 'digest-unpadded',
		prior: 0.02,
		slot: 'encoding',
		fix: text('diagnosis_fix_digest_unpadded'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64-unpadded' },
				title: text('diagnosis_title_digest_unpadded')
			}
		]
	}
] as const satisfies readonly CatalogueEntry[];
