import { describe, expect, it } from 'vitest';
import { BASE_STRING_RULES, baseString, baseStringLines } from '$lib/mac';

const input = {
	ts: '1336363200',
	nonce: 'dj83hs9s',
	method: 'GET',
	uri: '/resource/1?b=1&a=2',
	host: 'example.com',
	port: 80
};

describe('baseString', () => {
	it('joins the seven lines in spec order, each terminated by LF', () => {
		expect(baseString(input)).toBe(
			'1336363200\ndj83hs9s\nGET\n/resource/1?b=1&a=2\nexample.com\n80\n\n'
		);
	});

	it('ends with two LFs when ext is empty', () => {
		expect(baseString(input).endsWith('80\n\n')).toBe(true);
		expect(baseString({ ...input, ext: '' })).toBe(baseString(input));
	});

	it('puts a non-empty ext on the seventh line', () => {
		expect(baseString({ ...input, ext: 'a,b' }).endsWith('\n80\na,b\n')).toBe(true);
	});

	it('takes the port as a string or a number', () => {
		expect(baseString({ ...input, port: '443' })).toBe(baseString({ ...input, port: 443 }));
	});

	it('keeps values exactly: no case folding, trimming or encoding', () => {
		const base = baseString({ ...input, method: 'get', uri: '/a%2Fb?q=x%20y', nonce: ' n ' });
		expect(base.split('\n')).toEqual([
			'1336363200',
			' n ',
			'get',
			'/a%2Fb?q=x%20y',
			'example.com',
			'80',
			'',
			''
		]);
	});
});

describe('baseStringLines', () => {
	it('numbers and names each line, with the value it takes', () => {
		const lines = baseStringLines({ ...input, port: 443 });
		expect(lines.map((line) => [line.number, line.key, line.value])).toEqual([
			[1, 'ts', '1336363200'],
			[2, 'nonce', 'dj83hs9s'],
			[3, 'method', 'GET'],
			[4, 'uri', '/resource/1?b=1&a=2'],
			[5, 'host', 'example.com'],
			[6, 'port', '443'],
			[7, 'ext', '']
		]);
	});

	it('explains every line', () => {
		expect(BASE_STRING_RULES).toHaveLength(7);
		for (const rule of BASE_STRING_RULES) expect(rule.explanation.length).toBeGreaterThan(20);
	});
});
