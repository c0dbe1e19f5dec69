// Programs that sign a request in the languages integrators use: plain TypeScript, no Svelte.
export { DEFAULT_MAC_KEY_ENV } from './common';
export { csharpSnippet } from './csharp';
export { goSnippet } from './go';
export { javaSnippet } from './java';
export { LANGUAGES, language, snippet } from './languages';
export { nodeSnippet } from './node';
export { phpSnippet } from './php';
export { pythonSnippet } from './python';
export { shellSnippet } from './shell';
export {
	csharpString,
	goString,
	javaString,
	jsString,
	phpString,
	pythonString,
	shellString
} from './string-literals';
export type { LanguageId, SnippetLanguage, SnippetOptions } from './types';
