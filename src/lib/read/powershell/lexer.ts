import { text as t, type Text } from '$lib/i18n/text';
import { fail } from '../parsed-request';

/** What a bracket skipped whole is called, by its opening characters. */
const OPENERS = {
	'$(': 'paste_ps_subexpression',
	'(': 'paste_ps_parenthesis',
	'{': 'paste_ps_script_block'
} as const;

// PowerShell reads the typographic quotes and dashes a chat or word processor puts in as the plain ones.
const DOUBLE_QUOTES = '"\u201c\u201d\u201e';
const SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b";
export const isDoubleQuote = (char: string) => char !== '' && DOUBLE_QUOTES.includes(char);
export const isSingleQuote = (char: string) => char !== '' && SINGLE_QUOTES.includes(char);
export const isNewline = (char: string) => char === '\n' || char === '\r';
export const isSpace = (char: string) =>
	char !== '' && /[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/.test(char);
// What ends a word of a command: a line break, a statement or pipeline separator, a closing bracket.
export const isCommandEnd = (char: string) =>
	char === '' || isNewline(char) || ';|&)}>'.includes(char);

// Backtick escapes in double-quoted strings; any other character after a backtick stands for itself.
const ESCAPES = new Map(
	Object.entries({
		'0': '\0',
		a: '\x07',
		b: '\b',
		e: '\x1b',
		f: '\f',
		n: '\n',
		r: '\r',
		t: '\t',
		v: '\v'
	})
);

const HERE_STRING = /@(["\u201c\u201d\u201e'\u2018\u2019\u201a\u201b])[ \t]*(?:\r\n|\n|\r)/y;
const UNICODE_ESCAPE = /`u\{([0-9a-fA-F]{1,6})\}/y;
// How devtools writes a character outside printable ASCII: $([char]8364).
const CHAR_CODE = /\$\(\[char\](\d{1,6})\)/iy;
// ${name} is bounded, so that a paste of many `${` without `}` is not read again from each one.
export const VARIABLE = /\$(?:\{[^}\r\n]{1,256}\}|[\p{L}\p{N}_]+(?::[\p{L}\p{N}_]+)?|[$^?])/uy;
// Strings inside subexpressions inside strings, hashtables inside hashtables: devtools nests none,
// and a bound keeps a hostile paste from exhausting the stack.
const MAX_NESTING = 64;

export interface StringArg {
	kind: 'string';
	value: string;
	/** The `$name`s and `$(…)`s PowerShell would have replaced by their values, as written. */
	expansions: string[];
}
export interface Entry {
	/** null when the key is an expression. */
	key: string | null;
	keyText: string;
	value: Arg;
}
export type Arg =
	| StringArg
	| { kind: 'hashtable'; entries: Entry[]; text: string }
	| { kind: 'variable'; name: string }
	| { kind: 'expression'; text: string };

/** The name a variable is stored under: PowerShell's names ignore case; `${x}` is `$x`. */
export function variableKey(written: string): string {
	return written.replace(/^\$\{?|\}$/g, '').toLowerCase();
}

/**
 * The characters of PowerShell source as far as a pasted request needs them: blanks, comments and
 * line continuations, strings of the four kinds with their escapes, and brackets skipped whole.
 */
export class PowerShellLexer {
	at = 0;
	private nesting = 0;

	constructor(readonly text: string) {}

	char(offset = 0): string {
		return this.text.charAt(this.at + offset);
	}

	protected sticky(pattern: RegExp): RegExpExecArray | null {
		pattern.lastIndex = this.at;
		return pattern.exec(this.text);
	}

	where(index: number): Text {
		let line = 1;
		let lineStart = 0;
		for (let i = 0; i < index; i += 1) {
			const char = this.text.charAt(i);
			if (char === '\n' || (char === '\r' && this.text.charAt(i + 1) !== '\n')) {
				line += 1;
				lineStart = i + 1;
			}
		}
		return t('paste_where', { line, column: index - lineStart + 1 });
	}

	protected unclosed(start: number, what: Text, advice: Text): never {
		const excerpt = this.text.slice(start, start + 24).replace(/\s+/g, ' ');
		fail(t('paste_unclosed', { what, where: this.where(start), excerpt, advice }));
	}

	/** A backtick at the end of a line continues the command on the next (blanks between tolerated). */
	protected continuation(): boolean {
		if (this.char() !== '`') return false;
		let index = this.at + 1;
		while (isSpace(this.text.charAt(index))) index += 1;
		const next = this.text.charAt(index);
		if (next === '') {
			this.at = index;
			return true;
		}
		if (!isNewline(next)) return false;
		this.at = index + (next === '\r' && this.text.charAt(index + 1) === '\n' ? 2 : 1);
		return true;
	}

	private comment(): boolean {
		if (this.char() === '<' && this.char(1) === '#') {
			const end = this.text.indexOf('#>', this.at + 2);
			if (end < 0) this.unclosed(this.at, t('paste_ps_block_comment'), t('paste_ps_ends_hash'));
			this.at = end + 2;
			return true;
		}
		if (this.char() !== '#') return false;
		while (this.at < this.text.length && !isNewline(this.char())) this.at += 1;
		return true;
	}

	/** Blanks, comments and line continuations: what may separate the words of one command. */
	skipInline(): void {
		while (this.at < this.text.length) {
			if (isSpace(this.char())) this.at += 1;
			else if (!this.continuation() && !this.comment()) return;
		}
	}

	/** Also line breaks and semicolons: what separates statements and hashtable entries. */
	skipAll(semicolons = true): void {
		for (;;) {
			this.skipInline();
			const char = this.char();
			if (isNewline(char) || (semicolons && char === ';')) this.at += 1;
			else return;
		}
	}

	// ---- Strings --------------------------------------------------------------------------------

	/** A string literal of any of PowerShell's four kinds starts here. */
	atString(): boolean {
		return (
			isDoubleQuote(this.char()) || isSingleQuote(this.char()) || this.sticky(HERE_STRING) !== null
		);
	}

	/** Runs a reader of something that may contain itself, within MAX_NESTING levels. */
	protected nested<T>(read: () => T): T {
		if (this.nesting >= MAX_NESTING) {
			fail(t('paste_ps_nesting', { max: MAX_NESTING, where: this.where(this.at) }));
		}
		this.nesting += 1;
		try {
			return read();
		} finally {
			this.nesting -= 1;
		}
	}

	readString(): StringArg {
		return this.nested(() => this.readStringHere());
	}

	private readStringHere(): StringArg {
		const here = this.sticky(HERE_STRING);
		if (here) {
			const start = this.at;
			this.at += here[0].length;
			return isDoubleQuote(here[1] ?? '')
				? this.readExpandable(start, true)
				: this.readVerbatim(start, true);
		}
		const start = this.at;
		this.at += 1;
		return isDoubleQuote(this.text.charAt(start))
			? this.readExpandable(start, false)
			: this.readVerbatim(start, false);
	}

	/** '…': '' is a quote, nothing else is special. */
	private readVerbatim(start: number, here: boolean): StringArg {
		let value = '';
		let lineStart = here;
		let lastBreak = 0;
		for (;;) {
			const char = this.char();
			if (char === '') {
				if (here) this.unclosed(start, t('paste_ps_here_single'), t('paste_ps_here_single_end'));
				this.unclosed(start, t('paste_ps_single_quoted'), t('paste_ps_single_quoted_end'));
			}
			if (here && lineStart && isSingleQuote(char) && this.char(1) === '@') {
				this.at += 2;
				return { kind: 'string', value: value.slice(0, lastBreak), expansions: [] };
			}
			if (!here && isSingleQuote(char)) {
				if (!isSingleQuote(this.char(1))) {
					this.at += 1;
					return { kind: 'string', value, expansions: [] };
				}
				value += this.char(1);
				this.at += 2;
				continue;
			}
			const lineBreak = this.lineBreak();
			if (lineBreak !== '') {
				lastBreak = value.length;
				value += lineBreak;
				lineStart = true;
				continue;
			}
			value += char;
			this.at += 1;
			lineStart = false;
		}
	}

	/** "…": backtick escapes, "" for a quote, $variables and $(subexpressions) left as written. */
	private readExpandable(start: number, here: boolean): StringArg {
		const result: StringArg = { kind: 'string', value: '', expansions: [] };
		let lineStart = here;
		let lastBreak = 0;
		for (;;) {
			const char = this.char();
			if (char === '') {
				if (here) this.unclosed(start, t('paste_ps_here_double'), t('paste_ps_here_double_end'));
				this.unclosed(
					start,
					t('paste_ps_double_quoted'),
					t('paste_ps_double_quoted_end', { escape: '`"' })
				);
			}
			if (here && lineStart && isDoubleQuote(char) && this.char(1) === '@') {
				this.at += 2;
				result.value = result.value.slice(0, lastBreak);
				return result;
			}
			lineStart = false;
			if (!here && isDoubleQuote(char)) {
				if (!isDoubleQuote(this.char(1))) {
					this.at += 1;
					return result;
				}
				result.value += this.char(1);
				this.at += 2;
			} else if (char === '`') {
				if (this.char(1) === '')
					this.unclosed(start, t('paste_ps_double_quoted'), t('paste_ps_ends_backtick'));
				result.value += this.escape();
			} else if (char === '$') {
				this.dollar(result);
			} else {
				const lineBreak = this.lineBreak();
				if (lineBreak !== '') {
					lastBreak = result.value.length;
					result.value += lineBreak;
					lineStart = here;
					continue;
				}
				result.value += char;
				this.at += 1;
			}
		}
	}

	/** A line break here (CRLF, LF or CR), passed; '' when there is none. */
	private lineBreak(): string {
		const length =
			this.char() === '\r' && this.char(1) === '\n' ? 2 : isNewline(this.char()) ? 1 : 0;
		this.at += length;
		return this.text.slice(this.at - length, this.at);
	}

	/** At a backtick: the character it stands for. */
	protected escape(): string {
		const unicode = this.sticky(UNICODE_ESCAPE);
		const code = unicode ? parseInt(unicode[1] ?? '', 16) : NaN;
		if (unicode && code <= 0x10ffff) {
			this.at += unicode[0].length;
			return String.fromCodePoint(code);
		}
		const next = this.char(1);
		this.at += 2;
		return ESCAPES.get(next) ?? next;
	}

	/**
	 * At a `$` in an expandable string or a bare word. Devtools' $([char]N) is read as the character;
	 * any other variable or subexpression cannot be known here, so it is kept as written and noted.
	 */
	protected dollar(into: StringArg): void {
		const charCode = this.sticky(CHAR_CODE);
		const code = charCode ? Number(charCode[1]) : NaN;
		if (charCode && code <= 0xffff) {
			this.at += charCode[0].length;
			into.value += String.fromCharCode(code);
			return;
		}
		const start = this.at;
		if (this.char(1) === '(') {
			this.at += 2;
			this.skipBalanced(start, '$(');
		} else {
			const variable = this.sticky(VARIABLE);
			if (!variable) {
				into.value += '$';
				this.at += 1;
				return;
			}
			this.at += variable[0].length;
		}
		const written = this.text.slice(start, this.at);
		into.value += written;
		into.expansions.push(written);
	}

	// ---- Skipping what is not read --------------------------------------------------------------

	/**
	 * Past the `)` or `}` closing a bracket whose inside starts here; strings, comments and nested
	 * brackets inside are skipped whole.
	 */
	skipBalanced(start: number, opener: '$(' | '(' | '{'): void {
		let depth = 0;
		for (;;) {
			const char = this.char();
			if (char === '') {
				this.unclosed(
					start,
					t(OPENERS[opener]),
					t('paste_ps_ends_with', { end: opener === '{' ? '}' : ')' })
				);
			}
			if (this.atString()) this.readString();
			else if (char === '`') this.at += 2;
			else if (this.atTokenStart() && this.comment()) continue;
			else {
				this.at += 1;
				if (char === '(' || char === '{') depth += 1;
				else if (char === ')' || char === '}') {
					if (depth === 0) return;
					depth -= 1;
				}
			}
		}
	}

	private atTokenStart(): boolean {
		const before = this.text.charAt(this.at - 1);
		return this.at === 0 || isSpace(before) || isNewline(before) || '({;,='.includes(before);
	}

	/** To the end of the statement (a line break or `;` outside brackets), which is passed. */
	skipStatement(): void {
		for (;;) {
			if (this.continuation()) continue;
			const char = this.char();
			if (char === '') return;
			if (isNewline(char) || char === ';') {
				this.at += 1;
				return;
			}
			if (this.atString()) this.readString();
			else if (char === '`') this.at += 2;
			else if (this.atTokenStart() && this.comment()) continue;
			else if (char === '(' || char === '{') {
				const start = this.at;
				this.at += 1;
				this.skipBalanced(start, char === '(' ? '(' : '{');
			} else this.at += 1;
		}
	}

	/** An expression up to where `stop` says it ends, outside brackets; its text. */
	protected skipExpression(stop: (char: string) => boolean): string {
		const start = this.at;
		for (;;) {
			const char = this.char();
			if (char === '' || stop(char)) break;
			if (this.continuation()) continue;
			if (this.atString()) this.readString();
			else if (char === '`') this.at += 2;
			else if (char === '(' || char === '{') {
				const open = this.at;
				this.at += 1;
				this.skipBalanced(open, char === '(' ? '(' : '{');
			} else this.at += 1;
		}
		return this.text.slice(start, this.at).trim();
	}
}
