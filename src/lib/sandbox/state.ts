import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { DEMO_ACCOUNTS } from './accounts';

export interface SandboxToken {
	kid: string;
	macKey: string;
	accountId: string;
	userId: string;
	clientId: string;
	scopes: string[];
	status: 'valid' | 'invalid';
	/** Why the token became Invalid (spec §3). */
	invalidatedBy?: string;
}

/** Everything the sandbox remembers. A plain object, so a page can make it reactive from outside. */
export interface SandboxState {
	tokens: SandboxToken[];
	/** Accepted clock difference for ts, in seconds either way: a sandbox assumption (spec §5.8 leaves it open). */
	windowSeconds: number;
	/** How far the sandbox's clock runs ahead of this machine's, to show invalid_time and its cure. */
	clockSkewSeconds: number;
	/** Fault switch: the next N requests get server_error. */
	failNext: number;
	/** kid + nonce → when the nonce may be used again (ms). */
	usedNonces: Record<string, number>;
	logins: number;
}

export function initialSandboxState(): SandboxState {
	return {
		tokens: DEMO_ACCOUNTS.map((account) => ({
			kid: account.kid,
			macKey: account.macKey,
			accountId: account.id,
			userId: account.userId,
			clientId: account.clientId,
			scopes: [...account.scopes],
			status: 'valid'
		})),
		windowSeconds: TS_WINDOW_SECONDS,
		clockSkewSeconds: 0,
		failNext: 0,
		usedNonces: {},
		logins: 0
	};
}
