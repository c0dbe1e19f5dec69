// Relative: the relay's handler imports this file, and an edge Worker is bundled without $lib.
import { withoutTrailing } from '../mac/encoding';

/**
 * Spec §4: the two read operations, where each lives under a deployment's base URL, and the scope
 * (§1, §2.3) a credential needs for it: the sandbox refuses an operation whose scope was not granted.
 */
export const OPERATIONS = {
	'basic-info': { path: '/account/basic-info/v1', scope: 'basic_info' },
	profile: { path: '/account/profile/v1', scope: 'public_profile' }
} as const;

export type Operation = keyof typeof OPERATIONS;

export const SCOPES = ['basic_info', 'public_profile'] as const;
export type Scope = (typeof SCOPES)[number];

/** The operation at `path` (a URL's path, without its query), if any. */
export function operationAt(path: string): Operation | undefined {
	return (Object.keys(OPERATIONS) as Operation[]).find((id) => OPERATIONS[id].path === path);
}

/** Why the scope rule chose as it did; the page says it in its language. */
export type ScopeReason = 'public_profile' | 'basic_info_only' | 'no_scope';

export interface OperationChoice {
	operation: Operation | null;
	reason: ScopeReason;
}

/** Spec §1's rule: public_profile → the profile; only basic_info → basic information. */
export function operationForScopes(scopes: readonly string[]): OperationChoice {
	if (scopes.includes('public_profile')) {
		return { operation: 'profile', reason: 'public_profile' };
	}
	if (scopes.includes('basic_info')) {
		return { operation: 'basic-info', reason: 'basic_info_only' };
	}
	return { operation: null, reason: 'no_scope' };
}

/** The full URL of an operation: the base URL without trailing slashes, the path, and client_id encoded once. */
export function operationUrl(baseUrl: string, path: string, clientId: string): string {
	return `${withoutTrailing(baseUrl.trim(), '/')}${path}?client_id=${encodeURIComponent(clientId)}`;
}
