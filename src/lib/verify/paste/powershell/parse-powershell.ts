import { attempt, requestTarget, type Outcome } from '$lib/mac';
import { fail, shown, type HeaderField, type ParsedRequest } from '../parsed-request';

// Invoke-WebRequest or Invoke-RestMethod at the start of a line, its result maybe assigned ($r = …).
const INVOKE_LINE = /^[ \t]*(?:\$[\w:]+[ \t]*=[ \t]*)?Invoke-(?:WebRequest|RestMethod)\b/im;

/**
 * Devtools' "Copy as PowerShell" (Chrome, Edge): it starts with the `$session` it sets up, or runs
 * Invoke-WebRequest (or Invoke-RestMethod) at the start of a line. `trimmed` has no leading blanks.
 */
export function looksLikePowerShell(trimmed: string): boolean {
	return /^\$session\b/i.test(trimmed) || INVOKE_LINE.test(trimmed);
}

// PowerShell reads the typographic quotes and dashes a chat or word processor puts in as the plain ones.
const DOUBLE_QUOTES = '"\u201c\u201d\u201e';
const SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b";
const isDoubleQuote = (char: string) => char !== '' && DOUBLE_QUOTES.includes(char);
const isSingleQuote = (char: string) => char !== '' && SINGLE_QUOTES.includes(char);
const isNewline = (char: string) => char === '\n' || char === '\r';
const isSpace = (char: string) =>
	char !== '' && /[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/.test(char);
// What ends a word of a command: a line break, a statement or pipeline separator, a closing bracket.
const isCommandEnd = (char: string) => char === '' || isNewline(char) || ';|&)}>'.includes(char);

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
const VARIABLE = /\$(?:\{[^}\r\n]{1,256}\}|[\p{L}\p{N}_]+(?::[\p{L}\p{N}_]+)?|[$^?])/uy;
const PARAMETER = /[-\u2013\u2014\u2015]([A-Za-z_][A-Za-z0-9_]*)(:?)/y;
const COMMAND = /(Invoke-WebRequest|Invoke-RestMethod|iwr|irm)(?=[\s;|)}]|$)/iy;
const ADD_CALL = /\.Add\s*\(/iy;
const CAST = /\[[\w.]+\][ \t]*(?=@\{)/y;
const NUMBER = /\d+(?:\.\d+)?/y;
const PSEUDO_HEADER = /^:?(authority|method|path|scheme)$/i;
// Strings inside subexpressions inside strings, hashtables inside hashtables: devtools nests none,
// and a bound keeps a hostile paste from exhausting the stack.
const MAX_NESTING = 64;

interface StringArg {
	kind: 'string';
	value: string;
	/** The `$name`s and `$(…)`s PowerShell would have replaced by their values, as written. */
	expansions: string[];
}
interface Entry {
	/** null when the key is an expression. */
	key: string | null;
	keyText: string;
	value: Arg;
}
type Arg =
	| StringArg
	| { kind: 'hashtable'; entries: Entry[]; text: string }
	| { kind: 'variable'; name: string }
	| { kind: 'expression'; text: string };

/** What a variable set in the paste holds, as far as a literal says it. */
type Variable =
	StringArg | { kind: 'hashtable'; entries: Entry[] } | { kind: 'other'; text: string };

interface Command {
	name: string;
	/** The parameters given, by their full name, with the name as written and the value. */
	params: Map<string, { written: string; arg: Arg | null }>;
	positional: Arg[];
	repeated: string[];
}

interface ParameterSpec {
	name: string;
	switch: boolean;
}

// The parameters of Invoke-WebRequest and Invoke-RestMethod (PowerShell 5.1 to 7.5) and the common
// ones, so that an abbreviation (-Meth) resolves and a switch does not take the next word as its value.
const SWITCHES =
	'UseBasicParsing AllowUnencryptedAuthentication UseDefaultCredentials SkipCertificateCheck ' +
	'DisableKeepAlive SkipHeaderValidation AllowInsecureRedirect PreserveAuthorizationOnRedirect ' +
	'PreserveHttpMethodOnRedirect NoProxy ProxyUseDefaultCredentials PassThru Resume ' +
	'SkipHttpErrorCheck FollowRelLink Verbose Debug';
const WITH_VALUE =
	'Uri HttpVersion WebSession SessionVariable Authentication Credential CertificateThumbprint ' +
	'Certificate SslProtocol Token UserAgent TimeoutSec ConnectionTimeoutSeconds ' +
	'OperationTimeoutSeconds Headers MaximumRedirection MaximumRetryCount RetryIntervalSec Method ' +
	'CustomMethod UnixSocket Proxy ProxyCredential Body Form ContentType TransferEncoding InFile ' +
	'OutFile MaximumFollowRelLink ResponseHeadersVariable StatusCodeVariable ErrorAction ' +
	'WarningAction InformationAction ProgressAction ErrorVariable WarningVariable ' +
	'InformationVariable OutVariable OutBuffer PipelineVariable';
const PARAMETERS: ParameterSpec[] = [
	...SWITCHES.split(' ').map((name) => ({ name, switch: true })),
	...WITH_VALUE.split(' ').map((name) => ({ name, switch: false }))
];
// Maps, not objects: a name such as -__proto__ or -Method constructor must find nothing.
const ALIASES = new Map(
	Object.entries({
		sv: 'SessionVariable',
		cm: 'CustomMethod',
		fl: 'FollowRelLink',
		ml: 'MaximumFollowRelLink',
		rhv: 'ResponseHeadersVariable',
		vb: 'Verbose',
		db: 'Debug',
		ea: 'ErrorAction',
		wa: 'WarningAction',
		infa: 'InformationAction',
		proga: 'ProgressAction',
		ev: 'ErrorVariable',
		wv: 'WarningVariable',
		iv: 'InformationVariable',
		ov: 'OutVariable',
		ob: 'OutBuffer',
		pv: 'PipelineVariable'
	})
);

/** The parameter a name (any case, or an unambiguous start of one, as PowerShell allows) stands for. */
function resolveParameter(written: string): ParameterSpec | undefined {
	const lower = written.toLowerCase();
	const alias = ALIASES.get(lower)?.toLowerCase();
	const exact = PARAMETERS.find((spec) => spec.name.toLowerCase() === (alias ?? lower));
	if (exact) return exact;
	const candidates = PARAMETERS.filter((spec) => spec.name.toLowerCase().startsWith(lower));
	return candidates.length === 1 ? candidates[0] : undefined;
}

// -Method takes these (any case); -CustomMethod any other, upper-cased.
const METHODS = new Map(
	Object.entries({
		default: 'GET',
		get: 'GET',
		head: 'HEAD',
		post: 'POST',
		put: 'PUT',
		delete: 'DELETE',
		trace: 'TRACE',
		options: 'OPTIONS',
		merge: 'MERGE',
		patch: 'PATCH'
	})
);

/** The name a variable is stored under: PowerShell's names ignore case; `${x}` is `$x`. */
function variableKey(written: string): string {
	return written.replace(/^\$\{?|\}$/g, '').toLowerCase();
}

/**
 * Reads PowerShell source as far as a pasted request needs: strings with their escapes, hashtable
 * literals, commands and their parameters. Statements it does not need are skipped, never run.
 */
class Reader {
	at = 0;
	readonly variables = new Map<string, Variable>();
	readonly commands: Outcome<ParsedRequest>[] = [];
	readonly commandNames: string[] = [];
	sawSession = false;
	private nesting = 0;

	constructor(readonly text: string) {}

	char(offset = 0): string {
		return this.text.charAt(this.at + offset);
	}

	private sticky(pattern: RegExp): RegExpExecArray | null {
		pattern.lastIndex = this.at;
		return pattern.exec(this.text);
	}

	where(index: number): string {
		let line = 1;
		let lineStart = 0;
		for (let i = 0; i < index; i += 1) {
			const char = this.text.charAt(i);
			if (char === '\n' || (char === '\r' && this.text.charAt(i + 1) !== '\n')) {
				line += 1;
				lineStart = i + 1;
			}
		}
		return `line ${line}, column ${index - lineStart + 1}`;
	}

	private unclosed(start: number, what: string, advice: string): never {
		const excerpt = this.text.slice(start, start + 24).replace(/\s+/g, ' ');
		fail(`${what} opened at ${this.where(start)} (${excerpt}…) is never closed: ${advice}`);
	}

	/** A backtick at the end of a line continues the command on the next (blanks between tolerated). */
	private continuation(): boolean {
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
			if (end < 0) this.unclosed(this.at, 'A block comment (<#)', 'it ends with #>.');
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
	private nested<T>(read: () => T): T {
		if (this.nesting >= MAX_NESTING) {
			fail(
				`The paste nests strings, subexpressions or hashtables more than ${MAX_NESTING} deep (${this.where(this.at)}): devtools writes nothing like it.`
			);
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
				if (here)
					this.unclosed(start, "A here-string (@')", "it ends with '@ at the start of a line.");
				this.unclosed(
					start,
					'A single-quoted string',
					"the paste is cut off, or a quote inside it is not doubled ('')."
				);
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
				if (here)
					this.unclosed(start, 'A here-string (@")', 'it ends with "@ at the start of a line.');
				this.unclosed(
					start,
					'A double-quoted string',
					'the paste is cut off, or a quote inside it is not escaped (`").'
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
					this.unclosed(start, 'A double-quoted string', 'it ends with a backtick.');
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
	private escape(): string {
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
	private dollar(into: StringArg): void {
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
			this.skipBalanced(start, 'A subexpression $(');
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
	skipBalanced(start: number, what: string): void {
		let depth = 0;
		for (;;) {
			const char = this.char();
			if (char === '') {
				this.unclosed(start, what, `it ends with "${what.endsWith('(') ? ')' : '}'}".`);
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
				this.skipBalanced(start, char === '(' ? 'A parenthesis (' : 'A script block {');
			} else this.at += 1;
		}
	}

	/** An expression up to where `stop` says it ends, outside brackets; its text. */
	private skipExpression(stop: (char: string) => boolean): string {
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
				this.skipBalanced(open, char === '(' ? 'A parenthesis (' : 'A script block {');
			} else this.at += 1;
		}
		return this.text.slice(start, this.at).trim();
	}

	// ---- Values ---------------------------------------------------------------------------------

	/** A word of a command (argument mode): a string, a hashtable, a variable, an expression or a bare word. */
	readArgument(): Arg {
		if (this.atString()) return this.readString();
		const char = this.char();
		if (char === '@' && this.char(1) === '{') return this.readHashtable();
		if (char === '$' && this.char(1) !== '(') {
			const variable = this.sticky(VARIABLE);
			if (variable) {
				const after = this.text.charAt(this.at + variable[0].length);
				if (after === '' || isSpace(after) || isCommandEnd(after)) {
					this.at += variable[0].length;
					return { kind: 'variable', name: variable[0] };
				}
			}
		}
		if (char !== '' && '({[$@'.includes(char)) {
			return {
				kind: 'expression',
				text: this.skipExpression((next) => isSpace(next) || isCommandEnd(next))
			};
		}
		return this.readBareWord();
	}

	/** A bare word: escapes and embedded quoted parts resolved, $variables left as written. */
	private readBareWord(): StringArg {
		const word: StringArg = { kind: 'string', value: '', expansions: [] };
		for (;;) {
			const char = this.char();
			if (char === '' || isSpace(char) || isCommandEnd(char)) return word;
			if (char === '`') {
				const save = this.at;
				if (this.continuation()) {
					this.at = save;
					return word;
				}
				word.value += this.escape();
			} else if (isDoubleQuote(char) || isSingleQuote(char)) {
				const part = this.readString();
				word.value += part.value;
				word.expansions.push(...part.expansions);
			} else if (char === '$') this.dollar(word);
			else {
				word.value += char;
				this.at += 1;
			}
		}
	}

	/** @{ key = value; … }: keys and values as written; a value that is not a literal is kept as text. */
	readHashtable(): Arg {
		return this.nested(() => this.readHashtableHere());
	}

	private readHashtableHere(): Arg {
		const start = this.at;
		this.at += 2;
		const entries: Entry[] = [];
		for (;;) {
			this.skipAll();
			const char = this.char();
			if (char === '') {
				this.unclosed(start, 'The hashtable @{', 'it ends with "}": was the paste cut short?');
			}
			if (char === '}') {
				this.at += 1;
				return { kind: 'hashtable', entries, text: this.text.slice(start, this.at) };
			}
			const keyStart = this.at;
			let key: string | null;
			if (this.atString()) key = this.readString().value;
			else if (char === '$' || char === '(') {
				key = null;
				this.skipExpression((next) => isSpace(next) || isNewline(next) || '=;}'.includes(next));
			} else {
				while (
					this.at < this.text.length &&
					!isSpace(this.char()) &&
					!isNewline(this.char()) &&
					!'=;}'.includes(this.char())
				) {
					this.at += 1;
				}
				key = this.text.slice(keyStart, this.at);
			}
			const keyText = this.text.slice(keyStart, this.at);
			this.skipInline();
			if (this.char() !== '=' || keyText === '') {
				fail(
					`In the hashtable @{…} (${this.where(keyStart)}), ${shown(keyText || this.text.slice(this.at, this.at + 20))} is not a key followed by "=" and a value.`
				);
			}
			this.at += 1;
			this.skipAll(false);
			if (this.char() === '' || this.char() === '}' || this.char() === ';') {
				fail(
					`In the hashtable @{…} (${this.where(keyStart)}), ${shown(keyText)} has no value after "=".`
				);
			}
			entries.push({ key, keyText, value: this.readValue() });
		}
	}

	/** A value in expression mode (a hashtable entry, a call's argument), up to where `end` says. */
	private readValue(
		end: (char: string) => boolean = (char) => isNewline(char) || char === ';' || char === '}'
	): Arg {
		const start = this.at;
		let literal: Arg | null = null;
		if (this.atString()) literal = this.readString();
		else if (this.char() === '$' && this.char(1) !== '(') {
			const variable = this.sticky(VARIABLE);
			if (variable) {
				this.at += variable[0].length;
				literal = { kind: 'variable', name: variable[0] };
			}
		} else if (this.char() === '@' && this.char(1) === '{') literal = this.readHashtable();
		else {
			const number = this.sticky(NUMBER);
			if (number) {
				this.at += number[0].length;
				literal = { kind: 'string', value: number[0], expansions: [] };
			}
		}
		if (literal) {
			this.skipInline();
			if (this.char() === '' || end(this.char())) return literal;
		}
		// Not a literal alone ("MAC " + $token): the rest of the expression, from where reading stopped.
		this.skipExpression(end);
		return { kind: 'expression', text: this.text.slice(start, this.at).trim() };
	}

	// ---- Statements -----------------------------------------------------------------------------

	readAll(): void {
		for (;;) {
			this.skipAll();
			if (this.at >= this.text.length) return;
			const command = this.sticky(COMMAND);
			if (command) {
				this.at += command[0].length;
				this.readCommand(command[0]);
			} else if (this.char() === '$') this.readVariableStatement();
			else this.skipStatement();
		}
	}

	/** `$x = …` (a string or hashtable kept for later), `$x.Add(k, v)`, or anything else, skipped. */
	private readVariableStatement(): void {
		const start = this.at;
		const variable = this.sticky(VARIABLE);
		if (!variable) return this.skipStatement();
		const name = variableKey(variable[0]);
		if (name === 'session') this.sawSession = true;
		this.at += variable[0].length;
		this.skipInline();
		if (this.char() === '=' && this.char(1) !== '=') {
			this.at += 1;
			this.skipAll(false);
			const command = this.sticky(COMMAND);
			if (command) {
				this.at += command[0].length;
				return this.readCommand(command[0]);
			}
			return this.readAssignment(name);
		}
		if (this.readAddCall(name)) return;
		this.at = start;
		this.skipStatement();
	}

	private readAssignment(name: string): void {
		const valueStart = this.at;
		const cast = this.sticky(CAST);
		if (cast) this.at += cast[0].length;
		const value = this.atString() || this.char() === '@' ? this.readValue() : null;
		const atEnd = this.char() === '' || isNewline(this.char()) || this.char() === ';';
		if (value && atEnd && (value.kind === 'string' || value.kind === 'hashtable')) {
			this.variables.set(
				name,
				value.kind === 'string' ? value : { kind: 'hashtable', entries: [...value.entries] }
			);
			return this.skipStatement();
		}
		this.at = valueStart;
		const text = this.skipExpression((char) => isNewline(char) || char === ';');
		// New-Object "System.Collections.Generic.Dictionary[[String],[String]]", as Postman writes it.
		this.variables.set(
			name,
			/^(?:New-Object\b.*\b(?:Dictionary|Hashtable)\b|\[[\w.]*(?:Dictionary|Hashtable)\b)/i.test(
				text
			)
				? { kind: 'hashtable', entries: [] }
				: { kind: 'other', text }
		);
		this.skipStatement();
	}

	/** `$headers.Add("Authorization", "MAC …")`; false when it is not that shape. */
	private readAddCall(name: string): boolean {
		const target = this.variables.get(name);
		const call = this.sticky(ADD_CALL);
		if (target?.kind !== 'hashtable' || !call) return false;
		this.at += call[0].length;
		this.skipAll(false);
		const keyStart = this.at;
		if (!this.atString()) return false;
		const key = this.readString().value;
		const keyText = this.text.slice(keyStart, this.at);
		this.skipAll(false);
		if (this.char() !== ',') return false;
		this.at += 1;
		this.skipAll(false);
		const value = this.readValue((char) => char === ')' || isNewline(char));
		if (this.char() !== ')') return false;
		this.at += 1;
		target.entries.push({ key, keyText, value });
		this.skipStatement();
		return true;
	}

	private readCommand(name: string): void {
		const command: Command = { name, params: new Map(), positional: [], repeated: [] };
		for (;;) {
			this.skipInline();
			if (isCommandEnd(this.char())) break;
			const parameter = this.sticky(PARAMETER);
			if (!parameter) {
				command.positional.push(this.readArgument());
				continue;
			}
			this.at += parameter[0].length;
			const written = `-${parameter[1] ?? ''}`;
			const spec = resolveParameter(parameter[1] ?? '');
			let arg: Arg | null = null;
			if (parameter[2] === ':' || spec?.switch === false || spec === undefined) {
				this.skipInline();
				const next = this.sticky(PARAMETER);
				if (isCommandEnd(this.char()) || next) {
					// An unknown name followed by another parameter is taken for a switch.
					if (spec !== undefined && !spec.switch) {
						fail(
							`PowerShell’s ${written} needs a value, but ${next ? `${shown(next[0])} follows` : 'the command ends there'}.`
						);
					}
				} else arg = this.readArgument();
			}
			const key = spec?.name ?? written;
			if (command.params.has(key)) command.repeated.push(written);
			else command.params.set(key, { written, arg });
		}
		this.skipStatement();
		this.commandNames.push(name);
		this.commands.push(attempt(() => this.request(command)));
	}

	// ---- The request ----------------------------------------------------------------------------

	/** A value that must be a string: a literal, or a variable the paste sets to one. */
	private literal(arg: Arg, what: string, example: string): StringArg {
		if (arg.kind === 'string') return arg;
		if (arg.kind === 'hashtable') fail(`${what} must be a string, not a hashtable @{…}.`);
		if (arg.kind === 'variable') {
			const value = this.variables.get(variableKey(arg.name));
			if (value?.kind === 'string') return value;
			if (value === undefined) {
				fail(
					`${what} is ${arg.name}, a variable set elsewhere: the paste does not define it. Paste its definition (${arg.name} = ${example}) too, or copy the request as cURL.`
				);
			}
		}
		const text = arg.kind === 'variable' ? arg.name : arg.text;
		fail(
			`${what} is ${shown(text)}, which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the value written out, or copy the request as cURL.`
		);
	}

	private request(command: Command): ParsedRequest {
		const understood: string[] = [];
		const param = (name: string) => command.params.get(name);
		const warn = (value: StringArg, where: string) => {
			if (value.expansions.length === 0) return;
			const names = value.expansions.slice(0, 3).map((name) => shown(name, 30));
			understood.push(
				`PowerShell would have expanded ${names.join(', ')} in ${where}: it is kept as written here, but the request sent had ${value.expansions.length > 1 ? 'their values' : 'its value'} instead.`
			);
		};

		const uriParam = param('Uri');
		const uriArg = uriParam?.arg ?? command.positional[0];
		if (!uriArg)
			fail(`The ${command.name} command names no URL (-Uri "https://…"): was the paste cut short?`);
		const uri = this.literal(uriArg, 'The -Uri', '"https://…"');
		let url = uri.value.trim();
		if (url === '') fail('The -Uri is empty: PowerShell would refuse to run the command.');
		if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
			url = `http://${url}`;
			understood.push(
				'The -Uri has no scheme, so PowerShell uses http:// (port 80): add https:// to call the service.'
			);
		} else {
			understood.push(
				uriParam ? 'URL from -Uri.' : 'URL from the command’s first argument (-Uri).'
			);
		}
		warn(uri, 'the -Uri');
		const extra = command.positional.slice(uriParam ? 0 : 1);
		if (extra.length > 0) {
			understood.push(
				`PowerShell would refuse the extra argument ${shown(extra[0]?.kind === 'string' ? extra[0].value : '…')}; it was ignored.`
			);
		}
		if (command.repeated.length > 0) {
			understood.push(
				`PowerShell refuses a parameter given twice (${command.repeated.join(' ')}); the first was used.`
			);
		}

		const method = this.method(command, understood, warn);
		const pseudo = new Map<string, string>();
		const headers = this.headers(command, understood, warn, pseudo);
		url = this.pathUrl(url, pseudo.get('path'), understood);

		const bodies = ['Body', 'InFile', 'Form'].flatMap((name) => param(name)?.written ?? []);
		if (bodies.length > 0) {
			understood.push(`The body (${bodies.join(', ')}) is not signed, so it was ignored.`);
		}
		const body = param('Body')?.arg;
		const bodyValue = body?.kind === 'variable' ? this.variables.get(variableKey(body.name)) : body;
		if (method === 'GET' && bodyValue?.kind === 'hashtable') {
			understood.push(
				'With GET, PowerShell appends a hashtable -Body to the query string (in no set order), which the URL here leaves out: check the query the server received.'
			);
		}
		if (this.sawSession) {
			understood.push(
				'The web session’s user agent and cookies ($session) are not signed, so they were ignored.'
			);
		}
		const handled = new Set(['Uri', 'Method', 'CustomMethod', 'Headers', 'Body', 'InFile', 'Form']);
		const ignored = [...command.params].flatMap(([name, { written }]) =>
			handled.has(name) ? [] : [written]
		);
		if (ignored.length > 0) {
			understood.push(`Ignored, as they do not change what is signed: ${ignored.join(' ')}.`);
		}
		return { url, method, headers, understood };
	}

	private method(
		command: Command,
		understood: string[],
		warn: (value: StringArg, where: string) => void
	): string {
		const custom = command.params.get('CustomMethod');
		const standard = command.params.get('Method');
		if (custom?.arg) {
			const value = this.literal(custom.arg, `The ${custom.written}`, '"PATCH"');
			warn(value, custom.written);
			if (standard) {
				understood.push(
					'PowerShell refuses -Method and -CustomMethod together; -CustomMethod was used.'
				);
			}
			if (value.value.trim() !== '') {
				const upper = value.value.toUpperCase();
				understood.push(
					`Method ${upper.slice(0, 20)} from ${custom.written} (PowerShell upper-cases it).`
				);
				return upper;
			}
			understood.push(`PowerShell refuses an empty ${custom.written}.`);
		} else if (standard?.arg) {
			const value = this.literal(standard.arg, `The ${standard.written}`, '"POST"');
			warn(value, standard.written);
			const written = value.value.trim();
			const known = METHODS.get(written.toLowerCase());
			if (known !== undefined) {
				understood.push(
					written.toLowerCase() === 'default'
						? 'Method GET: what -Method Default sends.'
						: `Method ${known} from ${standard.written}.`
				);
				return known;
			}
			understood.push(
				`PowerShell’s -Method takes Get, Post, Put, Delete, Patch, Head, Options, Trace or Merge, so ${shown(written)} would be refused (-CustomMethod sends others).`
			);
			if (written !== '') {
				understood.push(`Method ${written.slice(0, 20)} assumed.`);
				return written;
			}
		}
		understood.push('Method GET: PowerShell’s default when there is no -Method.');
		return 'GET';
	}

	private headers(
		command: Command,
		understood: string[],
		warn: (value: StringArg, where: string) => void,
		pseudo: Map<string, string>
	): HeaderField[] {
		const given = command.params.get('Headers');
		if (!given?.arg) return [];
		const arg = given.arg;
		let entries: Entry[];
		if (arg.kind === 'hashtable') entries = arg.entries;
		else if (arg.kind === 'variable') {
			const value = this.variables.get(variableKey(arg.name));
			if (value === undefined) {
				fail(
					`-Headers is ${arg.name}, a variable set elsewhere: the paste does not define it. Paste its definition (${arg.name} = @{…}) too, or copy the request as cURL.`
				);
			}
			if (value.kind !== 'hashtable') {
				fail(
					`-Headers is ${arg.name}, which the paste does not set to a hashtable @{…}: paste the command as devtools copies it, or copy the request as cURL.`
				);
			}
			entries = value.entries;
			understood.push(`Headers from ${arg.name}, set earlier in the paste.`);
		} else {
			const text = arg.kind === 'string' ? arg.value : arg.text;
			fail(
				`-Headers must be a hashtable such as @{"Authorization"="MAC …"}, as devtools writes it, not ${shown(text)}: paste the command as copied, or copy the request as cURL.`
			);
		}

		const headers: HeaderField[] = [];
		for (const { key, keyText, value } of entries) {
			if (key === null) {
				understood.push(
					`The header name ${shown(keyText)} is worked out when PowerShell runs; nothing is evaluated here, so that header was left out.`
				);
				continue;
			}
			const isAuthorization = key.toLowerCase() === 'authorization';
			let text: StringArg | null = null;
			if (value.kind === 'string') text = value;
			else if (value.kind === 'variable') {
				if (variableKey(value.name) === 'null') continue; // PowerShell leaves a $null header out.
				const variable = this.variables.get(variableKey(value.name));
				if (variable?.kind === 'string') text = variable;
				else if (isAuthorization) {
					this.literal(value, 'The Authorization header', '"MAC id=`"…`",…"');
				}
			}
			if (text === null) {
				const written =
					value.kind === 'variable' ? value.name : value.kind === 'string' ? '' : value.text;
				if (isAuthorization) {
					fail(
						`The Authorization header is ${shown(written)}, which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the header written out, or copy the request as cURL.`
					);
				}
				understood.push(
					`The ${shown(key)} header is ${shown(written)}, which is not evaluated here, so it was left out.`
				);
				continue;
			}
			warn(text, `the ${shown(key)} header`);
			const name = PSEUDO_HEADER.exec(key);
			if (name) pseudo.set((name[1] ?? '').toLowerCase(), text.value);
			else headers.push({ name: key, value: text.value });
		}
		return headers;
	}

	/**
	 * Over HTTP/2, devtools writes the pseudo-headers as "authority", "method", "path" and "scheme"
	 * entries. "path" is what the browser sent, and the signature covers that, so it wins.
	 */
	private pathUrl(url: string, path: string | undefined, understood: string[]): string {
		const target = attempt(() => requestTarget(url));
		if (path === undefined || !target.ok || path === target.value.uri) return url;
		if (!path.startsWith('/')) {
			understood.push(`The "path" entry ${shown(path, 80)} is not a path, so it was not used.`);
			return url;
		}
		understood.push(
			`The -Uri says ${shown(target.value.uri, 80)} but the "path" entry (the HTTP/2 :path the browser sent) says ${shown(path, 80)}: the URL is built from "path", the bytes actually sent.`
		);
		return `${new URL(target.value.href).origin}${path}`;
	}
}

const isMacSigned = (request: ParsedRequest) =>
	request.headers.some(
		(header) =>
			header.name.toLowerCase() === 'authorization' && /^mac(?:\s|$)/i.test(header.value.trim())
	);

/**
 * Reads devtools' "Copy as PowerShell" (Invoke-WebRequest, or Invoke-RestMethod): the URL, the
 * method and the -Headers hashtable. Strings are unescaped as PowerShell does; nothing is evaluated,
 * so a `$variable` in a value is kept as written and said. Of several commands ("Copy all as
 * PowerShell"), the first MAC-signed one is read.
 */
export function parsePowerShell(text: string): ParsedRequest {
	const reader = new Reader(text);
	reader.readAll();
	const { commands, commandNames } = reader;
	if (commands.length === 0) {
		fail(
			reader.sawSession
				? 'The paste sets up a web session ($session) but holds no Invoke-WebRequest or Invoke-RestMethod command: was it cut short?'
				: 'Expected a PowerShell command, Invoke-WebRequest -Uri "https://…" -Headers @{…}, as devtools’ "Copy as PowerShell" writes it.'
		);
	}
	const signed = commands.findIndex((outcome) => outcome.ok && isMacSigned(outcome.value));
	const index = Math.max(signed, 0);
	const chosen = commands[index];
	if (chosen === undefined) fail('The paste holds no command.');
	if (!chosen.ok) throw chosen.error;
	const request = chosen.value;
	if (commands.length > 1) {
		request.understood.unshift(
			signed > 0
				? `The paste holds ${commands.length} commands; the first MAC-signed one (number ${index + 1}, ${commandNames[index]}) is read. To check another, paste it alone.`
				: `The paste holds ${commands.length} commands; the first is read. To check another, paste it alone.`
		);
	}
	return request;
}
