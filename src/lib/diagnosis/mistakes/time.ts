// Mistakes in the ts and nonce lines: padding, milliseconds, a second off, and a nonce changed on
// its way into the base string.
import { text, type Text } from '$lib/i18n/text';
import { safeDecode, safeEncode } from '../query-rewrites';
import type { CatalogueEntry } from './entry';

/** ±1 second, keeping the header's width so that a padded ts stays padded. */
function shiftTs(ts: string, by: number): string | null {
	if (!/^\d{1,15}$/.test(ts)) return null;
	const shifted = Number(ts) + by;
	return shifted < 0 ? null : String(shifted).padStart(ts.length, '0');
}

const show = (value: string) => JSON.stringify(value);

export const TIME_MISTAKES = [
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
				[safeEncode(inputs.nonce), text('diagnosis_how_url_encoded')],
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
	}
] as const satisfies readonly CatalogueEntry[];
