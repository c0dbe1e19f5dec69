import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MacInputError, baseString, hmac, sign } from '$lib/mac';

// draft-ietf-oauth-v2-http-mac-01 §1.1, the example this scheme comes from.
const draftExample = baseString({
	ts: '1336363200',
	nonce: 'dj83hs9s',
	method: 'GET',
	uri: '/resource/1?b=1&a=2',
	host: 'example.com',
	port: 80
});

describe('sign', () => {
	it('reproduces the correct mac of the draft example', async () => {
		expect(await sign('489dks293j39', draftExample)).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');
	});

	it('does not reproduce the mac the draft prints, which no implementation does', async () => {
		expect(await sign('489dks293j39', draftExample)).not.toBe('bhCQXTVyfj5cmA9uKkPFx1zeOXM=');
	});

	it('keys and hashes as UTF-8, matching node:crypto', async () => {
		const key = 'clé-秘密-🔑';
		const text = '1700000000\nnönce\nGET\n/p?q=%E2%9C%93\nexample.com\n443\n\n';
		const expected = createHmac('sha1', Buffer.from(key, 'utf8'))
			.update(text, 'utf8')
			.digest('base64');
		expect(await sign(key, text)).toBe(expected);
	});

	it('gives the hex digest of the same bytes', async () => {
		const digest = await hmac('489dks293j39', draftExample);
		expect(digest.hex).toBe(Buffer.from('6T3zZzy2Emppni6bzL7kdRxUWL4=', 'base64').toString('hex'));
		expect(digest.bytes).toHaveLength(20);
	});

	it('signs with SHA-256 when asked', async () => {
		const expected = createHmac('sha256', 'k').update('t').digest('base64');
		expect((await hmac('k', 't', 'SHA-256')).base64).toBe(expected);
	});

	it('refuses an empty mac_key with a message naming the field', async () => {
		await expect(sign('', draftExample)).rejects.toThrow(MacInputError);
		await expect(sign('', draftExample)).rejects.toMatchObject({ field: 'mac_key' });
	});
});

describe('hmac with a key given as bytes', () => {
	it('uses the bytes as-is, not their text form (the Base64-decoded mac_key mistake)', async () => {
		const raw = Uint8Array.from([0x00, 0xff, 0x10, 0x80, 0x7f]);
		const expected = createHmac('sha1', Buffer.from(raw)).update(draftExample).digest('base64');
		expect((await hmac(raw, draftExample)).base64).toBe(expected);
		expect((await hmac(raw, draftExample)).base64).not.toBe(
			(await hmac('\u0000\u00ff\u0010\u0080\u007f', draftExample)).base64
		);
	});

	it('gives the same digest for the UTF-8 bytes of a key as for the key', async () => {
		const bytes = new TextEncoder().encode('489dks293j39');
		expect((await hmac(bytes, draftExample)).base64).toBe('6T3zZzy2Emppni6bzL7kdRxUWL4=');
	});

	it('refuses zero bytes like an empty mac_key', async () => {
		await expect(hmac(new Uint8Array(0), draftExample)).rejects.toMatchObject({ field: 'mac_key' });
	});
});
