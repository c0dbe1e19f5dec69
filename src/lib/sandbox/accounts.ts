/**
 * The sandbox's demo accounts, a token each: the page's presets and the sandbox's first tokens.
 * Their users and applications are in directory.ts. Safe to show and share; nothing here is a real
 * credential.
 */
export interface DemoAccount {
	id: string;
	userId: string;
	clientId: string;
	scopes: string[];
	/** The credential the SDK hands out at first login; a new login issues a fresh one. */
	kid: string;
	macKey: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
	{
		id: 'demo-profile',
		userId: 'user-ada',
		clientId: 'demo-client-0001',
		scopes: ['basic_info', 'public_profile'],
		kid: 'demo-kid-profile-4f1c',
		macKey: 'demo-mac-key-profile-Q9sLx2'
	},
	{
		id: 'demo-basic',
		userId: 'user-bo',
		clientId: 'demo-client-0001',
		scopes: ['basic_info'],
		kid: 'demo-kid-basic-8a2e',
		macKey: 'demo-mac-key-basic-Zr7Wm4'
	}
];

/** Whether `kid` is a demo account's, or a later sandbox login's of one (`<kid>-<n>`). */
export function isDemoKid(kid: string): boolean {
	return DEMO_ACCOUNTS.some(
		(account) =>
			kid === account.kid ||
			(kid.startsWith(`${account.kid}-`) && /^\d+$/.test(kid.slice(account.kid.length + 1)))
	);
}

/** Whether `clientId` is the demo application's, the sandbox's only one. */
export function isDemoClientId(clientId: string): boolean {
	return DEMO_ACCOUNTS.some((account) => account.clientId === clientId.trim());
}

/**
 * An accounts file for `--accounts FILE` (src/node/sandbox-server/accounts-file.ts reads it): the
 * example that --help and the sandbox page both show, one active and one revoked account.
 */
export const ACCOUNTS_FILE_EXAMPLE = `[
  { "kid": "ci-kid-1", "mac_key": "ci-secret-1", "client_id": "my-client",
    "scopes": ["basic_info", "public_profile"], "name": "Ada" },
  { "kid": "ci-kid-2", "mac_key": "ci-secret-2", "client_id": "my-client",
    "scopes": ["basic_info"], "state": "revoked" }
]`;
