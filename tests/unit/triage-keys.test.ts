import { describe, expect, it } from 'vitest';
import { parseKeys } from '$lib/triage';

describe('parseKeys', () => {
	it('reads `kid mac_key` lines, any white space between, comments and blank lines ignored', () => {
		const { keyring, problems } = parseKeys(
			'# support desk keys\r\nkid-one\tkey-one\n\n  kid-two    key two?\nkid-three key=3\n'
		);
		expect(problems).toEqual([{ line: 4, code: 'fields' }]);
		expect(keyring.keyFor('kid-one')).toBe('key-one');
		expect(keyring.keyFor('kid-three')).toBe('key=3');
		expect(keyring.keyFor('kid-two')).toBeUndefined();
		expect(keyring.keyFor('toString')).toBeUndefined();
		expect(keyring.kids).toBe(2);
		expect(keyring.everyKid).toBe(false);
	});

	it('takes a single mac_key for every kid', () => {
		const { keyring, problems } = parseKeys('  s3cr3t-key  \n');
		expect(problems).toEqual([]);
		expect(keyring.everyKid).toBe(true);
		expect(keyring.keyFor('any-kid')).toBe('s3cr3t-key');
		expect(keyring.keyFor('another')).toBe('s3cr3t-key');
	});

	it('takes an SDK login result as a line, as the playground does', () => {
		const { keyring, problems } = parseKeys(
			[
				'{"kid":"kid-json-1","mac_key":"json-key","token_type":"mac","mac_algorithm":"hmac-sha-1"}',
				'{"data":{"kid":"kid-json-2","macKey":"json-key-2"}}',
				'{"kid":"only-a-kid"}'
			].join('\n')
		);
		expect(keyring.keyFor('kid-json-1')).toBe('json-key');
		expect(keyring.keyFor('kid-json-2')).toBe('json-key-2');
		expect(problems).toEqual([{ line: 3, code: 'credential' }]);
	});

	it('says which line is wrong, and never with the key in it', () => {
		const { keyring, problems } = parseKeys(
			'kid-a key-a\nkid-a other-key\nlonely-secret\nkid-b key-b\n'
		);
		expect(problems).toEqual([
			{ line: 2, code: 'conflict' },
			{ line: 3, code: 'lone-key' }
		]);
		expect(JSON.stringify(problems)).not.toMatch(/key-a|other-key|lonely-secret/);
		expect(keyring.keyFor('kid-a')).toBe('key-a');
		expect(keyring.everyKid).toBe(false);
		expect(keyring.keyFor('whatever')).toBeUndefined();
	});

	it('holds no key for an empty text', () => {
		const { keyring, problems } = parseKeys('\n# nothing\n');
		expect(problems).toEqual([]);
		expect(keyring.kids).toBe(0);
		expect(keyring.everyKid).toBe(false);
		expect(keyring.keyFor('x')).toBeUndefined();
	});
});

describe('parseKeys and a recording of the sandbox server', () => {
	it('finds the key of a kid masked as the recording masks it, and never guesses between two', () => {
		const { keyring } = parseKeys(
			'demo-kid-profile-4f1c k-profile\ndemo-kid-basic-8a2e k-basic\nuser-1-aa k1\nuser-2-aa k2\n'
		);
		expect(keyring.keyFor('demo...1c')).toBe('k-profile');
		expect(keyring.keyFor('demo...2e')).toBe('k-basic');
		// user-1-aa and user-2-aa both mask as "use...a": neither is guessed.
		expect(keyring.keyFor('use...a')).toBeUndefined();
		expect(keyring.keyFor('demo...')).toBeUndefined();
		expect(keyring.keyFor('...')).toBeUndefined();
	});

	it('reads a sandbox accounts file (a JSON array) as the keys it was made with', () => {
		const accounts = JSON.stringify(
			[
				{ kid: 'acme-kid-000001', mac_key: 'acme-key', client_id: 'c', state: 'active' },
				{ kid: 'beta-kid-000002', mac_key: 'beta key with spaces' }
			],
			null,
			2
		);
		const { keyring, problems } = parseKeys(accounts);
		expect(problems).toEqual([]);
		expect(keyring.kids).toBe(2);
		expect(keyring.keyFor('acme-kid-000001')).toBe('acme-key');
		expect(keyring.keyFor('beta...02')).toBe('beta key with spaces');
		// An array that is not of accounts is read line by line, as before: no kid "a" has a key.
		expect(parseKeys('[{"kid": "a"}]').keyring.keyFor('a')).toBeUndefined();
		expect(parseKeys('[{"kid": "a", "mac_key": 1}]').keyring.keyFor('a')).toBeUndefined();
	});
});
