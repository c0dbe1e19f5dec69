// Mistakes in how the base string is written and signed: its line ends, the ts, the nonce, the key,
// the hash and the digest's encoding, in the order a signer comes to them.
import { fromBase64, isBase64 } from '$lib/mac';
import { safeDecode } from '../query-rewrites';
import type { CatalogueEntry } from './entry';

/** ±1 second, keeping the header's width so that a padded ts stays padded. */
function shiftTs(ts: string, by: number): string | null {
	if (!/^\d{1,15}$/.test(ts)) return null;
	const shifted = Number(ts) + by;
	return shifted < 0 ? null : String(shifted).padStart(ts.length, '0');
}

const show = (text: string) => JSON.stringify(text);

export const SIGNING_MISTAKES = [
	{
		id: 'ext-line-dropped',
		prior: 0.1,
		slot: 'ending',
		fix: 'End every one of the seven lines with LF, the empty ext line too, so the base string ends with two LFs.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'joined' },
				title:
					inputs.ext === ''
						? 'Joined the lines with LF instead of ending each with LF: the final empty ext line is lost, so the base string ends with one LF after the port instead of two'
						: 'Joined the lines with LF instead of ending each with LF: the base string lacks its final LF after ext'
			}
		]
	},
	{
		id: 'extra-lf',
		prior: 0.03,
		slot: 'ending',
		fix: "End the base string right after the ext line's LF.",
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'extra-lf' },
				title:
					'Added an extra line feed at the end of the base string (one more than the seven lines)'
			}
		]
	},
	{
		id: 'crlf',
		prior: 0.03,
		slot: 'line-end',
		fix: 'End the lines with LF (\\n) alone, also on Windows.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, lineEnd: '\r\n' },
				title: 'Ended the lines with CRLF (\\r\\n) instead of LF'
			}
		]
	},
	{
		id: 'ts-padded',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the ts exactly as the header writes it, padding included.',
		variants: (inputs) => {
			const padded = inputs.ts.padStart(10, '0');
			return padded === inputs.ts || !/^\d+$/.test(inputs.ts)
				? []
				: [
						{
							inputs: { ...inputs, ts: padded },
							title: `Signed the ts padded to 10 digits (${padded}) while the header has ${inputs.ts}`
						}
					];
		}
	},
	{
		id: 'ts-unpadded',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the ts exactly as the header writes it, padding included.',
		variants: (inputs) => {
			const unpadded = inputs.ts.replace(/^0+(?=\d)/, '');
			return unpadded === inputs.ts
				? []
				: [
						{
							inputs: { ...inputs, ts: unpadded },
							title: `Signed the ts without the zero padding the header has (${unpadded} instead of ${inputs.ts})`
						}
					];
		}
	},
	{
		id: 'ts-milliseconds',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the same ts as the header, in whole seconds.',
		variants: (inputs) => {
			if (!/^\d{1,15}$/.test(inputs.ts)) return [];
			// A 12-digit count of seconds is the year 5138: more digits than that are milliseconds.
			if (inputs.ts.length >= 12) {
				const seconds = String(Math.floor(Number(inputs.ts) / 1000));
				return [
					{
						inputs: { ...inputs, ts: seconds },
						title: `Signed the ts in seconds (${seconds}) while the header has milliseconds (${inputs.ts})`,
						fix: 'Put the same ts in the header and the base string: whole seconds, not milliseconds.'
					}
				];
			}
			const milliseconds = String(Number(inputs.ts) * 1000);
			return [
				{
					inputs: { ...inputs, ts: milliseconds },
					title: `Signed the ts in milliseconds (${milliseconds}) while the header has seconds (${inputs.ts})`
				}
			];
		}
	},
	{
		id: 'ts-other',
		prior: 0.04,
		slot: 'ts',
		fix: 'Read the clock once and use that one ts string in the header and the base string.',
		variants: (inputs) =>
			[1, -1].flatMap((by) => {
				const ts = shiftTs(inputs.ts, by);
				return ts === null
					? []
					: [
							{
								inputs: { ...inputs, ts },
								title: `Signed a ts one second ${by > 0 ? 'later' : 'earlier'} than the header's (${ts} instead of ${inputs.ts}): the clock was read twice`
							}
						];
			})
	},
	{
		id: 'nonce-whitespace',
		prior: 0.02,
		slot: 'nonce',
		fix: 'Sign the nonce exactly as the header carries it, without adding or removing white space.',
		variants: (inputs) => {
			const trimmed = inputs.nonce.trim();
			if (trimmed !== inputs.nonce && trimmed !== '')
				return [
					{
						inputs: { ...inputs, nonce: trimmed },
						title: `Signed the nonce trimmed (${show(trimmed)}) while the header has ${show(inputs.nonce)}`
					}
				];
			return [
				[`${inputs.nonce}\n`, 'a trailing line feed'],
				[`${inputs.nonce} `, 'a trailing space'],
				[` ${inputs.nonce}`, 'a leading space']
			].map(([nonce = '', how]) => ({
				inputs: { ...inputs, nonce },
				title: `Signed the nonce with ${how} (${show(nonce)})`
			}));
		}
	},
	{
		id: 'nonce-url-encoded',
		prior: 0.03,
		slot: 'nonce',
		fix: 'Sign the nonce exactly as the header carries it, neither URL-encoded nor decoded.',
		variants: (inputs) => {
			const options: [string | null, string][] = [
				[encodeURIComponent(inputs.nonce), 'URL-encoded'],
				[safeDecode(inputs.nonce), 'URL-decoded'],
				[inputs.nonce.replace(/\+/g, ' '), 'form-decoded (+ became a space)']
			];
			const seen = new Set([inputs.nonce]);
			return options.flatMap(([nonce, how]) => {
				if (nonce === null || seen.has(nonce)) return [];
				seen.add(nonce);
				return [
					{
						inputs: { ...inputs, nonce },
						title: `Signed the nonce ${how} (${show(nonce)}) while the header has ${show(inputs.nonce)}`
					}
				];
			});
		}
	},
	{
		id: 'key-whitespace',
		prior: 0.05,
		slot: 'key',
		fix: 'Trim the mac_key where it is loaded: a file or an environment variable often adds a line feed.',
		variants: (inputs) => {
			if (typeof inputs.key !== 'string') return [];
			const trimmed = inputs.key.trim();
			if (trimmed !== inputs.key && trimmed !== '')
				return [
					{
						inputs: { ...inputs, key: trimmed, keyForm: 'the mac_key trimmed' },
						title:
							'Signed with the mac_key trimmed: the mac_key pasted here has surrounding white space',
						fix: 'Remove the white space around the mac_key pasted here; the customer signs with the trimmed key.'
					}
				];
			return [
				[`${inputs.key}\n`, 'a trailing line feed'],
				[`${inputs.key}\r\n`, 'a trailing CRLF'],
				[`${inputs.key} `, 'a trailing space'],
				[` ${inputs.key}`, 'a leading space']
			].map(([key = '', how]) => ({
				inputs: { ...inputs, key, keyForm: `the mac_key with ${how}` },
				title: `Signed with the mac_key plus ${how}`
			}));
		}
	},
	{
		id: 'key-base64-decoded',
		prior: 0.04,
		slot: 'key',
		fix: 'Use the mac_key as text: its UTF-8 bytes are the HMAC key, not its Base64-decoded bytes.',
		variants: (inputs) =>
			typeof inputs.key === 'string' && inputs.key !== '' && isBase64(inputs.key)
				? [
						{
							inputs: {
								...inputs,
								key: fromBase64(inputs.key),
								keyForm: 'the mac_key Base64-decoded'
							},
							title: 'Base64-decoded the mac_key and signed with the raw bytes'
						}
					]
				: []
	},
	{
		id: 'hmac-sha256',
		prior: 0.05,
		slot: 'hash',
		fix: 'Sign with HMAC-SHA-1 (mac_algorithm hmac-sha-1), not HMAC-SHA-256.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, hash: 'SHA-256' },
				title: 'Signed with HMAC-SHA-256 instead of HMAC-SHA-1'
			}
		]
	},
	{
		id: 'digest-hex',
		prior: 0.05,
		slot: 'encoding',
		fix: 'Encode the digest bytes with standard Base64, not as hex.',
		variants: (inputs) => [
			{ inputs: { ...inputs, encoding: 'hex' }, title: 'Wrote the digest as hex instead of Base64' }
		]
	},
	{
		id: 'digest-base64url',
		prior: 0.04,
		slot: 'encoding',
		fix: 'Use standard Base64 for the mac: + and /, with = padding.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64url' },
				title: 'Wrote the digest as Base64url (- and _ instead of + and /)'
			},
			{
				inputs: { ...inputs, encoding: 'base64url-unpadded' },
				title: 'Wrote the digest as Base64url (- and _ instead of + and /) without = padding'
			}
		]
	},
	{
		id: 'digest-unpadded',
		prior: 0.02,
		slot: 'encoding',
		fix: 'Keep the = padding at the end of the Base64 mac.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64-unpadded' },
				title: 'Dropped the = padding from the Base64 digest'
			}
		]
	}
] as const satisfies readonly CatalogueEntry[];
