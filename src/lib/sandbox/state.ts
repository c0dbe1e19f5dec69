import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { DEMO_ACCOUNTS } from './accounts';
import { DEMO_USERS, vendorOf } from './directory';
import { openid, unionid } from './identifiers';

/** What an account answers with (spec §2.1, §2.2). */
export interface Identity {
	openid: string;
	unionid: string;
	name: string;
	/** An image's address; relative ones resolve against the sandbox's avatar base URL. */
	avatar: string;
}

/** The two triggers of spec §3 that make a token Invalid, as codes: each page words them itself. */
export const INVALID_REASONS = ['security_changed', 'revoked'] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

export interface SandboxToken {
	kid: string;
	macKey: string;
	/** The account the token belongs to: a new login of it gets a fresh token with the same identity. */
	accountId: string;
	clientId: string;
	scopes: string[];
	status: 'valid' | 'invalid';
	/** Why the token became Invalid (spec §3). */
	invalidatedBy?: InvalidReason;
	identity: Identity;
}

/** What the sandbox shows of itself: a copy, handed to those who subscribe to it. */
export interface SandboxSnapshot {
	tokens: readonly SandboxToken[];
	/** Accepted clock difference for ts, in seconds either way: a sandbox assumption (spec §5.8 leaves it open). */
	windowSeconds: number;
	/** How far the sandbox's clock runs ahead of this machine's, to show invalid_time and its cure. */
	clockSkewSeconds: number;
	/** The fault switch: the next N requests get server_error. */
	failNext: number;
}

/** A credential the sandbox is given rather than issues (an accounts file, the visitor's own). */
export interface GivenCredential {
	kid: string;
	macKey: string;
	clientId: string;
	scopes: readonly string[];
	revoked?: boolean;
	/** What it answers with; unset identifiers are made as the demo's are, stable per kid. */
	identity?: { [Field in keyof Identity]?: string | undefined };
}

/** The token of a given credential: an account of its own, whose user is named after the kid. */
export function givenToken(credential: GivenCredential): SandboxToken {
	const { kid, clientId } = credential;
	return {
		kid,
		macKey: credential.macKey,
		accountId: kid,
		clientId,
		scopes: [...credential.scopes],
		status: credential.revoked ? 'invalid' : 'valid',
		...(credential.revoked ? { invalidatedBy: 'revoked' as const } : {}),
		identity: {
			openid: credential.identity?.openid ?? openid(clientId, kid),
			unionid: credential.identity?.unionid ?? unionid('sandbox', kid),
			name: credential.identity?.name ?? '',
			avatar: credential.identity?.avatar ?? ''
		}
	};
}

/** The tokens of the demo accounts, as the sandbox first issues them. */
export function demoTokens(): SandboxToken[] {
	return DEMO_ACCOUNTS.map((account) => {
		const user = DEMO_USERS.find((candidate) => candidate.id === account.userId);
		return {
			kid: account.kid,
			macKey: account.macKey,
			accountId: account.id,
			clientId: account.clientId,
			scopes: [...account.scopes],
			status: 'valid',
			identity: {
				openid: openid(account.clientId, account.userId),
				unionid: unionid(vendorOf(account.clientId), account.userId),
				name: user?.name ?? '',
				avatar: user?.avatar ?? ''
			}
		};
	});
}

export function initialSnapshot(tokens: readonly SandboxToken[] = demoTokens()): SandboxSnapshot {
	return {
		tokens: tokens.map((token) => ({ ...token, scopes: [...token.scopes] })),
		windowSeconds: TS_WINDOW_SECONDS,
		clockSkewSeconds: 0,
		failNext: 0
	};
}
