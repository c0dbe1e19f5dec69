import { describe, expect, it } from 'vitest';
import { MacInputError, authorizationHeader, parseAuthorization } from '$lib/mac';

const params = { id: 'kid-1', ts: '1700000000', nonce: 'bm9uY2U=', mac: 'abc/+=' };

describe('authorizationHeader', () => {
	it('writes the four parts comma-separated, in spec order', () => {
		expect(authorizationHeader(params)).toBe(
			'MAC id="kid-1",ts="1700000000",nonce="bm9uY2U=",mac="abc/+="'
		);
	});

	it('adds a space after each comma when asked', () => {
		expect(authorizationHeader(params, { space: true })).toBe(
			'MAC id="kid-1", ts="1700000000", nonce="bm9uY2U=", mac="abc/+="'
		);
	});

	it('puts a non-empty ext before mac, and leaves an empty one out', () => {
		expect(authorizationHeader({ ...params, ext: 'x' })).toBe(
			'MAC id="kid-1",ts="1700000000",nonce="bm9uY2U=",ext="x",mac="abc/+="'
		);
		expect(authorizationHeader({ ...params, ext: '' })).toBe(authorizationHeader(params));
	});

	it.each([
		['id', 'a"b', /"/],
		['nonce', 'a\\b', /\\/],
		['ts', '17\r\n00', /control character/],
		['mac', 'x\u0001', /control character/],
		['id', 'ключ', /ASCII/],
		['nonce', '', /empty/]
	] as const)('refuses %s=%j with an error naming the field', (field, value, message) => {
		const call = () => authorizationHeader({ ...params, [field]: value });
		expect(call).toThrow(MacInputError);
		expect(call).toThrow(message);
		try {
			call();
		} catch (error) {
			expect((error as MacInputError).field).toBe(field);
		}
	});
});

describe('parseAuthorization', () => {
	it('reads back what authorizationHeader writes, in both styles', () => {
		for (const space of [false, true]) {
			expect(parseAuthorization(authorizationHeader({ ...params, ext: 'e' }, { space }))).toEqual({
				...params,
				ext: 'e'
			});
		}
	});

	it('accepts a leading "Authorization:" and any case of the scheme', () => {
		expect(
			parseAuthorization(
				`authorization: mac id="kid-1",ts="1700000000",nonce="bm9uY2U=",mac="abc/+="`
			)
		).toEqual(params);
	});

	it('tolerates line breaks and spaces from pasting, even inside a wrapped value', () => {
		const pasted = `  Authorization: MAC id="kid-1",\n   ts="1700000000" ,\r\n nonce="bm9uY2U=",\n mac="abc\n   /+="  \n`;
		expect(parseAuthorization(pasted)).toEqual(params);
	});

	it('accepts bare (unquoted) values', () => {
		expect(parseAuthorization('MAC id=kid-1, ts=1700000000, nonce=bm9uY2U=, mac=abc/+=')).toEqual(
			params
		);
	});

	it.each([
		['', /empty/],
		['Bearer abc', /"Bearer", not MAC/],
		['MACid="a"', /Expected "MAC"/],
		['Hawk id="a", ts="1", nonce="n", mac="m"', /"Hawk", not MAC/],
		['MAC id="a",ts="1",nonce="n"', /Missing mac/],
		['MAC id="a",id="b",ts="1",nonce="n",mac="m"', /twice/],
		['MAC id="a",ts="1",nonce="n",mac="m",foo="x"', /Unknown parameter "foo"/],
		['MAC id="a" ts="1"', /Cannot read/],
		['MAC id="unterminated', /Cannot read/]
	])('says what is wrong with %j', (header, message) => {
		expect(() => parseAuthorization(header)).toThrow(message);
	});
});
