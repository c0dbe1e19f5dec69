// The core's messages as codes: every code of the table is thrown by a public function with the
// English text a page and the tests already know, and a page's own table renders the same code.
import { describe, expect, it } from 'vitest';
import * as core from '$lib/mac';
import {
	CredentialError,
	MAC_ERROR_MESSAGES,
	MacInputError,
	macErrorMessage,
	type MacErrorCode,
	type MacErrorMessages
} from '$lib/mac';

const DRAFT_0 =
	' It looks like draft 0 of MAC authentication (a nonce of "age:random", no ts, a bodyhash): the service signs draft 1, with a ts (oauthlib: prepare_mac_header(…, draft=1)).';

const LINES = { ts: '1', nonce: 'n', method: 'GET', uri: '/', host: 'h', port: '443', ext: '' };

interface Example {
	/** A call of the public API that throws (or rejects with) the code. */
	run: () => unknown;
	field: string;
	message: string;
}

/** One call per code; a code added to the table without an example here fails `npm run check`. */
const EXAMPLES: Record<MacErrorCode, Example> = {
	missing: {
		run: () => core.toHex(undefined as never),
		field: 'bytes',
		message: 'bytes is missing.'
	},
	not_text: {
		run: () => core.utf8Bytes(3 as never),
		field: 'text',
		message: 'text must be text, not a number.'
	},
	not_bytes: {
		run: () => core.toBase64([1] as never),
		field: 'bytes',
		message: 'bytes must be bytes, not an array.'
	},
	not_object: {
		run: () => core.baseStringLines(null as never),
		field: 'base string input',
		message: 'base string input must be an object, not null.'
	},
	empty: {
		run: () => core.checkHeaderValue('nonce', ''),
		field: 'nonce',
		message: 'nonce is empty.'
	},
	not_base64: {
		run: () => core.fromBase64('***'),
		field: 'text',
		message: 'text is not Base64 (A-Z, a-z, 0-9 and + / or - _).'
	},
	unsupported_hash: {
		run: () => core.hmac('k', 't', 'MD5' as never),
		field: 'mac_algorithm',
		message: 'Cannot sign with MD5: SHA-1 or SHA-256 only.'
	},
	empty_key: {
		run: () => core.sign('', 'text'),
		field: 'mac_key',
		message: 'mac_key is empty: paste the key from the SDK login result.'
	},
	not_json: {
		run: () => core.parseCredential('kid=abc'),
		field: 'credential',
		message: 'This is not JSON: paste the login result object, {"kid": …, "mac_key": …}.'
	},
	not_json_object: {
		run: () => core.parseCredential('[1]'),
		field: 'credential',
		message: 'Expected a JSON object with kid, mac_key and the other login fields.'
	},
	credential_not_string: {
		run: () => core.parseCredential('{"kid": 42, "mac_key": "k"}'),
		field: 'kid',
		message: 'kid must be a string, not number.'
	},
	unsupported_algorithm: {
		run: () =>
			core.parseCredential('{"kid": "k", "mac_key": "m", "mac_algorithm": "hmac-sha-256"}'),
		field: 'mac_algorithm',
		message: 'mac_algorithm "hmac-sha-256" is not supported: the service signs with hmac-sha-1.'
	},
	bad_scopes: {
		run: () => core.parseCredential('{"kid": "k", "mac_key": "m", "scopeSet": 3}'),
		field: 'scopes',
		message: 'scopeSet must be a list of strings such as ["basic_info"].'
	},
	credential: {
		run: () =>
			core.parseCredential('{"token_type": "mac", "mac_algorithm": "hmac-sha-1", "mac_key": " "}'),
		field: 'kid',
		message: 'kid is missing. mac_key is empty.'
	},
	url_empty: { run: () => core.requestTarget('  '), field: 'url', message: 'The URL is empty.' },
	url_no_scheme: {
		run: () => core.requestTarget('example.com/a'),
		field: 'url',
		message: '"example.com/a" has no scheme: start it with https:// (or http://).'
	},
	url_invalid: {
		run: () => core.requestTarget('https://exa mple.com/'),
		field: 'url',
		message: '"https://exa mple.com/" is not a valid URL.'
	},
	url_scheme: {
		run: () => core.requestTarget('ftp://example.com/'),
		field: 'url',
		message: 'Only https:// and http:// URLs can be signed, not ftp://.'
	},
	url_credentials: {
		run: () => core.requestTarget('https://user:pw@example.com/'),
		field: 'url',
		message: 'The URL carries a user name or password; remove it (browsers refuse such URLs).'
	},
	// URL parses no http(s) URL without a host, so this guard is reached through the table alone.
	url_no_host: {
		run: () => {
			throw new MacInputError('url', { code: 'url_no_host', params: {} });
		},
		field: 'url',
		message: 'The URL has no host.'
	},
	bad_time: {
		run: () => core.timestamp(-1),
		field: 'ts',
		message: 'The time must be milliseconds since 1970, a number of 0 or more.'
	},
	nonce_kind: {
		run: () => core.randomNonce('hex' as never),
		field: 'nonce',
		message: 'A nonce is drawn as base64 or letters.'
	},
	header_quote: {
		run: () => core.checkHeaderValue('ext', 'a"b'),
		field: 'ext',
		message: 'ext contains ", which a quoted header value cannot carry.'
	},
	header_control: {
		run: () => core.checkHeaderValue('ext', 'a\nb'),
		field: 'ext',
		message: 'ext contains a control character (U+000A); remove it.'
	},
	header_non_ascii: {
		run: () => core.checkHeaderValue('ext', 'café'),
		field: 'ext',
		message: 'ext contains "é": header values must be ASCII.'
	},
	header_empty: {
		run: () => core.parseAuthorization('Authorization: '),
		field: 'Authorization',
		message: 'The header is empty.'
	},
	header_no_scheme: {
		run: () => core.parseAuthorization('id="a"'),
		field: 'Authorization',
		message: 'Expected "MAC" followed by id, ts, nonce and mac.'
	},
	header_scheme: {
		run: () => core.parseAuthorization('Bearer abc'),
		field: 'Authorization',
		message: 'The scheme is "Bearer", not MAC.'
	},
	header_unreadable: {
		run: () => core.parseAuthorization('MAC id="a" ts'),
		field: 'Authorization',
		message: 'Cannot read the header at "id="a" ts": expected name="value".'
	},
	header_unknown_param: {
		run: () => core.parseAuthorization('MAC id="a", bodyhash="x"'),
		field: 'Authorization',
		message: `Unknown parameter "bodyhash": a MAC header has id, ts, nonce, mac and an optional ext.${DRAFT_0}`
	},
	header_repeated: {
		run: () => core.parseAuthorization('MAC id="a", id="b"'),
		field: 'Authorization',
		message: '"id" appears twice.'
	},
	header_missing: {
		run: () => core.parseAuthorization('MAC id="a", mac="m"'),
		field: 'Authorization',
		message: 'Missing ts, nonce.'
	},
	line_missing: {
		run: () => core.baseString({ ...LINES, host: undefined } as never),
		field: 'host',
		message: 'The host line is missing.'
	},
	line_not_text: {
		run: () => core.baseString({ ...LINES, ts: 5 } as never),
		field: 'ts',
		message: 'The ts line must be text.'
	},
	port_not_text: {
		run: () => core.baseString({ ...LINES, port: -1 } as never),
		field: 'port',
		message: 'The port line must be text or a whole number.'
	},
	unknown_code: {
		run: () => macErrorMessage('nope' as never, {} as never),
		field: 'code',
		message: '"nope" is not the code of a message.'
	},
	no_message: {
		run: () => macErrorMessage('url_empty', {}, {} as MacErrorMessages),
		field: 'messages',
		message: 'The messages have no text for "url_empty".'
	},
	params_mismatch: {
		run: () => macErrorMessage('header_missing', { names: 3 } as never),
		field: 'params',
		message: 'The parameters do not fit the message "header_missing".'
	},
	// Code outside the core still throws with text alone.
	untranslated: {
		run: () => {
			throw new MacInputError('proxy', 'The relay is not reachable.');
		},
		field: 'proxy',
		message: 'The relay is not reachable.'
	}
};

/** The error a call throws or rejects with. */
async function thrownBy(run: () => unknown): Promise<unknown> {
	try {
		await run();
	} catch (error) {
		return error;
	}
	return 'nothing thrown';
}

describe('MacInputError codes', () => {
	it('has an example for exactly the codes of the table', () => {
		expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(MAC_ERROR_MESSAGES).sort());
	});

	for (const [code, example] of Object.entries(EXAMPLES) as [MacErrorCode, Example][]) {
		it(`${code}: thrown with its field, params and the English text`, async () => {
			const error = await thrownBy(example.run);
			expect(error).toBeInstanceOf(MacInputError);
			if (!(error instanceof MacInputError)) return;
			// A credential's issues travel inside one CredentialError, each with its own code.
			const issue =
				error instanceof CredentialError && error.code !== code
					? error.issues.find((candidate) => candidate.code === code)
					: undefined;
			const found = issue ?? error;
			expect(found.code).toBe(code);
			expect(issue?.field ?? error.field).toBe(example.field);
			expect(found.message).toBe(example.message);
			expect(macErrorMessage(found.code, found.params)).toBe(example.message);
		});
	}

	it('the draft-0 hint follows from the params, not from reading the English', () => {
		const error = (() => {
			try {
				core.parseAuthorization('MAC id="a", nonce="264095:7d8f3e4a", mac="m"');
			} catch (caught) {
				return caught as MacInputError;
			}
		})();
		expect(error?.detail).toEqual({
			code: 'header_missing',
			params: { names: ['ts'], draft0: true }
		});
		expect(error?.message).toBe(`Missing ts.${DRAFT_0}`);
	});

	it('a page renders the same code and params with its own table', () => {
		// A stand-in for another language: each message says its code and params its own way.
		const other = Object.fromEntries(
			Object.keys(MAC_ERROR_MESSAGES).map((code) => [
				code,
				(params: object) => `[${code}] ${JSON.stringify(params)}`
			])
		) as unknown as MacErrorMessages;
		const error = new MacInputError('kid', { code: 'missing', params: { field: 'kid' } });
		expect(error.message).toBe('kid is missing.');
		expect(macErrorMessage(error.code, error.params, other)).toBe('[missing] {"field":"kid"}');
	});

	it('a credential error keeps each issue as a code, not only as joined English', () => {
		let caught: unknown;
		try {
			core.parseCredential(
				'{"kid": ["k"], "token_type": "mac", "mac_key": "m", "mac_algorithm": "hmac-sha-1", "scopeSet": {}}'
			);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(CredentialError);
		const error = caught as CredentialError;
		expect(error.code).toBe('credential');
		expect(error.params).toEqual({
			issues: [
				{ code: 'credential_not_string', params: { field: 'kid', kind: 'array' } },
				{ code: 'bad_scopes', params: {} }
			]
		});
		expect(error.issues.map((issue) => issue.message)).toEqual([
			'kid must be a string, not an array.',
			'scopeSet must be a list of strings such as ["basic_info"].'
		]);
		expect(error.message).toBe(
			'kid must be a string, not an array. scopeSet must be a list of strings such as ["basic_info"].'
		);
	});
});

describe("a MacInputError's message", () => {
	it('is the English text of its code and parameters, read when asked for', async () => {
		const { describeMacErrorsWith } = await import('$lib/mac/errors');
		const error = new MacInputError('kid', { code: 'missing', params: { field: 'kid' } });
		expect(error.message).toBe('kid is missing.');
		expect(String(error)).toBe('MacInputError: kid is missing.');
		try {
			describeMacErrorsWith((detail) => `[${detail.code}]`);
			expect(error.message).toBe('[missing]');
		} finally {
			describeMacErrorsWith((detail) => macErrorMessage(detail.code, detail.params as never));
		}
		expect(error.message).toBe('kid is missing.');
	});
});
