// Property tests of the protocol core's parsers: whatever is pasted, a parser
// returns a well-formed result or throws the typed MacInputError, never anything else; and what the
// core writes (a header, a shell word, a URL) reads back as it was written.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	CredentialError,
	authorizationHeader,
	isSupportedAlgorithm,
	parseAuthorization,
	parseCredential,
	requestTarget,
	shellQuote,
	type MacHeaderParams
} from '$lib/mac';
import { shellWords } from '$lib/read';
import {
	NASTY,
	RUNS,
	headerParams,
	headerValue,
	hostile,
	huge,
	jsonValueText,
	mostly,
	mutated,
	objectText,
	outcome,
	quickly,
	utf16Unit
} from './property-arbitraries';

// ---- Generators shared by the properties below -------------------------------------------------

const PARAM_NAMES = [
	'id',
	'ts',
	'nonce',
	'mac',
	'ext',
	'ID',
	'Nonce',
	'x',
	'__proto__',
	'constructor',
	'toString',
	''
];

/**
 * A header as people paste it: the four parameters (or most of them) in any order and case, quoted
 * or bare, with stray, repeated or unknown parameters mixed in, and any prefix and separators.
 */
const headerText = fc
	.tuple(
		mostly(
			fc.constantFrom('', 'Authorization: ', 'authorization:', 'AUTHORIZATION :  ', '  '),
			fc.constantFrom('Proxy: ', 'Authorization', ':')
		),
		mostly(
			fc.constantFrom('MAC ', 'mac  ', 'Mac\t'),
			fc.constantFrom('Bearer ', 'MAC', '', 'MAC-X ')
		),
		headerParams,
		mostly(
			fc.constant<[string, string][]>([]),
			fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), fc.oneof(headerValue, hostile)), {
				minLength: 1,
				maxLength: 2
			})
		),
		fc.nat(),
		fc.array(
			fc.tuple(
				mostly(fc.constantFrom('=', ' = ', '= '), fc.constantFrom('==', ':', '')),
				mostly(fc.constant('"'), fc.constantFrom('', "'", '"\\')),
				mostly(fc.constantFrom(',', ', ', ' ,', ',\r\n '), fc.constantFrom('', ',,', ';'))
			),
			{ minLength: 8, maxLength: 8 }
		)
	)
	.map(([prefix, scheme, params, extras, rotation, styles]) => {
		const entries: [string, string][] = [...Object.entries(params), ...extras];
		const turn = rotation % entries.length;
		const ordered = [...entries.slice(turn), ...entries.slice(0, turn)];
		return (
			prefix +
			scheme +
			ordered
				.map(([name, value], index) => {
					const [equals, quote, separator] = styles[index % styles.length] ?? ['=', '"', ','];
					const last = index === ordered.length - 1;
					return `${name}${equals}${quote}${value}${quote}${last ? '' : separator}`;
				})
				.join('')
		);
	});

// ---- parseAuthorization / authorizationHeader ----------------------------------------------------

/** `name="value"` for each parameter, in the spec's order, written independently of the app. */
function parameters(params: MacHeaderParams): string[] {
	const order: (keyof MacHeaderParams)[] = params.ext
		? ['id', 'ts', 'nonce', 'ext', 'mac']
		: ['id', 'ts', 'nonce', 'mac'];
	return order.map((name) => `${name}="${params[name] ?? ''}"`);
}

function expectHeaderParams(params: MacHeaderParams): void {
	expect(
		Object.keys(params).every((key) => ['id', 'ts', 'nonce', 'mac', 'ext'].includes(key))
	).toBe(true);
	for (const key of ['id', 'ts', 'nonce', 'mac'] as const) {
		expect(typeof params[key]).toBe('string');
		expect(params[key]).not.toBe('');
	}
	if ('ext' in params) expect(typeof params.ext).toBe('string');
	expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
}

describe('parseAuthorization (property)', () => {
	it('gives four non-empty params or a MacInputError for any text', () => {
		fc.assert(
			fc.property(fc.oneof(hostile, headerText, mutated(headerText)), (text) => {
				const result = outcome(() => parseAuthorization(text));
				if (result.ok) expectHeaderParams(result.value);
				else expect(result.error.field).toBe('Authorization');
			}),
			RUNS
		);
	});

	it('reads any header authorizationHeader writes back to the same params, in any paste form', () => {
		fc.assert(
			fc.property(
				headerParams,
				fc.boolean(),
				fc.constantFrom('', 'Authorization: ', 'authorization:  ', '  '),
				fc.constantFrom(',', ', ', ',\r\n   ', ',\n\t', ' , '),
				(params, space, prefix, wrap) => {
					const header = authorizationHeader(params, { space });
					const parts = parameters(params);
					// The spec's layout: name="value", in order, ext only when non-empty.
					expect(header).toBe(`MAC ${parts.join(space ? ', ' : ',')}`);
					const expected = { ...params };
					if (!params.ext) delete expected.ext;
					expect(parseAuthorization(prefix + header)).toEqual(expected);
					// Pasted from a log that wraps long lines, or separated some other way.
					expect(parseAuthorization(`${prefix}MAC ${parts.join(wrap)}`)).toEqual(expected);
				}
			),
			RUNS
		);
	});

	it('authorizationHeader accepts exactly the printable-ASCII values without " and \\, else MacInputError', () => {
		fc.assert(
			fc.property(
				fc.record({
					id: fc.oneof(headerValue, hostile),
					ts: fc.oneof(headerValue, hostile),
					nonce: headerValue,
					mac: fc.oneof(headerValue, hostile)
				}),
				(params) => {
					const acceptable = [params.id, params.ts, params.nonce, params.mac].every((value) =>
						/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/.test(value)
					);
					const result = outcome(() => authorizationHeader(params));
					expect(result.ok).toBe(acceptable);
					if (result.ok) expect(result.value.startsWith('MAC id="')).toBe(true);
				}
			),
			RUNS
		);
	});

	it('reads a header at most once per parameter: a repeated one, in any case, is a MacInputError', () => {
		fc.assert(
			fc.property(
				headerParams,
				fc.constantFrom('id', 'ts', 'nonce', 'mac'),
				fc.boolean(),
				fc.nat(),
				(params, name, upper, at) => {
					const parts = parameters(params);
					// Anywhere among the others: first, between two, or last.
					parts.splice(at % (parts.length + 1), 0, `${upper ? name.toUpperCase() : name}="x"`);
					const result = outcome(() => parseAuthorization(`MAC ${parts.join(',')}`));
					expect(result.ok).toBe(false);
					if (!result.ok) expect(result.error.message).toContain('twice');
				}
			),
			RUNS
		);
	});
});

// ---- parseCredential -------------------------------------------------------------------------------

const CREDENTIAL_KEYS = [
	'kid',
	'access_token',
	'accessToken',
	'token_type',
	'tokenType',
	'mac_key',
	'macKey',
	'mac_algorithm',
	'macAlgorithm',
	'scopeSet',
	'scope_set',
	'scopes',
	'scope',
	'data',
	'__proto__',
	'constructor',
	'prototype',
	'toString',
	'valueOf'
];

const credentialLike: fc.Arbitrary<string> = fc.letrec<{ object: string }>((tie) => ({
	object: fc
		.array(
			fc.tuple(
				fc.oneof(fc.constantFrom(...CREDENTIAL_KEYS), fc.string({ maxLength: 10 })),
				fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonValueText, tie('object'))
			),
			{ maxLength: 9 }
		)
		.map(objectText)
})).object;

/** `[[[…]]]` or `{"data":{"data":…}}` nested deeper than any recursive reader could follow. */
const deeplyNested = fc
	.tuple(fc.integer({ min: 1000, max: 100_000 }), fc.constantFrom('[', '{"data":', '{"__proto__":'))
	.map(([depth, open]) => {
		const close = open === '[' ? ']' : '}';
		return `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`;
	});

const validCredential = fc.record({
	kid: fc.string({ minLength: 1, maxLength: 30 }).filter((value) => value.trim() !== ''),
	mac_key: fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== ''),
	token_type: fc.constantFrom('mac', 'MAC', ''),
	mac_algorithm: fc.constantFrom('hmac-sha-1', 'HMAC-SHA-1', ' hmac-sha-1 '),
	scopes: fc.array(fc.stringMatching(/^[a-z_]{1,12}$/), { maxLength: 4 })
});

/** A valid login result with hostile keys mixed in, as JSON text (keys may repeat, or be __proto__). */
const validCredentialText = fc
	.tuple(
		validCredential,
		fc.array(fc.tuple(fc.constantFrom(...CREDENTIAL_KEYS), jsonValueText), { maxLength: 3 }),
		fc.boolean()
	)
	.map(([credential, extras, extrasFirst]) => {
		const own = Object.entries(credential).map(([key, value]): [string, string] => [
			key,
			JSON.stringify(value)
		]);
		return objectText(extrasFirst ? [...extras, ...own] : [...own, ...extras]);
	});

describe('parseCredential (property)', () => {
	it('gives a complete credential or a MacInputError for any text, JSON or not', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					hostile,
					credentialLike,
					credentialLike.map((object) => `{"data":${object}}`),
					mutated(credentialLike),
					validCredentialText,
					mutated(validCredentialText),
					fc.jsonValue().map((value) => JSON.stringify(value))
				),
				(text) => {
					const result = outcome(() => parseCredential(text));
					if (result.ok) {
						const credential = result.value;
						for (const field of ['kid', 'access_token', 'token_type', 'mac_key'] as const)
							expect(typeof credential[field]).toBe('string');
						expect(credential.kid.trim()).not.toBe('');
						expect(credential.mac_key.trim()).not.toBe('');
						expect(isSupportedAlgorithm(credential.mac_algorithm)).toBe(true);
						expect(Array.isArray(credential.scopes)).toBe(true);
						for (const scope of credential.scopes) {
							expect(typeof scope).toBe('string');
							expect(scope).not.toBe('');
						}
					} else if (result.error instanceof CredentialError) {
						expect(result.error.issues.length).toBeGreaterThan(0);
					}
				}
			),
			RUNS
		);
	});

	it('survives JSON nested 100 000 deep with a MacInputError, not a stack overflow', () => {
		fc.assert(
			fc.property(deeplyNested, (text) => {
				expect(outcome(() => parseCredential(text)).ok).toBe(false);
			}),
			{ numRuns: 30 }
		);
	});

	it('reads every valid login result, snake_case or camelCase, bare or wrapped in data', () => {
		fc.assert(
			fc.property(validCredential, fc.boolean(), fc.boolean(), (credential, camel, wrapped) => {
				const object = camel
					? {
							kid: credential.kid,
							macKey: credential.mac_key,
							tokenType: credential.token_type,
							macAlgorithm: credential.mac_algorithm,
							scopeSet: credential.scopes
						}
					: credential;
				const text = JSON.stringify(wrapped ? { data: object, now: 1, success: true } : object);
				const parsed = parseCredential(text);
				expect(parsed.kid).toBe(credential.kid);
				expect(parsed.access_token).toBe(credential.kid);
				expect(parsed.mac_key).toBe(credential.mac_key);
				expect(parsed.token_type).toBe(credential.token_type);
				expect(parsed.scopes).toEqual(credential.scopes);
			}),
			RUNS
		);
	});
});

// ---- requestTarget -------------------------------------------------------------------------------

const urlLike = fc
	.tuple(
		fc.constantFrom(
			'https://',
			'http://',
			'HTTPS://',
			'ftp://',
			'javascript:',
			'file:///',
			'',
			'//',
			'https:'
		),
		fc.constantFrom(
			'open.tapapis.cn',
			'OPEN.TapApis.COM',
			'[::1]',
			'[fe80::1%25eth0]',
			'127.0.0.1',
			'user:pw@h',
			'@h',
			'xn--nxasmq6b.example',
			'bücher.de',
			'h:0',
			'h:65536',
			'h:443',
			'h:80',
			'',
			'%41.example',
			'a b'
		),
		fc.oneof(
			fc.webPath(),
			fc.string({ unit: fc.constantFrom(...NASTY, 'a', '/', '.', '..'), maxLength: 20 })
		),
		fc.option(fc.oneof(fc.webQueryParameters(), hostile)),
		fc.option(fc.webFragments())
	)
	.map(
		([scheme, host, path, query, fragment]) =>
			`${scheme}${host}${path}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`
	);

describe('requestTarget (property)', () => {
	it('gives a signable target or a MacInputError for any text', () => {
		fc.assert(
			fc.property(fc.oneof(hostile, urlLike, mutated(urlLike), fc.webUrl()), (text) => {
				const result = outcome(() => requestTarget(text));
				if (!result.ok) {
					expect(result.error.field).toBe('url');
					return;
				}
				const target = result.value;
				expect(target.uri.startsWith('/')).toBe(true);
				expect(target.href).toMatch(/^https?:\/\/[^#]*$/);
				expect(target.host).not.toBe('');
				expect(target.host).toBe(target.host.toLowerCase());
				expect(target.port).toMatch(/^\d+$/);
				const reparsed = new URL(target.href);
				expect(reparsed.origin + target.uri).toBe(target.href);
				// What the target names is what a second reading names: the href is already normal.
				expect(requestTarget(target.href)).toEqual(target);
			}),
			RUNS
		);
	});

	it('takes any http(s) URL: the URI is the path and query as sent, the fragment dropped', () => {
		fc.assert(
			fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
				const target = requestTarget(url);
				const parsed = new URL(url);
				const query =
					parsed.search === '' && parsed.href.split('#')[0]?.endsWith('?') ? '?' : parsed.search;
				expect(target.uri).toBe(parsed.pathname + query);
				expect(target.host).toBe(parsed.hostname);
				expect(target.port).toBe(parsed.port || (parsed.protocol === 'https:' ? '443' : '80'));
			}),
			RUNS
		);
	});
});

// ---- shellQuote ------------------------------------------------------------------------------------

const anyWord = fc.oneof(
	fc.string({ unit: 'binary', maxLength: 30 }),
	fc.string({ unit: utf16Unit, maxLength: 30 }),
	fc.string({ unit: fc.constantFrom(...NASTY, 'a', '-', '~'), maxLength: 12 })
);

describe('shellQuote (property)', () => {
	it('quotes any word so that a POSIX shell gives it back unchanged', () => {
		fc.assert(
			fc.property(anyWord, (word) => {
				expect(shellWords(shellQuote(word), 'posix')).toEqual([word]);
			}),
			RUNS
		);
	});

	it('quotes a list of words so that POSIX shellWords splits it back into the same words', () => {
		fc.assert(
			fc.property(
				fc.array(anyWord, { maxLength: 8 }),
				fc.constantFrom(' ', '  ', ' \\\n  ', '\t'),
				(words, gap) => {
					expect(shellWords(words.map(shellQuote).join(gap), 'posix')).toEqual(words);
				}
			),
			RUNS
		);
	});
});

// ---- Huge input ----------------------------------------------------------------------------------

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('parseAuthorization, parseCredential and requestTarget answer quickly on 50-250 kB', () => {
		fc.assert(
			fc.property(
				huge(
					['MAC ', 'Authorization: MAC id="', 'MAC id=', '{"kid":"', '[', 'https://h/', 'http://'],
					[
						'a',
						'id="x",',
						'ts=',
						'"',
						'\\',
						' ',
						',',
						'{"a":',
						'[',
						'%',
						'/..',
						'?a=1&',
						'\u00e9',
						'😀'
					]
				),
				(text) => {
					quickly(() => parseAuthorization(text));
					quickly(() => parseCredential(text));
					quickly(() => requestTarget(text));
					quickly(() => shellQuote(text));
				}
			),
			{ numRuns: 25 }
		);
	});
});
