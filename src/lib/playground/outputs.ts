// The core's modules by name (see playground.svelte.ts).
import { curlCommand } from '$lib/mac/curl';
import { MacInputError, attempt, type Outcome } from '$lib/mac/errors';
import { authorizationHeader } from '$lib/mac/header';
import { hmac, type Digest } from '$lib/mac/sign';

export interface SignInput {
	macKey: string;
	base: string;
	kid: string;
	ts: string;
	nonce: string;
	/** The URL exactly as signed. */
	href: string;
	space: boolean;
}

export interface SignedOutputs {
	digest: Digest;
	header: string;
	/** For bash; WindowsCommands builds the same request for cmd and PowerShell from `href`. */
	curl: string;
	/** The URL exactly as signed. */
	href: string;
}

/** The header for a mac of the base string's signature. */
function header(input: SignInput, mac: string): string {
	return authorizationHeader(
		{ id: input.kid, ts: input.ts, nonce: input.nonce, mac },
		{ space: input.space }
	);
}

/** Signature, header and the commands that send it, for one base string: the async end of the playground's chain. */
export async function signOutputs(input: SignInput): Promise<Outcome<SignedOutputs>> {
	try {
		const digest = await hmac(input.macKey, input.base);
		const signed = header(input, digest.base64);
		return {
			ok: true,
			value: { digest, header: signed, curl: curlCommand(input.href, signed), href: input.href }
		};
	} catch (error) {
		// Resolve rather than reject: a page awaiting this shows the message at the field, never a crash.
		if (error instanceof MacInputError) return { ok: false, error };
		throw error;
	}
}

/**
 * The header with a placeholder of the mac's length (28 characters, as Base64 writes 20 bytes):
 * laid out, unseen, until SubtleCrypto answers (and in the prerendered page, which has no
 * signature), so that nothing moves when the real one arrives. Null where no header can be made.
 */
export function placeholderHeader(input: SignInput): string | null {
	const made = attempt(() => header(input, '.'.repeat(28)));
	return made.ok ? made.value : null;
}
