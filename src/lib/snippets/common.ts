import { MacInputError } from '$lib/mac';
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
	if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(macKeyEnv)) {
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

/** The opening comment of every program, with the language's comment marker. */
export function purpose(marker: string, command: string, macKeyEnv: string | null): string {
	return [
		'Signs a GET request with a MAC token (HMAC-SHA-1), prints the Authorization header, sends it.',
		`Run: ${macKeyEnv ? `${macKeyEnv}='<mac_key>' ` : ''}${command}   (DRY_RUN=1 only prints the header)`
	]
		.map((line) => `${marker} ${line}`)
		.join('\n');
}

export const INLINE_KEY_NOTE = 'mac_key inlined on request: keep this file out of version control.';
export const FIXED_NOTE = "fixed: the page's ts and nonce, to compare the header with the page.";
