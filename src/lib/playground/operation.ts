/** The two read operations (spec §4) and where they live under a deployment's base URL. */
export const OPERATIONS = {
	'basic-info': { path: '/account/basic-info/v1', label: 'Basic information (§4.1)' },
	profile: { path: '/account/profile/v1', label: 'Detailed profile (§4.2)' }
} as const;

export type Operation = keyof typeof OPERATIONS;

export const SCOPES = ['basic_info', 'public_profile'] as const;
export type Scope = (typeof SCOPES)[number];

export interface OperationChoice {
	operation: Operation | null;
	reason: string;
}

/** Spec §1's rule: public_profile → the profile; only basic_info → basic information. */
export function operationForScopes(scopes: readonly string[]): OperationChoice {
	if (scopes.includes('public_profile')) {
		return {
			operation: 'profile',
			reason: 'public_profile was granted, so the detailed profile is called.'
		};
	}
	if (scopes.includes('basic_info')) {
		return {
			operation: 'basic-info',
			reason: 'Only basic_info was granted, so basic information is called.'
		};
	}
	return {
		operation: null,
		reason: 'No scope is granted: the spec names no operation without basic_info or public_profile.'
	};
}

/** The full URL of an operation: the base URL without trailing slashes, the path, and client_id encoded once. */
export function operationUrl(baseUrl: string, path: string, clientId: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${path}?client_id=${encodeURIComponent(clientId)}`;
}
