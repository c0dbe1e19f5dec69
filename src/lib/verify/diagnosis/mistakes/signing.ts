// Mistakes in how the base string is written and signed: its line ends, the ts, the nonce, the key,
// the hash and the digest's encoding, in the order a signer comes to them.
import { text, type Text } from '$lib/i18n/text';
import { fromBase64, isBase64 } from '$lib/mac';
import { safeDecode } from '../query-rewrites';
import type { CatalogueEntry } from './entry';

/** ±1 second, keeping the header's width so that a padded ts stays padded. */
function shiftTs(ts: string, by: number): string | null {
	if (!/^\d{1,15}$/.test(ts)) return null;
	const shifted = Number(ts) + by;
	return shifted < 0 ? null : String(shifted).padStart(ts.length, '0');
}

const show = (value: string) => JSON.stringify(value);

export const SIGNING_MISTAKES = [
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
	},
	{
		id: 'ts-padded',
		prior: 0.03,
		slot: 'ts',
		fix: text('diagnosis_fix_ts_padding'),
		variants: (inputs) => {
			const padded = inputs.ts.padStart(10, '0');
			return padded === inputs.ts || !/^\d+$/.test(inputs.ts)
				? []
				: [
						{
							inputs: { ...inputs, ts: padded },
							title: text('diagnosis_title_ts_padded', { ts: padded, sent: inputs.ts })
						}
					];
		}
	},
	{
		id: 'ts-unpadded',
		prior: 0.03,
		slot: 'ts',
		fix: text('diagnosis_fix_ts_padding'),
		variants: (inputs) => {
			const unpadded = inputs.ts.replace(/^0+(?=\d)/, '');
			return unpadded === inputs.ts
				? []
				: [
						{
							inputs: { ...inputs, ts: unpadded },
							title: text('diagnosis_title_ts_unpadded', { ts: unpadded, sent: inputs.ts })
						}
					];
		}
	},
	{
		id: 'ts-milliseconds',
		prior: 0.03,
		slot: 'ts',
		fix: text('diagnosis_fix_ts_milliseconds'),
		variants: (inputs) => {
			if (!/^\d{1,15}$/.test(inputs.ts)) return [];
			// A 12-digit count of seconds is the year 5138: more digits than that are milliseconds.
			if (inputs.ts.length >= 12) {
				const seconds = String(Math.floor(Number(inputs.ts) / 1000));
				return [
					{
						inputs: { ...inputs, ts: seconds },
						title: text('diagnosis_title_ts_seconds', { ts: seconds, sent: inputs.ts }),
						fix: text('diagnosis_fix_ts_seconds')
					}
				];
			}
			const milliseconds = String(Number(inputs.ts) * 1000);
			return [
				{
					inputs: { ...inputs, ts: milliseconds },
					title: text('diagnosis_title_ts_milliseconds', { ts: milliseconds, sent: inputs.ts })
				}
			];
		}
	},
	{
		id: 'ts-other',
		prior: 0.04,
		slot: 'ts',
		fix: text('diagnosis_fix_ts_other'),
		variants: (inputs) =>
			[1, -1].flatMap((by) => {
				const ts = shiftTs(inputs.ts, by);
				return ts === null
					? []
					: [
							{
								inputs: { ...inputs, ts },
								title: text(by > 0 ? 'diagnosis_title_ts_later' : 'diagnosis_title_ts_earlier', {
									ts,
									sent: inputs.ts
								})
							}
						];
			})
	},
	{
		id: 'nonce-whitespace',
		prior: 0.02,
		slot: 'nonce',
		fix: text('diagnosis_fix_nonce_whitespace'),
		variants: (inputs) => {
			const trimmed = inputs.nonce.trim();
			if (trimmed !== inputs.nonce && trimmed !== '')
				return [
					{
						inputs: { ...inputs, nonce: trimmed },
						title: text('diagnosis_title_nonce_trimmed', {
							nonce: show(trimmed),
							sent: show(inputs.nonce)
						})
					}
				];
			const added: [string, Text][] = [
				[`${inputs.nonce}\n`, text('diagnosis_how_trailing_lf')],
				[`${inputs.nonce} `, text('diagnosis_how_trailing_space')],
				[` ${inputs.nonce}`, text('diagnosis_how_leading_space')]
			];
			return added.map(([nonce, how]) => ({
				inputs: { ...inputs, nonce },
				title: text('diagnosis_title_nonce_with', { how, nonce: show(nonce) })
			}));
		}
	},
	{
		id: 'nonce-url-encoded',
		prior: 0.03,
		slot: 'nonce',
		fix: text('diagnosis_fix_nonce_url_encoded'),
		variants: (inputs) => {
			const options: [string | null, Text][] = [
				[encodeURIComponent(inputs.nonce), text('diagnosis_how_url_encoded')],
				[safeDecode(inputs.nonce), text('diagnosis_how_url_decoded')],
				[inputs.nonce.replace(/\+/g, ' '), text('diagnosis_how_form_decoded')]
			];
			const seen = new Set([inputs.nonce]);
			return options.flatMap(([nonce, how]) => {
				if (nonce === null || seen.has(nonce)) return [];
				seen.add(nonce);
				return [
					{
						inputs: { ...inputs, nonce },
						title: text('diagnosis_title_nonce_coded', {
							how,
							nonce: show(nonce),
							sent: show(inputs.nonce)
						})
					}
				];
			});
		}
	},
	{
		id: 'key-whitespace',
		prior: 0.05,
		slot: 'key',
		fix: text('diagnosis_fix_key_whitespace'),
		variants: (inputs) => {
			if (typeof inputs.key !== 'string') return [];
			const trimmed = inputs.key.trim();
			if (trimmed !== inputs.key && trimmed !== '')
				return [
					{
						inputs: { ...inputs, key: trimmed, keyForm: text('diagnosis_key_trimmed') },
						title: text('diagnosis_title_key_trimmed'),
						fix: text('diagnosis_fix_key_pasted_untrimmed')
					}
				];
			const added: [string, Text][] = [
				[`${inputs.key}\n`, text('diagnosis_how_trailing_lf')],
				[`${inputs.key}\r\n`, text('diagnosis_how_trailing_crlf')],
				[`${inputs.key} `, text('diagnosis_how_trailing_space')],
				[` ${inputs.key}`, text('diagnosis_how_leading_space')]
			];
			return added.map(([key, how]) => ({
				inputs: { ...inputs, key, keyForm: text('diagnosis_key_with', { how }) },
				title: text('diagnosis_title_key_with', { how })
			}));
		}
	},
	{
		id: 'key-base64-decoded',
		prior: 0.04,
		slot: 'key',
		fix: text('diagnosis_fix_key_base64_decoded'),
		variants: (inputs) =>
			typeof inputs.key === 'string' && inputs.key !== '' && isBase64(inputs.key)
				? [
						{
							inputs: {
								...inputs,
								key: fromBase64(inputs.key),
								keyForm: text('diagnosis_key_base64_decoded')
							},
							title: text('diagnosis_title_key_base64_decoded')
						}
					]
				: []
	},
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
	},
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
