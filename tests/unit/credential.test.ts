import { describe, expect, it } from 'vitest';
import { CredentialError, parseCredential, pastedJson } from '$lib/mac';

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

describe('pastedJson', () => {
	const object =
		'{"kid":"k","mac_key":"a}b{\\"c","token_type":"mac","mac_algorithm":"hmac-sha-1","scopeSet":["basic_info"]}';

	it('finds the JSON object in a logcat line, and what is around it', () => {
		const line = `11-21 10:00:01.123 12345-12345/com.example.game D/TapLogin: onLoginSuccess: ${object}  `;
		expect(pastedJson(line)).toEqual({
			json: object,
			before: '11-21 10:00:01.123 12345-12345/com.example.game D/TapLogin: onLoginSuccess:',
			after: ''
		});
		expect(parseCredential(line).mac_key).toBe('a}b{"c');
	});

	it('joins a login result logged over several logcat lines, in each format logcat writes', () => {
		const pretty = [
			'onLoginSuccess: {',
			'  "kid": "multi-kid",',
			'  "mac_key": "multi-key-with-a-very-',
			'long-tail",',
			'  "token_type": "mac",',
			'  "mac_algorithm": "hmac-sha-1",',
			'  "scopeSet": ["basic_info"]',
			'}'
		];
		const prefixes = [
			'11-21 10:00:01.123  1234  1234 D TapLogin: ',
			'11-21 10:00:01.123 1234-1234/com.example.game D/TapLogin: ',
			'2026-11-21 10:00:01.123  1234-1234  TapLogin                com.example.game                     D  ',
			'D/TapLogin( 1234): '
		];
		for (const prefix of prefixes) {
			const paste = pretty.map((line) => prefix + line).join('\n');
			const credential = parseCredential(paste);
			expect(credential, prefix).toMatchObject({ kid: 'multi-kid', scopes: ['basic_info'] });
			// The line that logcat cut inside the string is joined without a break.
			expect(credential.mac_key, prefix).toBe('multi-key-with-a-very-long-tail');
			expect(pastedJson(paste).before, prefix).toBe('onLoginSuccess:');
		}
	});

	it('joins lines only when two or more carry a logcat prefix', () => {
		const paste = 'D/TapLogin( 1234): {"kid": "k", "mac_key": "cut-\nhere"}';
		// One prefixed line: not a logcat paste; the text is what the parser is given, and reports.
		expect(pastedJson(paste).json).toBe(paste);
		expect(() => parseCredential(paste)).toThrow(/not JSON/);
		const twoLines = paste.replace('\n', '\nD/TapLogin( 1234): ');
		expect(JSON.parse(pastedJson(twoLines).json)).toEqual({ kid: 'k', mac_key: 'cut-here' });
	});

	it('skips braces that are not JSON before the object', () => {
		expect(pastedJson(`I/{main} {oops result={ ${object} done`)).toMatchObject({
			json: object,
			after: 'done'
		});
	});

	it('takes JSON as a whole when it is JSON, and leaves text without an object to the parser', () => {
		expect(pastedJson(' [1,2] ')).toEqual({ json: ' [1,2] ', before: '', after: '' });
		expect(pastedJson('kid=1 {')).toEqual({ json: 'kid=1 {', before: '', after: '' });
		expect(() => parseCredential('onLoginSuccess: {kid: 1}')).toThrow(/not JSON/);
	});
});
