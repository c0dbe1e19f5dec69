import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { detectDialect, shellWords } from '$lib/read';
import { thrownEnglish } from './verify-english';

/** Chrome DevTools' escaping for "Copy as cURL (cmd)", to produce realistic pastes. */
function chromeCmdQuote(text: string): string {
	return (
		'^"' +
		text
			.replace(/\\/g, '\\\\')
			.replace(/"/g, '\\"')
			.replace(/[^\w\s\-:=+~'/.,?;()*`]/g, '^$&')
			.replace(/%\b/g, '%^')
			.replace(/\r?\n|\r/g, '^\n\n') +
		'^"'
	);
}

const header =
	'authorization: MAC id="kid-1234567890",ts="1700000000",nonce="bm9uY2Ux",mac="q/+Ab=="';
const url = 'https://open.tapapis.cn/account/profile/v1?client_id=abc123&note=a%20b';

describe('shellWords (POSIX)', () => {
	it('splits on blanks and keeps single-quoted text literally, backslashes included', () => {
		expect(shellWords(`curl  'a b\\c'\t"d"`)).toEqual(['curl', 'a b\\c', 'd']);
	});

	it('resolves only \\" \\\\ \\$ \\` and line breaks inside double quotes', () => {
		expect(shellWords('"a\\"b\\\\c\\$d\\`e\\nf"')).toEqual(['a"b\\c$d`e\\nf']);
		expect(shellWords('"one\\\ntwo"')).toEqual(['onetwo']);
	});

	it('treats a backslash outside quotes as an escape and backslash-newline as a continuation', () => {
		expect(shellWords('a\\ b c\\\\d')).toEqual(['a b', 'c\\d']);
		expect(shellWords('curl \\\n  -H x \\\r\n  y')).toEqual(['curl', '-H', 'x', 'y']);
	});

	it('joins adjacent quoted and bare parts into one word, and keeps an empty quoted word', () => {
		expect(shellWords(`-H'Authorization: MAC'" id=x" ''`)).toEqual([
			'-HAuthorization: MAC id=x',
			''
		]);
	});

	it("reads $'…' ANSI-C quoting as bash does", () => {
		expect(shellWords("$'it\\'s\\n\\t\\x41\\101\\u00e9\\U0001F511\\cA\\q'")).toEqual([
			"it's\n\tAAé🔑\u0001\\q"
		]);
		expect(shellWords("$'\\xc3\\xa9'")).toEqual(['é']);
	});

	it('skips a comment that starts a word, not a # inside one', () => {
		expect(shellWords('curl https://h/#frag # a comment\n-v')).toEqual([
			'curl',
			'https://h/#frag',
			'-v'
		]);
	});

	it("reads Chrome's “Copy as cURL (bash)” paste with continuations", () => {
		const pasted = [
			`curl '${url}' \\`,
			"  -H 'accept: */*' \\",
			`  -H '${header}' \\`,
			`  -H 'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124"' \\`,
			"  -H $'x-note: it\\'s fine\\u0021'"
		].join('\n');
		expect(shellWords(pasted)).toEqual([
			'curl',
			url,
			'-H',
			'accept: */*',
			'-H',
			header,
			'-H',
			'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124"',
			'-H',
			"x-note: it's fine!"
		]);
	});

	it.each([
		[`curl 'https://h/x`, /single quote/],
		[`curl "https://h/x`, /double quote/],
		[`curl $'abc`, /\$'…' quote/],
		[`curl -H 'a' \\\n -H "b\\"`, /double quote/]
	])('refuses %j with a typed error saying which quote is open', (text, message) => {
		expect(() => shellWords(text)).toThrow(MacInputError);
		expect(thrownEnglish(() => shellWords(text))).toMatch(message);
		expect(thrownEnglish(() => shellWords(text))).toMatch(/line \d+, column \d+/);
	});

	it('gives the error the Signed request field', () => {
		try {
			shellWords("'open");
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(MacInputError);
			expect((error as MacInputError).field).toBe('Signed request');
		}
	});

	it('returns no words for blank input and survives binary junk', () => {
		expect(shellWords('  \n\t ')).toEqual([]);
		const junk = String.fromCharCode(...Array.from({ length: 256 }, (_, code) => code));
		expect(() => shellWords(junk)).toThrow(MacInputError);
		expect(shellWords('\u0000\u0001 \u00ff')).toEqual(['\u0000\u0001', '\u00ff']);
	});
});

describe('shellWords (Windows cmd)', () => {
	it('detects cmd by its carets and POSIX otherwise', () => {
		expect(detectDialect('curl ^"https://h/^" ^\n  -H ^"a^"')).toBe('cmd');
		expect(detectDialect("curl 'https://h/?a=1^2' -H 'x: ^y'")).toBe('posix');
	});

	it("reads Chrome's “Copy as cURL (cmd)” paste back to the original words", () => {
		const pasted = [
			`curl ${chromeCmdQuote(url)} ^`,
			`  -H ${chromeCmdQuote('accept: */*')} ^`,
			`  -H ${chromeCmdQuote(header)} ^`,
			`  -H ${chromeCmdQuote('sec-ch-ua: "Chromium";v="124"')} ^`,
			`  -H ${chromeCmdQuote('x-path: C:\\dir\\"q"\\')} ^`,
			'  --compressed'
		].join('\r\n');
		expect(pasted).toContain('^\\^"');
		expect(shellWords(pasted)).toEqual([
			'curl',
			url,
			'-H',
			'accept: */*',
			'-H',
			header,
			'-H',
			'sec-ch-ua: "Chromium";v="124"',
			'-H',
			// As curl.exe receives it: Chrome doubles every backslash, the C runtime halves only those
			// before a quote.
			'x-path: C:\\\\dir\\"q"\\',
			'--compressed'
		]);
	});

	it('keeps a line break inside a value, written as caret, LF, LF', () => {
		expect(shellWords(`curl ${chromeCmdQuote('a\nb')}`)).toEqual(['curl', 'a\nb']);
	});

	it('reads the older cmd style with plain double quotes and "" for a quote', () => {
		expect(shellWords('curl "https://h/?a=1&b=2" -H "x: say ""hi""" ^\n -v')).toEqual([
			'curl',
			'https://h/?a=1&b=2',
			'-H',
			'x: say "hi"',
			'-v'
		]);
	});

	it('refuses an unbalanced quote in cmd style too', () => {
		expect(thrownEnglish(() => shellWords('curl ^"https://h/^" -H "open', 'cmd'))).toMatch(
			/double quote/
		);
	});
});
