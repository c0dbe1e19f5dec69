// Mistakes in the key the base string is signed with: white space around the mac_key, the mac_key
// Base64-decoded, the kid in its place, and the mac_key's text encoded in a charset other than UTF-8.
import { text, type Text } from '$lib/i18n/text';
import { fromBase64, isBase64 } from '$lib/mac';
import {
	asciiPerCodeUnit,
	gbkBytes,
	hasLatin1Only,
	hasNonAscii,
	hasSurrogatePair,
	singleBytePerCharacter
} from '../key-charsets';
import type { CatalogueEntry } from './entry';

/**
 * A key's bytes as one mistake makes them, kept for the few keys a triage diagnoses again and again:
 * the same bytes object each time, so that the signer's keyed state and the identities built from
 * the bytes are found again instead of made anew. Past 64 keys it starts over.
 */
function keptBytes<T extends Uint8Array | null>(make: (key: string) => T): (key: string) => T {
	const kept = new Map<string, T>();
	return (key) => {
		let bytes = kept.get(key);
		if (bytes === undefined) {
			if (kept.size >= 64) kept.clear();
			bytes = make(key);
			kept.set(key, bytes);
		}
		return bytes;
	};
}

const base64Decoded = keptBytes(fromBase64);
const dotnetAscii = keptBytes(asciiPerCodeUnit);
const javaAscii = keptBytes((key) => singleBytePerCharacter(key, 0x7f));
const latin1 = keptBytes((key) => singleBytePerCharacter(key, 0xff));
const gbk = keptBytes(gbkBytes);

export const KEY_MISTAKES = [
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
								key: base64Decoded(inputs.key),
								keyForm: text('diagnosis_key_base64_decoded')
							},
							title: text('diagnosis_title_key_base64_decoded')
						}
					]
				: []
	},
	{
		id: 'key-is-kid',
		prior: 0.03,
		slot: 'key',
		fix: text('diagnosis_fix_key_is_kid'),
		variants: (inputs, { kid }) =>
			kid === undefined || kid === '' || kid === inputs.key || typeof inputs.key !== 'string'
				? []
				: [
						{
							inputs: { ...inputs, key: kid, keyForm: text('diagnosis_key_kid') },
							title: text('diagnosis_title_key_is_kid')
						}
					]
	},
	{
		id: 'key-ascii',
		prior: 0.03,
		slot: 'key',
		fix: text('diagnosis_fix_key_charset'),
		// Only a key with non-ASCII characters changes. .NET writes "?" for each UTF-16 code unit,
		// Java for each character: they differ only on a character beyond U+FFFF.
		variants: (inputs) => {
			if (typeof inputs.key !== 'string' || !hasNonAscii(inputs.key)) return [];
			const keyForm = text('diagnosis_key_ascii');
			const dotnet = { ...inputs, key: dotnetAscii(inputs.key), keyForm };
			if (!hasSurrogatePair(inputs.key))
				return [{ inputs: dotnet, title: text('diagnosis_title_key_ascii') }];
			return [
				{ inputs: dotnet, title: text('diagnosis_title_key_ascii_dotnet') },
				{
					inputs: { ...inputs, key: javaAscii(inputs.key), keyForm },
					title: text('diagnosis_title_key_ascii_java')
				}
			];
		}
	},
	{
		id: 'key-latin1',
		prior: 0.01,
		slot: 'key',
		fix: text('diagnosis_fix_key_charset'),
		// Only a key with a character of U+0080–U+00FF differs from its ASCII form.
		variants: (inputs) =>
			typeof inputs.key === 'string' && hasLatin1Only(inputs.key)
				? [
						{
							inputs: {
								...inputs,
								key: latin1(inputs.key),
								keyForm: text('diagnosis_key_latin1')
							},
							title: text('diagnosis_title_key_latin1')
						}
					]
				: []
	},
	{
		id: 'key-gbk',
		prior: 0.01,
		slot: 'key',
		fix: text('diagnosis_fix_key_charset'),
		variants: (inputs) => {
			if (typeof inputs.key !== 'string' || !hasNonAscii(inputs.key)) return [];
			const key = gbk(inputs.key);
			return key === null
				? []
				: [
						{
							inputs: { ...inputs, key, keyForm: text('diagnosis_key_gbk') },
							title: text('diagnosis_title_key_gbk')
						}
					];
		}
	}
] as const satisfies readonly CatalogueEntry[];
