import { describe, expect, it } from 'vitest';
import { operationForScopes, operationUrl } from '$lib/playground/operation';
import { scopeReasonText } from '$lib/playground/texts';

describe('operationForScopes', () => {
	it('calls basic information when only basic_info was granted', () => {
		expect(operationForScopes(['basic_info']).operation).toBe('basic-info');
	});

	it('calls the detailed profile when public_profile was granted, with or without basic_info', () => {
		expect(operationForScopes(['public_profile']).operation).toBe('profile');
		expect(operationForScopes(['basic_info', 'public_profile']).operation).toBe('profile');
	});

	it('names no operation without either scope, and says why', () => {
		const choice = operationForScopes([]);
		expect(choice.operation).toBeNull();
		expect(scopeReasonText(choice.reason)).toMatch(/No scope/);
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
