// The operations of spec §4 and the scopes of §1, checked against the spec's words.
import { describe, expect, it } from 'vitest';
import {
	OPERATIONS,
	SCOPES,
	operationAt,
	operationForScopes,
	operationUrl,
	type Operation
} from './operations';

describe('the operations (spec §4)', () => {
	it('are the two read operations at the paths of §4.1 and §4.2, each under version v1 (§9)', () => {
		// §4.1 `GET {base_url}/account/basic-info/v1?client_id=<client_id>`,
		// §4.2 `GET {base_url}/account/profile/v1?client_id=<client_id>`.
		expect(OPERATIONS['basic-info'].path).toBe('/account/basic-info/v1');
		expect(OPERATIONS.profile.path).toBe('/account/profile/v1');
		expect(Object.keys(OPERATIONS)).toEqual(['basic-info', 'profile']);
	});

	it('each need the scope §1 selects them by, and the scopes are those of §2.3', () => {
		expect(OPERATIONS['basic-info'].scope).toBe('basic_info');
		expect(OPERATIONS.profile.scope).toBe('public_profile');
		expect([...SCOPES]).toEqual(['basic_info', 'public_profile']);
	});

	it('are found by their path alone, and nothing else is', () => {
		for (const id of Object.keys(OPERATIONS) as Operation[])
			expect(operationAt(OPERATIONS[id].path)).toBe(id);
		expect(operationAt('/account/profile/v2')).toBeUndefined();
		expect(operationAt('/account/profile/v1/')).toBeUndefined();
		expect(operationAt('/')).toBeUndefined();
	});
});

describe('operationForScopes (spec §1)', () => {
	it('calls basic information when only basic_info was granted', () => {
		expect(operationForScopes(['basic_info'])).toEqual({
			operation: 'basic-info',
			reason: 'basic_info_only'
		});
	});

	it('calls the detailed profile when public_profile was granted, with or without basic_info', () => {
		expect(operationForScopes(['public_profile']).operation).toBe('profile');
		expect(operationForScopes(['basic_info', 'public_profile']).operation).toBe('profile');
	});

	it('names no operation without either scope, and says why', () => {
		expect(operationForScopes([])).toEqual({ operation: null, reason: 'no_scope' });
		expect(operationForScopes(['email']).operation).toBeNull();
	});
});

describe('operationUrl', () => {
	it('joins base URL, path and client_id without doubling slashes', () => {
		expect(operationUrl('https://open.tapapis.cn/', '/account/basic-info/v1', 'abc')).toBe(
			'https://open.tapapis.cn/account/basic-info/v1?client_id=abc'
		);
	});

	it('encodes client_id once, so it arrives as typed', () => {
		expect(operationUrl('https://h', '/p', 'a b&c')).toBe('https://h/p?client_id=a%20b%26c');
	});
});
