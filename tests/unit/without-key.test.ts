// What /verify says before the mac_key is given: the mac's shape told by its length and alphabet,
// digests made here by node:crypto in every form people send them; and the request's other findings.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findingsWithoutKey, macShape } from '$lib/diagnosis/without-key';
import { headerFormatOf } from '$lib/read/header-format';

const base =
	'1764320000\nbm9uY2U=\nGET\n/account/basic-info/v1?client_id=abc\nopen.tapapis.cn\n443\n\n';
const sha1 = createHmac('sha1', 'key').update(base);
const raw1 = sha1.digest();
const raw256 = createHmac('sha256', 'key').update(base).digest();

describe('macShape', () => {
	it.each([
		['Base64 HMAC-SHA-1', raw1.toString('base64'), 'base64-sha1'],
		['Base64 without padding', raw1.toString('base64').slice(0, 27), 'base64-sha1-unpadded'],
		['hex, lower case', raw1.toString('hex'), 'hex-sha1'],
		['hex, upper case', raw1.toString('hex').toUpperCase(), 'hex-sha1'],
		['Base64 SHA-256', raw256.toString('base64'), 'base64-sha256'],
		['hex SHA-256', raw256.toString('hex'), 'hex-sha256'],
		[
			'a plain SHA-1 of the base string, hex',
			createHash('sha1').update(base).digest('hex'),
			'hex-sha1'
		],
		['no digest at all', 'not-a-mac', 'other'],
		['empty', '', 'other'],
		['a megabyte', 'A'.repeat(1_000_000), 'other']
	])('%s', (_, mac, shape) => {
		expect(macShape(mac)).toBe(shape);
	});

	it('tells Base64URL by its alphabet', () => {
		// Digests until one holds a character Base64URL writes differently.
		let n = 0;
		let url = '';
		while (!/[-_]/.test(url)) url = createHmac('sha1', `k${n++}`).update(base).digest('base64url');
		expect(macShape(url)).toBe('base64url-sha1');
		expect(macShape(`${url}=`)).toBe('base64url-sha1');
	});
});

describe('findingsWithoutKey', () => {
	const mac = raw1.toString('base64');
	const keys = (request: Parameters<typeof findingsWithoutKey>[0]) =>
		findingsWithoutKey(request).map((found) => found.key);

	it('says only the mac shape for a request as the spec writes it', () => {
		expect(
			keys({
				authorization: { ts: '1764320000', mac },
				url: 'https://open.tapapis.cn/account/basic-info/v1?client_id=abc'
			})
		).toEqual(['verify_found_mac_base64']);
	});

	it('names ts in milliseconds, a written port, an older host and a missing client_id', () => {
		expect(
			keys({
				authorization: { ts: '1764320000123', mac: raw1.toString('hex') },
				url: 'https://openapi.taptap.com:443/account/basic-info/v1'
			})
		).toEqual([
			'verify_found_ts_milliseconds',
			'verify_found_port',
			'verify_found_host_legacy',
			'verify_found_no_client_id',
			'verify_found_mac_hex'
		]);
	});

	it('puts the header format first, with what was seen', () => {
		const format = headerFormatOf(`MAC id='k',ts='1764320000',nonce='n',mac='${mac}'`);
		const found = findingsWithoutKey({
			authorization: { ts: '1764320000', mac },
			headerFormat: format ?? undefined
		});
		expect(found[0]?.key).toBe('verify_found_header_format');
		expect(found[0]?.params).toMatchObject({ seen: expect.stringContaining("id='k'") });
	});
});
