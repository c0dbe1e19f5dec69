import { requireText } from './errors';

/** Quotes a word for POSIX sh: inside single quotes nothing is special but the quote itself. */
export function shellQuote(word: string): string {
	requireText('word', word);
	if (/^[\w@%+=:,./-]+$/.test(word)) return word;
	return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends exactly what was signed. `--globoff` keeps curl from reading [] and {}
 * in a query as ranges; `--path-as-is` keeps it from rewriting /./ and /../ in the path.
 */
export function curlCommand(url: string, authorization: string): string {
	return quotedCurlCommand(url, authorization, shellQuote);
}

/**
 * The curl command that sends exactly what was signed, its words quoted for a shell: bash's
 * here, cmd's in windows.ts.
 */
export function quotedCurlCommand(
	url: string,
	authorization: string,
	quote: (word: string) => string
): string {
	requireText('url', url);
	requireText('Authorization', authorization);
	return [
		'curl',
		'--globoff',
		'--path-as-is',
		quote(url),
		'-H',
		quote(`Authorization: ${authorization}`)
	].join(' ');
}
