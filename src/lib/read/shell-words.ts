import { text as t } from '$lib/i18n/text';
import { PasteError } from './parsed-request';

/**
 * Which shell wrote the command: a POSIX shell (bash "Copy as cURL", a terminal) or Windows cmd
 * ("Copy as cURL (cmd)"), whose caret escapes mean nothing to a POSIX shell and vice versa.
 */
export type ShellDialect = 'posix' | 'cmd';

/**
 * The text with each POSIX single-quoted part emptied: inside one, ^" and ^ at a line end are just
 * characters of a value, not cmd's escapes. A backslash outside quotes escapes the next character.
 */
function outsideSingleQuotes(text: string): string {
	let out = '';
	for (let index = 0; index < text.length; index++) {
		const char = text.charAt(index);
		if (char === '\\') {
			out += text.slice(index, index + 2);
			index++;
		} else if (char === "'") {
			const end = text.indexOf("'", index + 1);
			if (end < 0) return out + text.slice(index);
			out += "''";
			index = end;
		} else out += char;
	}
	return out;
}

/** Only cmd puts a caret before a line break, or before the quote that opens a word. */
export function detectDialect(text: string): ShellDialect {
	return /\^\r?\n|(?:^|\s)\^"/.test(outsideSingleQuotes(text)) ? 'cmd' : 'posix';
}

/**
 * Splits a pasted command into the words the program receives, as the shell would: quotes and
 * escapes are resolved, nothing is expanded ($VAR stays as typed). Throws a MacInputError naming
 * the quote that is never closed.
 */
export function shellWords(text: string, dialect: ShellDialect | 'auto' = 'auto'): string[] {
	const chosen = dialect === 'auto' ? detectDialect(text) : dialect;
	return chosen === 'cmd' ? crtWords(cmdUnescape(text)) : posixWords(text);
}

const QUOTES = {
	single: 'paste_shell_single_quote',
	double: 'paste_shell_double_quote',
	dollar: 'paste_shell_dollar_quote'
} as const;

function unclosed(text: string, at: number, quote: keyof typeof QUOTES): PasteError {
	const before = text.slice(0, at);
	const line = before.split('\n').length;
	const column = at - before.lastIndexOf('\n');
	const excerpt = text.slice(at, at + 24).replace(/\s+/g, ' ');
	return new PasteError(
		t('paste_shell_unclosed', { what: t(QUOTES[quote]), line, column, excerpt })
	);
}

// A no-break space between words is a copy-and-paste artefact of web pages, not part of a word.
const isBlank = (char: string) => /[ \t\r\n\u00a0]/.test(char);

function posixWords(text: string): string[] {
	const words: string[] = [];
	let word = '';
	let inWord = false;
	let index = 0;
	const end = () => {
		if (inWord) words.push(word);
		word = '';
		inWord = false;
	};
	while (index < text.length) {
		const char = text.charAt(index);
		const next = text.charAt(index + 1);
		if (char === '\\') {
			const breakLength = lineBreakAt(text, index + 1);
			if (breakLength > 0) index += 1 + breakLength;
			else {
				// A lone trailing backslash escapes nothing; the shell would wait for more input.
				if (next !== '') {
					word += next;
					inWord = true;
				}
				index += 2;
			}
		} else if (char === "'") {
			const close = text.indexOf("'", index + 1);
			if (close < 0) throw unclosed(text, index, 'single');
			word += text.slice(index + 1, close);
			inWord = true;
			index = close + 1;
		} else if (char === '$' && next === "'") {
			const [value, after] = ansiC(text, index);
			word += value;
			inWord = true;
			index = after;
		} else if (char === '"' || (char === '$' && next === '"')) {
			// $"…" is bash's translated string: without a message catalogue it is plain "…".
			const open = char === '$' ? index + 1 : index;
			const [value, after] = doubleQuoted(text, open);
			word += value;
			inWord = true;
			index = after;
		} else if (isBlank(char)) {
			end();
			index += 1;
		} else if (char === '#' && !inWord) {
			const lineEnd = text.indexOf('\n', index);
			index = lineEnd < 0 ? text.length : lineEnd;
		} else {
			word += char;
			inWord = true;
			index += 1;
		}
	}
	end();
	return words;
}

/** Length of the LF or CRLF at `index`, 0 when there is none: pastes from Windows carry CRLF. */
function lineBreakAt(text: string, index: number): number {
	if (text.charAt(index) === '\n') return 1;
	if (text.startsWith('\r\n', index)) return 2;
	return 0;
}

/** `"…"` starting at the quote: only \ before " \ $ ` and a line break is an escape. */
function doubleQuoted(text: string, open: number): [string, number] {
	let value = '';
	let index = open + 1;
	while (index < text.length) {
		const char = text.charAt(index);
		if (char === '"') return [value, index + 1];
		if (char === '\\') {
			const breakLength = lineBreakAt(text, index + 1);
			const next = text.charAt(index + 1);
			if (breakLength > 0) {
				index += 1 + breakLength;
				continue;
			}
			if ('"\\$`'.includes(next) && next !== '') {
				value += next;
				index += 2;
				continue;
			}
		}
		value += char;
		index += 1;
	}
	throw unclosed(text, open, 'double');
}

const SIMPLE_ESCAPES: Record<string, string> = {
	a: '\u0007',
	b: '\b',
	e: '\u001b',
	E: '\u001b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t',
	v: '\v',
	'\\': '\\',
	"'": "'",
	'"': '"',
	'?': '?'
};

/**
 * bash's `$'…'` starting at the `$`. \xHH and octal escapes give bytes, which are decoded together
 * as UTF-8, so `$'\xc3\xa9'` is "é" as the program receives it.
 */
function ansiC(text: string, dollar: number): [string, number] {
	let value = '';
	let bytes: number[] = [];
	const flush = () => {
		if (bytes.length > 0) value += new TextDecoder().decode(Uint8Array.from(bytes));
		bytes = [];
	};
	const append = (chars: string) => {
		flush();
		value += chars;
	};
	let index = dollar + 2;
	while (index < text.length) {
		const char = text.charAt(index);
		if (char === "'") {
			flush();
			return [value, index + 1];
		}
		if (char !== '\\') {
			append(char);
			index += 1;
			continue;
		}
		const next = text.charAt(index + 1);
		const simple = SIMPLE_ESCAPES[next];
		const rest = text.slice(index + 2);
		let match: RegExpExecArray | null;
		if (simple !== undefined) {
			append(simple);
			index += 2;
		} else if (next === 'x' && (match = /^[0-9a-f]{1,2}/i.exec(rest))) {
			bytes.push(parseInt(match[0], 16));
			index += 2 + match[0].length;
		} else if (/[0-7]/.test(next) && (match = /^[0-7]{1,3}/.exec(text.slice(index + 1)))) {
			bytes.push(parseInt(match[0], 8) & 0xff);
			index += 1 + match[0].length;
		} else if (
			(next === 'u' && (match = /^[0-9a-f]{1,4}/i.exec(rest))) ||
			(next === 'U' && (match = /^[0-9a-f]{1,8}/i.exec(rest)))
		) {
			const code = parseInt(match[0], 16);
			append(code <= 0x10ffff ? String.fromCodePoint(code) : `\\${next}${match[0]}`);
			index += 2 + match[0].length;
		} else if (next === 'c' && rest !== '') {
			append(String.fromCharCode(rest.charCodeAt(0) & 0x1f));
			index += 3;
		} else {
			// bash keeps an unknown escape as written, backslash included.
			append(next === '' ? '\\' : `\\${next}`);
			index += 2;
		}
	}
	throw unclosed(text, dollar, 'dollar');
}

/**
 * cmd.exe's pass: outside its own double quotes a caret escapes the next character, and a caret
 * before a line break joins the lines. The escaped character after a caret-line-break is kept,
 * which is how "Copy as cURL (cmd)" writes a line break inside a value (`^` LF LF).
 */
function cmdUnescape(text: string): string {
	let out = '';
	let quoted = false;
	let quoteAt = 0;
	let index = 0;
	while (index < text.length) {
		const char = text.charAt(index);
		if (char === '"') {
			quoted = !quoted;
			quoteAt = index;
			out += char;
			index += 1;
		} else if (char === '^' && !quoted) {
			const breakLength = lineBreakAt(text, index + 1);
			if (breakLength > 0) {
				index += 1 + breakLength;
				const escapedBreak = lineBreakAt(text, index);
				if (escapedBreak > 0) {
					out += '\n';
					index += escapedBreak;
				}
			} else {
				out += text.charAt(index + 1);
				index += 2;
			}
		} else {
			out += char;
			index += 1;
		}
	}
	if (quoted) throw unclosed(text, quoteAt, 'double');
	return out;
}

/**
 * The Microsoft C runtime's argument rules, which curl.exe applies after cmd: `"` toggles quoting,
 * backslashes are literal unless they precede a quote, and `""` inside quotes is one quote.
 */
function crtWords(text: string): string[] {
	const words: string[] = [];
	let word = '';
	let inWord = false;
	let quoted = false;
	let quoteAt = 0;
	let index = 0;
	while (index < text.length) {
		const char = text.charAt(index);
		if (char === '\\') {
			let count = 0;
			while (text.charAt(index + count) === '\\') count += 1;
			if (text.charAt(index + count) === '"') {
				word += '\\'.repeat(Math.floor(count / 2));
				if (count % 2 === 1) {
					word += '"';
					index += count + 1;
				} else index += count;
			} else {
				word += '\\'.repeat(count);
				index += count;
			}
			inWord = true;
		} else if (char === '"') {
			if (quoted && text.charAt(index + 1) === '"') {
				word += '"';
				index += 2;
			} else {
				quoted = !quoted;
				quoteAt = index;
				index += 1;
			}
			inWord = true;
		} else if (!quoted && isBlank(char)) {
			if (inWord) words.push(word);
			word = '';
			inWord = false;
			index += 1;
		} else {
			word += char;
			inWord = true;
			index += 1;
		}
	}
	if (quoted) throw unclosed(text, quoteAt, 'double');
	if (inWord) words.push(word);
	return words;
}
