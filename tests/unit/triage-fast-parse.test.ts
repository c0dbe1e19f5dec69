// The bulk path's fast readers against the core's parsers, on realistic, damaged and hostile text:
// wherever a fast reader answers, its answer is the core's (for both URI forms), and on the common
// shapes it does answer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attempt, authorizationHeader, parseAuthorization, requestTarget } from '$lib/mac';
import { fastAuthorization, fastTarget, type ShapeOut } from '$lib/triage/fast-parse';
import { headerShape } from '$lib/diagnosis/likely-client';
import { SAMPLE_NONCES } from '$lib/diagnosis/client-profiles';
import { NASTY, hostile, mutated, mostly } from './property-arbitraries';

const RUNS = { numRuns: 3000 };

const nastyPiece = fc.constantFrom(...NASTY);
const valueChar = fc.oneof(
	{ arbitrary: fc.constantFrom(...'abcXYZ019+/=-_.:'), weight: 10 },
	{ arbitrary: fc.constantFrom(...NASTY, ' ', 'MAC ', 'id="', ',', '=', '"'), weight: 1 }
);
const value = fc.string({ unit: valueChar, maxLength: 12 });
const name = mostly(
	fc.constantFrom('id', 'ts', 'nonce', 'mac', 'ext'),
	fc.constantFrom('ID', 'Ts', 'bodyhash', 'x', '', ' id', 'id ', 'n-once', 'nonce\n')
);
const separator = mostly(
	fc.constantFrom(',', ', '),
	fc.constantFrom(' ,', ',  ', ';', '', ',\n', ',\t')
);

/** Headers as clients write them, with now and then a flaw: a name, a separator, a quote. */
const headerLike = fc
	.tuple(
		mostly(
			fc.constant('MAC '),
			fc.constantFrom('mac ', 'MAC  ', 'MAC\t', ' MAC ', 'Authorization: MAC ', 'Bearer ', 'MAC')
		),
		fc.array(fc.tuple(name, mostly(fc.constant('"'), fc.constantFrom('', "'", '\\"')), value), {
			minLength: 0,
			maxLength: 7
		}),
		fc.array(separator, { minLength: 7, maxLength: 7 }),
		mostly(fc.constant(''), fc.constantFrom(' ', ',', '\n', '"', ', '))
	)
	.map(
		([scheme, params, separators, tail]) =>
			scheme +
			params
				.map(
					([key, quote, text], index) =>
						`${index === 0 ? '' : separators[index]}${key}=${quote}${text}${quote}`
				)
				.join('') +
			tail
	);

const wellFormed = fc
	.record(
		{
			id: fc.string({ unit: fc.constantFrom(...'abcXYZ019-_'), minLength: 1, maxLength: 24 }),
			ts: fc.integer({ min: 0, max: 2 ** 32 }).map(String),
			nonce: fc.string({ unit: fc.constantFrom(...'abcXYZ019+/='), minLength: 1, maxLength: 16 }),
			mac: fc.base64String({ minLength: 4, maxLength: 28 }).filter((mac) => mac !== ''),
			ext: fc.string({ unit: fc.constantFrom(...'abc 019=,:'), maxLength: 8 })
		},
		{ requiredKeys: ['id', 'ts', 'nonce', 'mac'] }
	)
	.chain((params) =>
		fc.boolean().map((space) => ({ params, header: authorizationHeader(params, { space }) }))
	);

describe('fastAuthorization', () => {
	it('reads only what parseAuthorization reads, and reads it the same', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					headerLike,
					mutated(headerLike),
					hostile,
					wellFormed.map((w) => w.header),
					mutated(wellFormed.map((w) => w.header))
				),
				(header) => {
					const fast = fastAuthorization(header);
					if (fast === null) return;
					const core = attempt(() => parseAuthorization(header));
					expect(core.ok).toBe(true);
					if (core.ok) expect(fast).toStrictEqual(core.value);
				}
			),
			RUNS
		);
	});

	it('answers for every header authorizationHeader writes', () => {
		fc.assert(
			fc.property(wellFormed, ({ params, header }) => {
				const expected = params.ext === '' ? { ...params, ext: undefined } : params;
				const fast = fastAuthorization(header);
				expect(fast).not.toBeNull();
				expect({ ...fast, ext: fast?.ext || undefined }).toStrictEqual({
					...expected,
					ext: expected.ext || undefined
				});
				expect(fast).toStrictEqual(parseAuthorization(header));
			}),
			RUNS
		);
	});

	it("tells the header's shape as headerShape does, in the same pass", () => {
		// Nonces and ts of every style headerShape tells, and near misses of each.
		const nonce = fc.oneof(
			fc.constantFrom(...Object.values(SAMPLE_NONCES), '8IBTHwOdqNKAWeKl7plt8A==', '=='),
			fc
				.uint8Array({ minLength: 16, maxLength: 16 })
				.map((bytes) => btoa(String.fromCharCode(...bytes))),
			fc
				.uint8Array({ minLength: 15, maxLength: 17 })
				.map((bytes) => btoa(String.fromCharCode(...bytes))),
			fc.stringMatching(/^[A-Za-z]{15,17}$/),
			fc.stringMatching(/^[a-zA-Z0-9]{16}$/),
			fc.integer({ min: 0, max: 2 ** 32 }).map(String),
			fc.stringMatching(/^0\d{0,10}$/),
			fc.string({ unit: fc.constantFrom(...'abcXYZ019+/= -_'), minLength: 1, maxLength: 26 })
		);
		const ts = fc.oneof(
			fc.stringMatching(/^\d{1,14}$/),
			fc.stringMatching(/^0\d{9}$/),
			fc.constantFrom('0', '00', '1763800000', '1763800000123', '-1', '1e9', '17638OOOOO')
		);
		const header = fc
			.tuple(
				fc.record(
					{
						id: fc.string({ unit: fc.constantFrom(...'abcXYZ019-_'), minLength: 1, maxLength: 8 }),
						ts,
						nonce,
						mac: fc.base64String({ minLength: 4, maxLength: 28 }).filter((mac) => mac !== ''),
						ext: fc.string({ unit: fc.constantFrom(...'abc 019=,:'), maxLength: 8 })
					},
					{ requiredKeys: ['id', 'ts', 'nonce', 'mac'] }
				),
				fc.array(fc.constantFrom(',', ', '), { minLength: 4, maxLength: 4 }),
				fc.boolean()
			)
			.map(([params, separators, shuffled]) => {
				const entries = Object.entries(params);
				if (shuffled) entries.reverse();
				return (
					'MAC ' +
					entries
						.map(
							([key, value], index) =>
								`${index === 0 ? '' : separators[index - 1]}${key}="${value}"`
						)
						.join('')
				);
			});
		fc.assert(
			fc.property(fc.oneof(header, headerLike, mutated(header), hostile), (text) => {
				const out: ShapeOut = { shape: -1 };
				if (fastAuthorization(text, out) === null) return;
				expect(out.shape).toBe(headerShape(text));
			}),
			RUNS
		);
	});

	it('leaves the flawed and the unusual to the core', () => {
		for (const header of [
			'MAC id="a",ts="1",nonce="n",mac="m",id="b"',
			'MAC id="a",ts="1",nonce="n"',
			'MAC id="",ts="1",nonce="n",mac="m"',
			'MAC id="a",ts="1",nonce="n",mac="m",bodyhash="x"',
			'MAC id="a\\"b",ts="1",nonce="n",mac="m"',
			'MAC id=a,ts="1",nonce="n",mac="m"',
			'mac id="a",ts="1",nonce="n",mac="m"',
			'MAC id="a",ts="1",nonce="n",mac="m" ',
			'MAC id="a",ts="1",nonce="n",mac="m",',
			'MAC ID="a",ts="1",nonce="n",mac="m"',
			'MAC id="a",ts="1",\n nonce="n",mac="m"',
			'MAC id="a\n b",ts="1",nonce="n",mac="m"'
		])
			expect(fastAuthorization(header), header).toBeNull();
	});
});

const hostLabel = fc.oneof(
	{ arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/), weight: 6 },
	{
		arbitrary: fc.constantFrom(
			'1',
			'0x1f',
			'255',
			'xn--nxasmq6b',
			'EXAMPLE',
			'a_b',
			'-a',
			'a-',
			'',
			'é',
			'%41',
			'[::1]'
		),
		weight: 1
	}
);
const host = fc.array(hostLabel, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const port = mostly(
	fc.constantFrom('', ':443', ':80', ':8443', ':1'),
	fc.constantFrom(':', ':0', ':080', ':65535', ':65536', ':99999', ':0443', ':x', ':443:1')
);
const pathChar = fc.oneof(
	{ arbitrary: fc.constantFrom(...'abcXYZ0129-._~!$&()*+,;=:@/%'), weight: 12 },
	{
		arbitrary: fc.constantFrom(
			...NASTY,
			'%2e',
			'%2E',
			'%2f',
			'.',
			'..',
			'/./',
			'/../',
			'%20',
			'\\',
			'^',
			'|'
		),
		weight: 1
	}
);
const pathLike = fc.string({ unit: pathChar, maxLength: 24 });
const urlLike = fc
	.tuple(
		mostly(
			fc.constantFrom('https://', 'http://'),
			fc.constantFrom(
				'HTTPS://',
				'ftp://',
				'https:/',
				'https:\\\\',
				' https://',
				'https://user@',
				'https://u:p@',
				''
			)
		),
		host,
		port,
		mostly(fc.constant('/'), fc.constantFrom('', '?', '#', '\\', '/.', '/..', ' ')),
		pathLike,
		fc.option(
			pathLike.map((query) => `?${query}`),
			{ nil: '' }
		),
		mostly(fc.constant(''), fc.constantFrom('#f', ' ', '\n', '?', "'"))
	)
	.map((parts) => parts.join(''));

describe('fastTarget', () => {
	it('reads only URLs requestTarget reads, as it reads them in both URI forms', () => {
		fc.assert(
			fc.property(fc.oneof(urlLike, mutated(urlLike), hostile, nastyPiece), (url) => {
				const fast = fastTarget(url);
				if (fast === null) return;
				for (const uri of ['as-written', 'browser'] as const) {
					const core = attempt(() => requestTarget(url, { uri }));
					expect(core.ok, `${uri}: ${url}`).toBe(true);
					if (core.ok)
						expect(fast, `${uri}: ${url}`).toStrictEqual({
							uri: core.value.uri,
							host: core.value.host,
							port: core.value.port
						});
				}
			}),
			RUNS
		);
	});

	it('answers for the URLs a client calls', () => {
		for (const url of [
			'https://open.tapapis.cn/account/profile/v1?client_id=abc',
			'https://open.tapapis.com/account/basic-info/v1?client_id=a-b_c~d&scope=x%20y',
			'http://localhost:8080/account/profile/v1',
			'https://open.tapapis.cn:443/account/profile/v1?'
		])
			expect(fastTarget(url), url).not.toBeNull();
	});

	it('leaves the unusual to the core', () => {
		for (const url of [
			'https://Open.tapapis.cn/a',
			'https://open.tapapis.cn',
			'https://open.tapapis.cn?x=1',
			'https://open.tapapis.cn/a/../b',
			'https://open.tapapis.cn/a/%2e%2E/b',
			"https://open.tapapis.cn/a?x='1'",
			'https://open.tapapis.cn/a#frag',
			'https://127.0.0.1/a',
			'https://user@open.tapapis.cn/a',
			'https://open.tapapis.cn:0443/a',
			' https://open.tapapis.cn/a'
		])
			expect(fastTarget(url), url).toBeNull();
	});
});
