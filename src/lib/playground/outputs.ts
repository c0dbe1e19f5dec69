// The core's modules by name (see playground.svelte.ts).
import { curlCommand } from '$lib/mac/curl';
import { MacInputError, type Outcome } from '$lib/mac/errors';
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

/** Signature, header and the commands that send it, for one base string: the async end of the playground's chain. */
export async function signOutputs(input: SignInput): Promise<Outcome<SignedOutputs>> {
	try {
		const digest = await hmac(input.macKey, input.base);
		const header = authorizationHeader(
			{ id: input.kid, ts: input.ts, nonce: input.nonce, mac: digest.base64 },
			{ space: input.space }
		);
		return {
			ok: true,
			value: {
				digest,
				header,
				curl: curlCommand(input.href, header),
				href: input.href
			}
		};
	} catch (error) {
		// Resolve rather than reject: a page awaiting this shows the message at the field, never a crash.
		if (error instanceof MacInputError) return { ok: false, error };
		throw error;
	}
}

/**
 * The outputs with a placeholder where the signature goes, of the signature's own length: what the
 * page lays out, hidden, until SubtleCrypto answers (and in the prerendered page, which has no
 * signature), so that nothing moves when the real one arrives.
 */
export function placeholderOutputs(input: SignInput): Outcome<SignedOutputs> {
	const digest: Digest = { bytes: new Uint8Array(20), hex: '.'.repeat(40), base64: '.'.repeat(28) };
	try {
		const header = authorizationHeader(
			{ id: input.kid, ts: input.ts, nonce: input.nonce, mac: digest.base64 },
			{ space: input.space }
		);
		return {
			ok: true,
			value: { digest, header, curl: curlCommand(input.href, header), href: input.href }
		};
	} catch (error) {
		if (error instanceof MacInputError) return { ok: false, error };
		throw error;
	}
}
