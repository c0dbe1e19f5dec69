// The languages of the code view; the C# line's requirement is read in the page's language.
import { m } from '$lib/paraglide/messages.js';
import { csharpSnippet } from './csharp';
import { goSnippet } from './go';
import { javaSnippet } from './java';
import { nodeSnippet } from './node';
import { phpSnippet } from './php';
import { pythonSnippet } from './python';
import { shellSnippet } from './shell';
import type { LanguageId, SnippetLanguage, SnippetOptions } from './types';

/** The languages integrators sign in, in tab order. */
export const LANGUAGES: readonly SnippetLanguage[] = [
	{
		id: 'node',
		label: 'Node.js',
		fileName: 'sign.mjs',
		command: 'node sign.mjs',
		requires: 'Node.js 18+',
		generate: nodeSnippet
	},
	{
		id: 'python',
		label: 'Python',
		fileName: 'sign.py',
		command: 'python3 sign.py',
		requires: 'Python 3.6+',
		generate: pythonSnippet
	},
	{
		id: 'java',
		label: 'Java',
		fileName: 'Main.java',
		command: 'java Main.java',
		requires: 'Java 11+',
		generate: javaSnippet
	},
	{
		id: 'go',
		label: 'Go',
		fileName: 'main.go',
		command: 'go run main.go',
		requires: 'Go',
		generate: goSnippet
	},
	{
		id: 'php',
		label: 'PHP',
		fileName: 'sign.php',
		command: 'php sign.php',
		requires: 'PHP 8+',
		generate: phpSnippet
	},
	{
		id: 'csharp',
		label: 'C#',
		fileName: 'Program.cs',
		command: 'dotnet run Program.cs',
		get requires() {
			return m.snippets_requires_csharp();
		},
		generate: csharpSnippet
	},
	{
		id: 'shell',
		label: 'Shell (openssl)',
		fileName: 'sign.sh',
		command: 'bash sign.sh',
		requires: 'bash, openssl, curl',
		generate: shellSnippet
	}
];

export function language(id: LanguageId): SnippetLanguage {
	const found = LANGUAGES.find((entry) => entry.id === id);
	if (!found) throw new Error(`No snippet language "${id}".`);
	return found;
}

/** The program for one language. */
export function snippet(id: LanguageId, options: SnippetOptions): string {
	return language(id).generate(options);
}
