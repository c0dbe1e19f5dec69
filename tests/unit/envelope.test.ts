import { describe, expect, it } from 'vitest';
import { readBody, wrap } from '$lib/account-api/envelope';

describe('readBody', () => {
	it('reads the wrapped error the real service sends, msg included', () => {
		const body = JSON.stringify({
			data: { code: 0, error: 'invalid_time', error_description: 'ts', msg: 'Bad ts' },
			now: 1700000000,
			success: false
		});
		expect(readBody(body)).toEqual({
			kind: 'error',
			error: { code: 0, error: 'invalid_time', error_description: 'ts', msg: 'Bad ts' },
			now: 1700000000,
			wrapped: true
		});
	});

	it('reads the bare error object of the spec', () => {
		expect(readBody('{"code":1,"error":"forbidden","error_description":"no"}')).toMatchObject({
			kind: 'error',
			wrapped: false,
			error: { error: 'forbidden' }
		});
	});

	it('reads wrapped and bare data', () => {
		expect(readBody(JSON.stringify(wrap({ openid: 'o' }, true, 1_700_000_000_500)))).toEqual({
			kind: 'data',
			data: { openid: 'o' },
			now: 1700000000,
			wrapped: true
		});
		expect(readBody('{"openid":"o","unionid":"u"}')).toMatchObject({
			kind: 'data',
			wrapped: false
		});
	});

	it('says when a body is an HTML page, not JSON, or empty', () => {
		expect(
			readBody('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>')
		).toEqual({ kind: 'html', title: '502 Bad Gateway' });
		expect(readBody('upstream timed out')).toEqual({
			kind: 'not-json',
			excerpt: 'upstream timed out'
		});
		expect(readBody('  ')).toEqual({ kind: 'empty' });
		expect(readBody('[1,2]')).toMatchObject({ kind: 'unexpected-json' });
	});
});
