/** What every generator needs to write a program that signs one GET request. */
export interface SnippetOptions {
	/** The request URL, exactly as the program will call it. */
	url: string;
	kid: string;
	/** The environment variable the program reads mac_key from; MAC_KEY unless told otherwise. */
	macKeyEnv?: string;
	/** mac_key written into the code, only when the user asks for it. */
	inlineMacKey?: string;
	/** Fixed mode: these ts and nonce instead of fresh ones, so the output can be compared with the page. */
	fixed?: { ts: string; nonce: string };
	/** A space after each comma of the header (`, `). */
	space?: boolean;
}

export type LanguageId = 'node' | 'python' | 'java' | 'go' | 'php' | 'csharp' | 'shell';

export interface SnippetLanguage {
	id: LanguageId;
	/** The tab's name. */
	label: string;
	fileName: string;
	/** How to run the saved file, from its folder. */
	command: string;
	/** The runtime the command needs. */
	requires: string;
	generate: (options: SnippetOptions) => string;
}
