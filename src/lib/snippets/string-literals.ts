// String literals for the generated programs. A mac_key may hold quotes, backslashes, `$` and
// non-ASCII characters; each language needs its own escapes for the value to reach HMAC unchanged.

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function isControl(char: string): boolean {
	const code = char.codePointAt(0) ?? 0;
	return code < 0x20 || code === 0x7f;
}

function hex(code: number, digits: number): string {
	return code.toString(16).toUpperCase().padStart(digits, '0');
}

/**
 * Backslash-escapes the quote, the backslash, `special` and common control characters; `escape`
 * spells every other character.
 */
function backslashQuoted(
	text: string,
	quote: string,
	escape: (char: string) => string,
	special = ''
): string {
	let body = '';
	for (const char of text) {
		if (char === quote || char === '\\' || special.includes(char)) body += `\\${char}`;
		else body += SHORT_ESCAPES[char] ?? escape(char);
	}
	return quote + body + quote;
}

const controlAsHex = (char: string) =>
	isControl(char) ? `\\x${hex(char.codePointAt(0) ?? 0, 2)}` : char;

/** A single-quoted JavaScript string. */
export function jsString(text: string): string {
	return backslashQuoted(text, "'", controlAsHex);
}

/** A single-quoted Python 3 str (the source is UTF-8, so other characters stay as they are). */
export function pythonString(text: string): string {
	return backslashQuoted(text, "'", controlAsHex);
}

/** A Go interpreted string literal (Go source is always UTF-8). */
export function goString(text: string): string {
	return backslashQuoted(text, '"', controlAsHex);
}

/**
 * A Java string literal in pure ASCII: `java Main.java` reads the file in the platform charset,
 * so non-ASCII is written as \uXXXX (per UTF-16 unit). Controls use octal, because a \u000A
 * would end the line before the compiler sees the string.
 */
export function javaString(text: string): string {
	return backslashQuoted(text, '"', (char) => {
		if (isControl(char)) return `\\${(char.codePointAt(0) ?? 0).toString(8).padStart(3, '0')}`;
		if (char.charCodeAt(0) < 0x80) return char;
		let units = '';
		for (let i = 0; i < char.length; i++) units += `\\u${hex(char.charCodeAt(i), 4)}`;
		return units;
	});
}

/** A C# regular string literal; C#'s \x takes a variable number of digits, so \u it is. */
export function csharpString(text: string): string {
	return backslashQuoted(text, '"', (char) =>
		isControl(char) ? `\\u${hex(char.codePointAt(0) ?? 0, 4)}` : char
	);
}

/**
 * A PHP string: single-quoted, where `$` is not interpolated; double-quoted with `\$` escaped only
 * when a control character needs an escape.
 */
export function phpString(text: string): string {
	if (![...text].some(isControl)) return `'${text.replace(/[\\']/g, '\\$&')}'`;
	return backslashQuoted(text, '"', controlAsHex, '$');
}

/** A single-quoted shell word: nothing inside is special but the quote itself. */
export function shellString(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}
