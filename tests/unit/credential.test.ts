import { describe, expect, it } from 'vitest';
import { CredentialError, parseCredential } from '$lib/mac';

const sdk = {
	kid: 'kid-123',
	access_token: 'kid-123',
	token_type: 'mac',
	mac_key: 'secret',
	mac_algorithm: 'hmac-sha-1',
	scopeSet: ['basic_info', 'public_profile']
};

function issuesOf(text: string) {
	try {
		parseCredential(text);
	} catch (error) {
		if (error instanceof CredentialError) return error.issues.map((issue) => issue.field);
		throw error;
	}
	return [];
}

describe('parseCredential', () => {
	it('reads the SDK login result', () => {
		expect(parseCredential(JSON.stringify(sdk))).toEqual({
			...sdk,
			scopeSet: undefined,
			scopes: ['basic_info', 'public_profile']
		});
	});

	it('reads scopeSet written as "[a, b]" and camelCase field names', () => {
		const camel = {
			kid: 'k',
			accessToken: 'k',
			tokenType: 'mac',
			macKey: 's',
			macAlgorithm: 'HMAC-SHA-1',
			scopeSet: '[basic_info, public_profile]'
		};
		expect(parseCredential(JSON.stringify(camel))).toMatchObject({
			mac_key: 's',
			scopes: ['basic_info', 'public_profile']
		});
	});

	it('unwraps {"data": {...}}', () => {
		expect(parseCredential(JSON.stringify({ data: sdk, success: true })).kid).toBe('kid-123');
	});

	it('fills access_token from kid when it is absent', () => {
		const withoutAccessToken: Partial<typeof sdk> = { ...sdk };
		delete withoutAccessToken.access_token;
		expect(parseCredential(JSON.stringify(withoutAccessToken)).access_token).toBe('kid-123');
	});

	it('names each missing or bad field', () => {
		expect(
			issuesOf(JSON.stringify({ token_type: 'mac', mac_algorithm: 'hmac-sha-256', scopeSet: 3 }))
		).toEqual(['kid', 'mac_key', 'mac_algorithm', 'scopes']);
		expect(issuesOf(JSON.stringify({ ...sdk, kid: 42 }))).toEqual(['kid']);
		expect(issuesOf(JSON.stringify({ ...sdk, mac_key: '  ' }))).toEqual(['mac_key']);
	});

	it('keeps the good fields when others are bad, so a page can still fill them', () => {
		try {
			parseCredential(JSON.stringify({ ...sdk, mac_algorithm: 'hmac-sha-256' }));
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(CredentialError);
			expect((error as CredentialError).partial).toMatchObject({
				kid: 'kid-123',
				mac_key: 'secret'
			});
			expect((error as CredentialError).message).toMatch(/hmac-sha-256.*not supported/);
		}
	});

	it.each(['', 'kid=1', '[1,2]', 'null', '"x"'])(
		'refuses %j with a message at the paste box',
		(text) => {
			expect(() => parseCredential(text)).toThrow(expect.objectContaining({ field: 'credential' }));
		}
	);
});
