// The error codes of spec §7, their statuses and their texts, checked against the spec's table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	ERROR_CODES,
	MAX_ATTEMPTS,
	STATUS_TEXTS,
	isErrorCode,
	type ErrorCode
} from './error-codes';

/** Spec §7's table: error, Meaning, Required client behaviour (backticks as the spec writes them). */
const SPEC_ERRORS: [ErrorCode, string, string][] = [
	[
		'invalid_request',
		'A required parameter is missing, a parameter or value is unsupported, or the format is wrong',
		'Correct the request'
	],
	[
		'invalid_time',
		'The `ts` of the MAC token is not acceptable',
		'Obtain the server time and rebuild the token'
	],
	['invalid_client', 'The `client_id` parameter is invalid', 'Correct client_id'],
	[
		'access_denied',
		'The authorization server rejects the request; occurs when a token is used to request user resources',
		'Sign the user out locally and direct the user to log in again'
	],
	[
		'forbidden',
		'The user has no permission for this action',
		'Re-authentication does not help; do not resubmit the request'
	],
	[
		'not_found',
		'The requested resource does not exist',
		'Do not repeat the request with the same parameters'
	],
	[
		'server_error',
		'The server is in an abnormal condition',
		'May retry after a short wait, with an upper bound of 3 attempts recommended; then stop and tell the user'
	]
];

const english = JSON.parse(
	readFileSync(new URL('../../../messages/errors/en.json', import.meta.url), 'utf8')
) as Record<string, string>;

describe('the error codes (spec §7)', () => {
	it('are the codes of the spec, in its order, and no other', () => {
		expect(Object.keys(ERROR_CODES)).toEqual(SPEC_ERRORS.map(([code]) => code));
		expect(isErrorCode('invalid_time')).toBe(true);
		expect(isErrorCode('toString')).toBe(false);
		expect(isErrorCode('unauthorized')).toBe(false);
	});

	it('come with the statuses of the older documentation (the spec shows none)', () => {
		expect(
			Object.fromEntries(Object.entries(ERROR_CODES).map(([c, { status }]) => [c, status]))
		).toEqual({
			invalid_request: 400,
			invalid_time: 400,
			invalid_client: 401,
			access_denied: 401,
			forbidden: 403,
			not_found: 404,
			server_error: 500
		});
	});

	it("have HTTP's reason phrase for every status they come with, and for success", () => {
		for (const { status } of Object.values(ERROR_CODES)) expect(STATUS_TEXTS[status]).toBeTruthy();
		expect(STATUS_TEXTS[200]).toBe('OK');
		expect(STATUS_TEXTS[401]).toBe('Unauthorized');
		expect(STATUS_TEXTS[500]).toBe('Internal Server Error');
	});

	it("mean and call for, in the pages' English, what the spec's table says", () => {
		const plain = (text: string) => text.replaceAll('`', '').replace(/\.$/, '');
		for (const [code, meaning, behaviour] of SPEC_ERRORS) {
			expect(plain(english[`errors_${code}_meaning`] ?? '')).toBe(plain(meaning));
			expect(plain(english[`errors_${code}_behaviour`] ?? '')).toBe(plain(behaviour));
		}
	});

	it('allow at most 3 attempts after server_error (§7, §8)', () => {
		expect(MAX_ATTEMPTS).toBe(3);
	});
});
