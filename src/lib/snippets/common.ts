// The programs' comments are in the page's language; what they print stays English, as a log
// line does.
import { MacInputError } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';
import type { SnippetOptions } from './types';

export const DEFAULT_MAC_KEY_ENV = 'MAC_KEY';

/** The options every generator reads, defaults filled in. */
export interface Resolved {
	url: string;
	kid: string;
	macKeyEnv: string;
	inlineMacKey: string | undefined;
	fixed: { ts: string; nonce: string } | undefined;
	/** Between the header's parts: `,` or `, `. */
	separator: string;
	/** The message a program prints when mac_key is not in the environment. */
	missingKey: string;
}

export function resolve(options: SnippetOptions): Resolved {
	const macKeyEnv = options.macKeyEnv ?? DEFAULT_MAC_KEY_ENV;
	// Every language must be able to name the variable without quoting it (shell in particular).
	if (!/^[A-Z_]\w*$/i.test(macKeyEnv)) {
		throw new MacInputError(
			'macKeyEnv',
			`"${macKeyEnv}" cannot name an environment variable: use letters, digits and _.`
		);
	}
	return {
		url: options.url,
		kid: options.kid,
		macKeyEnv,
		inlineMacKey: options.inlineMacKey,
		fixed: options.fixed,
		separator: options.space ? ', ' : ',',
		missingKey: `Set ${macKeyEnv} to the mac_key of the SDK login result.`
	};
}

/** A comment of one or more lines: each line of `text` after `prefix` (indent and marker, `  // `). */
export function comment(prefix: string, text: string): string {
	return text
		.split('\n')
		.map((line) => prefix + line)
		.join('\n');
}

/** The opening comment of every program, with the language's comment marker. */
export function purpose(marker: string, command: string, macKeyEnv: string | null): string {
	const run = `${macKeyEnv ? `${macKeyEnv}='<mac_key>' ` : ''}${command}`;
	return comment(
		`${marker} `,
		`${m.snippets_program_purpose()}\n${m.snippets_program_run()} ${run}   ${m.snippets_program_dry_run()}`
	);
}

export const inlineKeyNote = (): string => m.snippets_program_inline_key();
export const fixedNote = (): string => m.snippets_program_fixed();
