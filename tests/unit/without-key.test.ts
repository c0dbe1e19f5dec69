// What /verify says before the mac_key is given: the mac's shape told by its length and alphabet,
// digests made here by node:crypto in every form people send them; and the request's other findings.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findingsWithoutKey, keylessFindings, macShape, tsUnits } from '$lib/diagnosis/without-key';
import { headerFormatOf } from '$lib/read/header-format';
import { clockCheck } from '$lib/diagnosis/clock-check';

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
		[
			".NET's BitConverter.ToString",
			[...raw1].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('-'),
			'hex-dashed-sha1'
		],
		[
			"PHP's base64_encode(hash_hmac(…))",
			Buffer.from(raw1.toString('hex')).toString('base64'),
			'base64-of-hex-sha1'
		],
		["Python's str() of the Base64 bytes", `b'${raw1.toString('base64')}'`, 'bytes-repr-sha1'],
		['Base64 of 40 bytes that are not hex', Buffer.alloc(40, 0x7a).toString('base64'), 'other'],
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

	it('says the deployment and the mac shape for a request as the spec writes it', () => {
		expect(
			keys({
				authorization: { ts: '1764320000', mac },
				url: 'https://open.tapapis.cn/account/basic-info/v1?client_id=abc'
			})
		).toEqual(['verify_found_host_domestic', 'verify_found_mac_base64']);
	});

	it("names the overseas deployment's host and the other one to ask about", () => {
		const found = findingsWithoutKey({
			authorization: { ts: '1764320000', mac },
			url: 'https://open.tapapis.com/account/profile/v1?client_id=abc'
		});
		expect(found[0]).toEqual({
			key: 'verify_found_host_overseas',
			params: { host: 'open.tapapis.com', other: 'open.tapapis.cn' }
		});
	});

	it.each([
		['Python time.time()', '1764320000.123456'],
		['PHP microtime(true)', '1764320000.1234']
	])('tells a ts in seconds with a fraction: %s', (_, ts) => {
		expect(keys({ authorization: { ts, mac } })).toEqual([
			'verify_found_ts_float',
			'verify_found_mac_base64'
		]);
	});

	it('judges the window only against the time the request was sent', () => {
		const ts = '1764320000';
		const nowMs = Date.parse('2026-11-28T21:00:00Z');
		// No send time: the window cannot be checked, and the finding says what to ask for.
		const unchecked = findingsWithoutKey({
			authorization: { ts, mac },
			clock: clockCheck(ts, nowMs)
		});
		expect(unchecked[0]?.key).toBe('verify_found_window');
		expect(unchecked[0]?.params).toMatchObject({ check: { key: 'diagnosis_clock_unchecked' } });
		// Sent ten minutes after its ts: outside the window assumed, said against the send time.
		const sent = { ms: (Number(ts) + 600) * 1000, source: 'log' as const, zoneKnown: true };
		const late = clockCheck(ts, nowMs, undefined, sent);
		expect(late.likelyInvalidTime).toBe(true);
		const found = findingsWithoutKey({ authorization: { ts, mac }, clock: late });
		expect(found[0]).toEqual({ key: 'verify_found_window', params: { check: late.message } });
		// A ts in milliseconds is refused whatever the time: no window finding beside it.
		const ms = `${ts}123`;
		expect(keys({ authorization: { ts: ms, mac }, clock: clockCheck(ms, nowMs) })).toEqual([
			'verify_found_ts_milliseconds',
			'verify_found_mac_base64'
		]);
	});

	it('reads hostile input in linear time', () => {
		const sizes = [20_000, 320_000];
		const times = sizes.map((size) => {
			const request = {
				authorization: { ts: `${'1'.repeat(size)}.`, mac: '='.repeat(size) },
				url: `https://open.tapapis.cn:${'4'.repeat(size)}/${'a/'.repeat(size)}?${'&'.repeat(size)}`
			};
			const start = performance.now();
			findingsWithoutKey(request);
			return performance.now() - start;
		});
		// 16x the input: a quadratic reader takes 256x; allow for the noise of a busy machine.
		expect(times[1]).toBeLessThan(Math.max(times[0] ?? 0, 1) * 64);
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

describe('tsUnits and keylessFindings (the triage of a kid with no key)', () => {
	it.each([
		['1764320000', 'seconds'],
		['0964320000', 'seconds'],
		['1764320000123', 'milliseconds'],
		['1764320000.5', 'float'],
		['1764320000.', 'other'],
		['2025-11-28T08:53:20Z', 'other'],
		['', 'other']
	])('%s is %s', (ts, units) => {
		expect(tsUnits(ts)).toBe(units);
	});

	it('names nothing for a request the service would take as it looks', () => {
		expect(keylessFindings('1764320000', raw1.toString('base64'))).toEqual([]);
	});

	it('names the ts units and the mac shape otherwise', () => {
		expect(keylessFindings('1764320000123', raw1.toString('hex'))).toEqual([
			'ts-milliseconds',
			'mac-hex-sha1'
		]);
		expect(keylessFindings('1764320000.25', raw256.toString('base64'))).toEqual([
			'ts-float',
			'mac-base64-sha256'
		]);
		expect(keylessFindings('x'.repeat(1_000_000), '')).toEqual(['ts-other', 'mac-other']);
	});
});
