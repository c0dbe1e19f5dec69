// The keys a triage verifies with: `kid mac_key` a line, or one mac_key for every kid. They stay in
// memory: no problem reported here quotes a key, only its line number.
import { CredentialError, MacInputError, parseCredential } from '$lib/mac';
import { maskKid } from '$lib/diagnosis/mask-kid';

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
	/**
	 * The mac_key for a kid, exactly as given (signed as its UTF-8 bytes, as /verify signs). A kid
	 * masked as a recording of the sandbox server masks it (`demo...1c`) finds the key of the one
	 * kid given that masks so: the base string does not hold the kid, so its key is all a check needs.
	 */
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
 * The kid and mac_key of each account of a sandbox server's accounts file (`--accounts FILE`, a JSON
 * array), so that a recording triages against the file it was made with; null for any other text.
 */
function accountPairs(text: string): [string, string][] | null {
	if (!text.trimStart().startsWith('[')) return null;
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return null;
	}
	if (!Array.isArray(parsed)) return null;
	const pairs: [string, string][] = [];
	for (const account of parsed as unknown[]) {
		const { kid, mac_key: macKey } = (account ?? {}) as Record<string, unknown>;
		if (typeof kid !== 'string' || typeof macKey !== 'string') return null;
		pairs.push([kid, macKey]);
	}
	return pairs;
}

/**
 * Reads the keys text: `kid mac_key` lines, SDK login results a line, or a sandbox accounts file. Blank lines and lines starting with `#` are ignored. A text whose only line
 * holds one word is a mac_key for every kid.
 */
export function parseKeys(text: string): ParsedKeys {
	const accounts = accountPairs(String(text));
	const pairs = new Map<string, string>(accounts ?? []);
	const problems: KeyProblem[] = [];
	const lone: number[] = [];
	let single: string | undefined;
	const lines = accounts === null ? String(text).split(/\r\n|\n|\r/) : [];
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
	// Masked kid -> its key; null where two kids given mask alike (then neither is guessed).
	let masked: Map<string, string | null> | null = null;
	const byMask = (kid: string): string | undefined => {
		if (masked === null) {
			masked = new Map();
			for (const [given, value] of pairs) {
				const mask = maskKid(given);
				masked.set(mask, masked.has(mask) ? null : value);
			}
		}
		return masked.get(kid) ?? undefined;
	};
	return {
		problems,
		keyring: {
			keyFor: (kid) => key ?? pairs.get(kid) ?? (kid.includes('...') ? byMask(kid) : undefined),
			kids: pairs.size,
			everyKid
		}
	};
}
