// How an Authorization header departs from the form the spec shows (§5.1: `MAC id="<kid>",ts="…",
// nonce="…",mac="…"`, parts separated by a comma with or without a following space). The core's
// parseAuthorization reads more than that (bare values, `mac` for `MAC`, blanks around `=`), as
// people paste it; whether the service reads those forms, the spec does not say, so every reader
// that verifies such a header says so as a finding ("header format") beside its verdict.
import { parseAuthorization, type MacHeaderParams } from '$lib/mac';

/**
 * - 'scheme': the scheme is not written `MAC` (e.g. `Mac`, `mac`);
 * - 'other-quotes': a value in single or typographic quotes, which the reader takes into the value;
 * - 'unquoted': a value with no quotes at all;
 * - 'name-case': a part's name not in lower case (`ID=`);
 * - 'spacing': blanks around `=`, two or more after a comma, or a line break between parts;
 * - 'repeated': a part written twice (read as meant only when both times it holds the same value);
 * - 'unknown-part': a part the spec does not name (§5.2 names id, ts, nonce and mac), passed over.
 */
export type HeaderFormatIssue =
	'scheme' | 'other-quotes' | 'unquoted' | 'name-case' | 'spacing' | 'repeated' | 'unknown-part';

/** The parts the reader knows: the spec's four, and ext (an ext part is judged as such elsewhere). */
const KNOWN_PARTS = new Set(['id', 'ts', 'nonce', 'mac', 'ext']);

export interface HeaderFormat {
	issues: HeaderFormatIssue[];
	/** The first place that departs from the spec's form, as written (at most 40 characters). */
	seen: string;
}

/** Quotes a value may be wrapped in instead of `"`: opening → closing. */
const OTHER_QUOTES: Record<string, string> = {
	"'": "'",
	'\u2018': '\u2019',
	'\u201c': '\u201d',
	'\u201d': '\u201d',
	'\u2019': '\u2019',
	'`': '`'
};

const NAME_CHAR = /[\w-]/;
const BLANK = /[ \t\r\n]/;

/**
 * The ways `header` (with or without `Authorization:`) departs from the spec's form; null when it
 * is written as the spec shows, or when it is not a MAC header at all (the core says what is wrong
 * with that). One pass over the text, no regular expression over more than one character.
 */
export function headerFormatOf(header: string): HeaderFormat | null {
	let text = header.trim();
	if (/^authorization\s*:/i.test(text.slice(0, 40)))
		text = text.slice(text.indexOf(':') + 1).trim();
	const issues = new Set<HeaderFormatIssue>();
	let seen = '';
	const note = (issue: HeaderFormatIssue, at: number) => {
		if (issues.size === 0) seen = text.slice(Math.max(0, at - 10), at + 30);
		issues.add(issue);
	};
	if (text.slice(0, 3).toUpperCase() !== 'MAC' || !BLANK.test(text.charAt(3))) return null;
	if (text.slice(0, 3) !== 'MAC') note('scheme', 0);
	// At most the five known names are kept: past them every name is unknown or repeated.
	const names = new Set<string>();
	let at = 3;
	if (text.charAt(at) !== ' ' || BLANK.test(text.charAt(at + 1))) note('spacing', at);
	while (at < text.length && BLANK.test(text.charAt(at))) at++;
	while (at < text.length) {
		const nameAt = at;
		while (at < text.length && NAME_CHAR.test(text.charAt(at))) at++;
		const name = text.slice(nameAt, at);
		if (name === '') return issues.size === 0 ? null : { issues: [...issues], seen };
		if (name !== name.toLowerCase()) note('name-case', nameAt);
		const lower = name.toLowerCase();
		if (!KNOWN_PARTS.has(lower)) note('unknown-part', nameAt);
		else if (names.has(lower)) note('repeated', nameAt);
		else names.add(lower);
		let blanks = false;
		while (at < text.length && BLANK.test(text.charAt(at))) {
			at++;
			blanks = true;
		}
		if (text.charAt(at) !== '=') break;
		at++;
		while (at < text.length && BLANK.test(text.charAt(at))) {
			at++;
			blanks = true;
		}
		if (blanks) note('spacing', nameAt);
		const open = text.charAt(at);
		if (open === '"') {
			at++;
			while (at < text.length && text.charAt(at) !== '"') at += text.charAt(at) === '\\' ? 2 : 1;
			at++;
		} else {
			const close = OTHER_QUOTES[open];
			note(close === undefined ? 'unquoted' : 'other-quotes', at);
			while (at < text.length && text.charAt(at) !== ',' && !BLANK.test(text.charAt(at))) at++;
		}
		// The separator: `,` or `, `, then the next part.
		let before = at;
		while (at < text.length && BLANK.test(text.charAt(at))) at++;
		if (at > before) note('spacing', before);
		if (at >= text.length) break;
		if (text.charAt(at) !== ',') break;
		at++;
		before = at;
		while (at < text.length && BLANK.test(text.charAt(at))) at++;
		if (at - before > 1 || (at > before && text.charAt(before) !== ' ')) note('spacing', before);
	}
	return issues.size === 0 ? null : { issues: [...issues], seen };
}

/** `value` without the single or typographic quotes around it, when it has a matching pair. */
function unwrapped(value: string): string {
	const close = OTHER_QUOTES[value.charAt(0)];
	if (close === undefined || value.length < 2 || !value.endsWith(close)) return value;
	return value.slice(1, -1);
}

/**
 * The header's values as the customer meant them: a value the reader took with its single or
 * typographic quotes (`id='abc'` reads as `'abc'`) without them, so that its kid finds its key and
 * its mac can be checked. Only after headerFormatOf has said so: never silently.
 */
export function recoveredParams(params: MacHeaderParams): MacHeaderParams {
	const recovered: MacHeaderParams = {
		id: unwrapped(params.id),
		ts: unwrapped(params.ts),
		nonce: unwrapped(params.nonce),
		mac: unwrapped(params.mac)
	};
	if (params.ext !== undefined) recovered.ext = unwrapped(params.ext);
	return recovered;
}

/**
 * Reads an Authorization header as the customer meant it: the core's reader, and where the header
 * departs from the spec's form (headerFormatOf says how), its values without quotes of another kind,
 * a part written twice with one value read once, an unknown part passed over. Throws the core's
 * MacInputError where the values cannot be recovered (a part missing, or twice with two values).
 */
export function readAsMeant(header: string): {
	params: MacHeaderParams;
	format: HeaderFormat | null;
} {
	const format = headerFormatOf(header);
	if (format === null) return { params: parseAuthorization(header), format };
	return { params: recoveredParams(parseAuthorization(header, { passOver: true })), format };
}
