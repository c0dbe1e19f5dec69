// The keys a triage verifies with: `kid mac_key` a line, or one mac_key for every kid. They stay in
// memory: no problem reported here quotes a key, only its line number.
import { CredentialError, MacInputError, parseCredential } from '$lib/mac';

export type KeyProblemCode =
	/** A line with more than two words: neither `kid mac_key` nor a lone mac_key. */
	| 'fields'
	/** The same kid again with another mac_key (the first is kept). */
	| 'conflict'
	/** One word on a line among `kid mac_key` lines: a key for every kid is allowed only alone. */
	| 'lone-key'
	/** A JSON line that is not an SDK login result with kid and mac_key. */
	| 'credential';

export interface KeyProblem {
	line: number;
	code: KeyProblemCode;
}

export interface Keyring {
	/** The mac_key for a kid, exactly as given (signed as its UTF-8 bytes, as /verify signs). */
	keyFor(kid: string): string | undefined;
	/** How many kids have their own key. */
	readonly kids: number;
	/** True when one mac_key serves every kid. */
	readonly everyKid: boolean;
}

export interface ParsedKeys {
	keyring: Keyring;
	problems: KeyProblem[];
}

/** A line `{…}` is an SDK login result (as the playground takes one): its kid and mac_key. */
function credentialPair(text: string): [string, string] | null {
	try {
		const credential = parseCredential(text);
		return [credential.kid, credential.mac_key];
	} catch (error) {
		if (!(error instanceof MacInputError)) throw error;
		const partial = error instanceof CredentialError ? error.partial : {};
		return partial.kid && partial.mac_key ? [partial.kid, partial.mac_key] : null;
	}
}

/**
 * Reads the keys text. Blank lines and lines starting with `#` are ignored. A text whose only line
 * holds one word is a mac_key for every kid.
 */
export function parseKeys(text: string): ParsedKeys {
	const pairs = new Map<string, string>();
	const problems: KeyProblem[] = [];
	const lone: number[] = [];
	let single: string | undefined;
	const lines = String(text).split(/\r\n|\n|\r/);
	lines.forEach((raw, index) => {
		const line = index + 1;
		const trimmed = raw.trim();
		if (trimmed === '' || trimmed.startsWith('#')) return;
		let words: string[];
		if (trimmed.startsWith('{')) {
			const pair = credentialPair(trimmed);
			if (pair === null) {
				problems.push({ line, code: 'credential' });
				return;
			}
			words = pair;
		} else words = trimmed.split(/\s+/);
		if (words.length > 2) {
			problems.push({ line, code: 'fields' });
			return;
		}
		const [kid = '', key] = words;
		if (key === undefined) {
			lone.push(line);
			single = kid;
			return;
		}
		const known = pairs.get(kid);
		if (known === undefined) pairs.set(kid, key);
		else if (known !== key) problems.push({ line, code: 'conflict' });
	});
	const everyKid = pairs.size === 0 && lone.length === 1 && single !== undefined;
	if (!everyKid) for (const line of lone) problems.push({ line, code: 'lone-key' });
	problems.sort((a, b) => a.line - b.line);
	const key = everyKid ? single : undefined;
	return {
		problems,
		keyring: {
			keyFor: (kid) => key ?? pairs.get(kid),
			kids: pairs.size,
			everyKid
		}
	};
}
