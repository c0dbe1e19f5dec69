/**
 * The sandbox's made-up world: one vendor with two applications, two users, and a token per demo
 * account. Safe to show and share; nothing here is a real credential.
 */
export interface DemoUser {
	id: string;
	name: string;
	/** File name under the sandbox's avatar base URL. */
	avatar: string;
}

export interface DemoApplication {
	clientId: string;
	name: string;
	vendorId: string;
}

export interface DemoAccount {
	id: string;
	label: string;
	userId: string;
	clientId: string;
	scopes: string[];
	/** The credential the SDK hands out at first login; a new login issues a fresh one. */
	kid: string;
	macKey: string;
}

export const DEMO_VENDOR_ID = 'demo-vendor';

export const DEMO_APPLICATIONS: readonly DemoApplication[] = [
	{ clientId: 'demo-client-0001', name: 'Demo Game One', vendorId: DEMO_VENDOR_ID },
	{ clientId: 'demo-client-0002', name: 'Demo Game Two', vendorId: DEMO_VENDOR_ID }
];

export const DEMO_USERS: readonly DemoUser[] = [
	{ id: 'user-ada', name: 'Ada Demo', avatar: 'ada.svg' },
	{ id: 'user-bo', name: 'Bo Demo', avatar: 'bo.svg' }
];

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
	{
		id: 'demo-profile',
		label: 'Demo account with public_profile',
		userId: 'user-ada',
		clientId: 'demo-client-0001',
		scopes: ['basic_info', 'public_profile'],
		kid: 'demo-kid-profile-4f1c',
		macKey: 'demo-mac-key-profile-Q9sLx2'
	},
	{
		id: 'demo-basic',
		label: 'Demo account with basic_info only',
		userId: 'user-bo',
		clientId: 'demo-client-0001',
		scopes: ['basic_info'],
		kid: 'demo-kid-basic-8a2e',
		macKey: 'demo-mac-key-basic-Zr7Wm4'
	}
];

/** The vendor an application belongs to: unionid is the same across one vendor's applications. */
export function vendorOf(clientId: string): string {
	return DEMO_APPLICATIONS.find((app) => app.clientId === clientId)?.vendorId ?? DEMO_VENDOR_ID;
}
