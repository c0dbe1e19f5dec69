import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { SCOPES, type Scope } from '$lib/account-api/operations';

/** A complete set of playground inputs that a user can load with one click. */
export interface Preset {
	/** Names the preset: the page shows its name in its language (texts.ts). */
	id: string;
	kid: string;
	macKey: string;
	scopes: Scope[];
	clientId: string;
	/** Replaces the composed URL, for examples that are not calls to this service. */
	customUrl?: string;
	/** A fixed ts and nonce, for examples whose mac is known. */
	ts?: string;
	nonce?: string;
}

// The sandbox's demo accounts come first, so a new visitor's first Send gets a 200.
export const PRESETS: readonly Preset[] = [
	...DEMO_ACCOUNTS.map((account) => ({
		id: account.id,
		kid: account.kid,
		macKey: account.macKey,
		scopes: account.scopes.filter((scope): scope is Scope =>
			(SCOPES as readonly string[]).includes(scope)
		),
		clientId: account.clientId
	})),
	{
		id: 'draft-example',
		kid: 'h480djs93hd8',
		macKey: '489dks293j39',
		scopes: ['basic_info'],
		clientId: '',
		customUrl: 'http://example.com/resource/1?b=1&a=2',
		ts: '1336363200',
		nonce: 'dj83hs9s'
	}
];

export const DEFAULT_PRESET: Preset = PRESETS[0]!;
