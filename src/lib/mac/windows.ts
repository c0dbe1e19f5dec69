import { quotedCurlCommand } from './curl';
import { requireText } from './errors';

// The signed request as a Windows user runs it: curl.exe from cmd, and PowerShell's Invoke-RestMethod.

/**
 * Quotes a word for cmd.exe and then curl.exe's C runtime, as devtools' "Copy as cURL (cmd)" does.
 * For the C runtime: `"` becomes `\"`, and the backslashes before a quote (or before the closing
 * quote) are doubled; other backslashes are literal. For cmd: the word is opened and closed with
 * `^"`, so cmd never enters its own quoting, and every character that is not plainly safe gets a
 * caret. A `%` before a name character is followed by a caret too (`%^PATH%`): cmd expands
 * variables before it reads carets, and a name starting with a caret names no variable. A line
 * break is `^` LF LF: the caret joins the lines and keeps the second line break.
 */
export function cmdQuote(word: string): string {
	requireText('word', word);
	const caret = crtQuote(word)
		.replace(/[^\w \-:=+~'/.,?;*@\r\n]/g, '^$&')
		.replace(/%\b/g, '%^')
		.replace(/\r?\n/g, '^\n\n');
	return `^"${caret}^"`;
}

/**
 * The C runtime's part of cmdQuote: `"` becomes `\"`, and a run of backslashes before a quote or
 * at the end is doubled. One pass that counts each run, not /(\\*)"/g and /(\\+)$/, which try
 * again from every backslash of a long run that no quote ends: quadratic time. What lies between
 * quotes is copied a slice at a time.
 */
function crtQuote(word: string): string {
	let out = '';
	let copiedTo = 0;
	let run = 0;
	for (let index = 0; index < word.length; index++) {
		const char = word.charAt(index);
		if (char === '\\') run += 1;
		else {
			if (char === '"') {
				out += `${word.slice(copiedTo, index)}${'\\'.repeat(run + 1)}"`;
				copiedTo = index + 1;
			}
			run = 0;
		}
	}
	return out + word.slice(copiedTo) + '\\'.repeat(run);
}

/** The same curl command as curlCommand, for cmd.exe (`curl` there is Windows' own curl.exe). */
export function cmdCurlCommand(url: string, authorization: string): string {
	return quotedCurlCommand(url, authorization, cmdQuote);
}

/**
 * A single-quoted PowerShell string: nothing inside is expanded, and a quote is doubled. PowerShell
 * also ends a single-quoted string at the typographic quotes ‘ ’ ‚ ‛, so those are doubled as well.
 */
export function powershellQuote(text: string): string {
	requireText('text', text);
	return `'${text.replace(/['\u2018-\u201b]/g, '$&$&')}'`;
}

/**
 * The signed request as PowerShell's Invoke-RestMethod (Windows PowerShell 5.1 and PowerShell 7),
 * with the URL and the header exactly as signed.
 */
export function powershellCommand(url: string, authorization: string): string {
	requireText('url', url);
	requireText('Authorization', authorization);
	return [
		`Invoke-RestMethod -Method Get -Uri ${powershellQuote(url)} \``,
		`  -Headers @{ 'Authorization' = ${powershellQuote(authorization)} }`
	].join('\n');
}
