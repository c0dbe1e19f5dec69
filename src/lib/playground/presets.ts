import type { Scope } from './operation';

/** A complete set of playground inputs that a user can load with one click. */
export interface Preset {
	id: string;
	label: string;
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

// The demo accounts of the embedded sandbox: made-up values, safe to show and share.
export const DEMO_CLIENT_ID = 'demo-client-0001';

export const PRESETS: readonly Preset[] = [
	{
		id: 'demo-profile',
		label: 'Demo account with public_profile',
		kid: 'demo-kid-profile-4f1c',
		macKey: 'demo-mac-key-profile-Q9sLx2',
		scopes: ['basic_info', 'public_profile'],
		clientId: DEMO_CLIENT_ID
	},
	{
		id: 'demo-basic',
		label: 'Demo account with basic_info only',
		kid: 'demo-kid-basic-8a2e',
		macKey: 'demo-mac-key-basic-Zr7Wm4',
		scopes: ['basic_info'],
		clientId: DEMO_CLIENT_ID
	},
	{
		id: 'draft-example',
		label: 'Worked example of the draft (§1.1)',
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
