/**
 * The sandbox's vendor, its two applications and its two users: what the service and the sandbox
 * settings need, loaded with them, not with the page (the demo accounts are in accounts.ts). Safe
 * to show and share; nothing here is real.
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

export const DEMO_VENDOR_ID = 'demo-vendor';

export const DEMO_APPLICATIONS: readonly DemoApplication[] = [
	{ clientId: 'demo-client-0001', name: 'Demo Game One', vendorId: DEMO_VENDOR_ID },
	{ clientId: 'demo-client-0002', name: 'Demo Game Two', vendorId: DEMO_VENDOR_ID }
];

export const DEMO_USERS: readonly DemoUser[] = [
	{ id: 'user-ada', name: 'Ada Demo', avatar: 'ada.svg' },
	{ id: 'user-bo', name: 'Bo Demo', avatar: 'bo.svg' }
];

/** The vendor an application belongs to: unionid is the same across one vendor's applications. */
export function vendorOf(clientId: string): string {
	return DEMO_APPLICATIONS.find((app) => app.clientId === clientId)?.vendorId ?? DEMO_VENDOR_ID;
}
