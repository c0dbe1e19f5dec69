import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MacInputError, type UriForm } from '$lib/mac';
import { MISTAKES, diagnose, type MistakeId } from '$lib/diagnosis';
import { english } from './verify-english';

const KEY = 'k7Qx2mZpR4vN8sLw';
const KID = 'kid-1234567890';
const TS = '1700000000';
const NONCE = 'bm9uY2Ux';
const PATH = '/account/profile/v1';
const URL_CN = `https://open.tapapis.cn${PATH}?client_id=abc123`;

type Encoding =
	| 'base64'
	| 'hex'
	| 'base64url'
	| 'base64url-unpadded'
	| 'base64-unpadded'
	| 'hex-dashed'
	| 'base64-of-hex'
	| 'bytes-repr';

/** The customer's wrong signer, written independently of the catalogue: node:crypto over literal lines. */
function mac(
	base: string,
	{
		key = KEY as string | Buffer,
		hash = 'sha1',
		encoding = 'base64' as Encoding
	}: { key?: string | Buffer; hash?: 'sha1' | 'sha256'; encoding?: Encoding } = {}
): string {
	const digest = createHmac(hash, key).update(base, 'utf8').digest();
	const base64 = digest.toString('base64');
	switch (encoding) {
		case 'hex':
			return digest.toString('hex');
		case 'hex-dashed':
			return [...digest].map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('-');
		case 'base64-of-hex':
			return Buffer.from(digest.toString('hex'), 'latin1').toString('base64');
		case 'bytes-repr':
			return `b'${base64}'`;
		case 'base64url':
			return base64.replace(/\+/g, '-').replace(/\//g, '_');
		case 'base64url-unpadded':
			return digest.toString('base64url');
		case 'base64-unpadded':
			return base64.replace(/={1,2}$/, '');
		default:
			return base64;
	}
}

/** Seven lines, each ending with `end`. */
function lines(values: string[], end = '\n'): string {
	return values.map((value) => value + end).join('');
}

function spec({
	ts = TS,
	nonce = NONCE,
	method = 'GET',
	uri = `${PATH}?client_id=abc123`,
	host = 'open.tapapis.cn',
	port = '443',
	ext = ''
} = {}): string[] {
	return [ts, nonce, method, uri, host, port, ext];
}

interface Case {
	id: MistakeId;
	base: string;
	url?: string;
	uriForm?: UriForm;
	ts?: string;
	nonce?: string;
	key?: string;
	signKey?: string | Buffer;
	hash?: 'sha1' | 'sha256';
	encoding?: Encoding;
	title?: RegExp;
}

// A nonce for which the digest has + or /, so that Base64url and Base64 write it differently.
const SLASHED = { ts: TS, nonce: 'n-slash' };

const cases: Case[] = [
	{
		id: 'host-other-deployment',
		base: lines(spec({ host: 'open.tapapis.com' })),
		title:
			/overseas deployment's host \(open\.tapapis\.com\) instead of the host called \(open\.tapapis\.cn\)/
	},
	{
		id: 'host-legacy',
		base: lines(spec({ host: 'openapi.taptap.com' })),
		title:
			/^Signed openapi\.taptap\.com on the host line, the domestic host of the older docs, while open\.tapapis\.cn was called$/
	},
	{
		id: 'host-legacy',
		url: `https://open.tapapis.com${PATH}?client_id=abc123`,
		base: lines(spec({ host: 'openapi.taptap.com' })),
		title: /the domestic host of the older docs, while open\.tapapis\.com was called$/
	},
	{
		id: 'host-as-written',
		url: `https://Open.TapAPIs.CN${PATH}?client_id=abc123`,
		base: lines(spec({ host: 'Open.TapAPIs.CN' })),
		title:
			/host as the URL writes it \(Open\.TapAPIs\.CN\) instead of in lower case \(open\.tapapis\.cn\)/
	},
	{
		id: 'host-with-port',
		base: lines(spec({ host: 'open.tapapis.cn:443' })),
		title: /Signed the host with its port \(open\.tapapis\.cn:443\)/
	},
	{
		id: 'port-wrong',
		base: lines(spec({ port: '80' })),
		title: /Signed port 80 instead of 443 \(the http port, but the request is https\)/
	},
	{
		id: 'port-wrong',
		url: `https://open.tapapis.cn:8443${PATH}?client_id=abc123`,
		base: lines(spec({ port: '443' })),
		title: /port 443 instead of 8443 .*names port 8443/
	},
	{ id: 'port-empty', base: lines(spec({ port: '' })), title: /port line empty/ },
	{ id: 'port-unset', base: lines(spec({ port: '-1' })), title: /Wrote -1 on the port line/ },
	{ id: 'port-unset', base: lines(spec({ port: 'None' })), title: /Wrote None on the port line/ },
	{
		id: 'trailing-slash',
		base: lines(spec({ uri: `${PATH}/?client_id=abc123` })),
		title: /trailing slash added/
	},
	{
		id: 'trailing-slash',
		url: `https://open.tapapis.cn${PATH}/?client_id=abc123`,
		base: lines(spec({ uri: `${PATH}?client_id=abc123` })),
		title: /trailing slash dropped/
	},
	{
		id: 'path-empty-no-slash',
		url: 'https://open.tapapis.cn?client_id=abc123',
		base: lines(spec({ uri: '?client_id=abc123' })),
		title: /without its leading "\/" \(\?client_id=abc123\): the URL has no path/
	},
	{
		id: 'path-params-dropped',
		url: `https://open.tapapis.cn${PATH};jsessionid=7?client_id=abc123`,
		base: lines(spec({ uri: `${PATH}?client_id=abc123` })),
		title: /without the parameters of its last segment .*";jsessionid=7"/
	},
	{ id: 'query-dropped', base: lines(spec({ uri: PATH })), title: /without its query string/ },
	{
		id: 'query-decoded',
		url: `https://open.tapapis.cn${PATH}?client_id=abc%2B123`,
		base: lines(spec({ uri: `${PATH}?client_id=abc+123` })),
		title: /query string decoded/
	},
	{
		id: 'query-re-encoded',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&scope=basic_info+public_profile`,
		base: lines(spec({ uri: `${PATH}?client_id=abc123&scope=basic_info%20public_profile` })),
		title: /re-encoded/
	},
	{
		id: 'query-re-encoded',
		url: `https://open.tapapis.cn${PATH}?client_id=a%2fb`,
		base: lines(spec({ uri: `${PATH}?client_id=a%2Fb` })),
		title: /re-encoded/
	},
	{
		id: 'query-re-encoded',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&state=it's`,
		uriForm: 'as-written',
		base: lines(spec({ uri: `${PATH}?client_id=abc123&state=it%27s` })),
		title: /as a URL parser writes it/
	},
	{
		id: 'uri-as-typed',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&next=%2Fhome&state=it%27s%20ok`,
		uriForm: 'as-written',
		base: lines(spec({ uri: `${PATH}?client_id=abc123&next=%2Fhome&state=it's ok` })),
		title:
			/^Signed the request URI as typed \(.*state=it's ok\), while the HTTP client sent it percent-encoded/
	},
	{
		id: 'uri-whatwg',
		url: `https://open.tapapis.cn/account/./profile/v1?client_id=abc123&state=it's`,
		uriForm: 'as-written',
		base: lines(spec({ uri: `${PATH}?client_id=abc123&state=it%27s` })),
		title:
			/as Node\.js's URL class writes it, url\.pathname \+ url\.search \(\/account\/profile\/v1\?/
	},
	{
		id: 'uri-dotnet',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&tag=%7Ezoo&p=a|b`,
		uriForm: 'as-written',
		base: lines(spec({ uri: `${PATH}?client_id=abc123&tag=~zoo&p=a%7Cb` })),
		title:
			/as \.NET's Uri\.PathAndQuery writes it \(\/account\/profile\/v1\?client_id=abc123&tag=~zoo&p=a%7Cb\)/
	},
	{
		id: 'query-sorted',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&a=1`,
		base: lines(spec({ uri: `${PATH}?a=1&client_id=abc123` })),
		title: /sorted by name/
	},
	{
		id: 'full-url',
		base: lines(spec({ uri: URL_CN })),
		title: /full URL \(https:\/\/open\.tapapis\.cn\/account/
	},
	{
		id: 'uri-with-port',
		url: `https://open.tapapis.cn:443${PATH}?client_id=abc123`,
		base: lines(spec({ uri: `:443${PATH}?client_id=abc123` })),
		title: /^Signed the request URI with :443 before the path \(:443\/account/
	},
	{
		// What a log shows of the same request: the Host header leaves the default port out.
		id: 'uri-with-port',
		base: lines(spec({ uri: `:443${PATH}?client_id=abc123` })),
		title: /with :443 before the path/
	},
	{
		id: 'uri-with-port',
		url: `http://127.0.0.1:8787${PATH}?client_id=abc123`,
		base: lines(spec({ uri: `:8787${PATH}?client_id=abc123`, host: '127.0.0.1', port: '80' })),
		title: /with :8787 before the path .*, and port 80 of the scheme instead of 8787$/
	},
	{
		id: 'uri-after-last-host',
		url: `https://open.tapapis.cn${PATH}?client_id=abc123&redirect=open.tapapis.cn/cb`,
		base: lines(spec({ uri: '/cb' })),
		title:
			/after the last open\.tapapis\.cn in it \(\/cb instead of \/account\/profile\/v1\?client_id=abc123&redirect=open\.tapapis\.cn\/cb\)/
	},
	{ id: 'method-lower-case', base: lines(spec({ method: 'get' })), title: /lower case \(get\)/ },
	{ id: 'ext-line-dropped', base: spec().join('\n'), title: /ext line is lost/ },
	{ id: 'extra-lf', base: `${lines(spec())}\n`, title: /extra line feed/ },
	{
		id: 'trailing-lfs-stripped',
		base: spec().slice(0, 6).join('\n'),
		title: /ends right after the port line/
	},
	{ id: 'crlf', base: lines(spec(), '\r\n'), title: /CRLF/ },
	{
		id: 'ts-padded',
		ts: '999999999',
		base: lines(spec({ ts: '0999999999' })),
		title: /padded to 10 digits \(0999999999\) while the header has 999999999/
	},
	{
		id: 'ts-unpadded',
		ts: '0999999999',
		base: lines(spec({ ts: '999999999' })),
		title: /without the zero padding/
	},
	{
		id: 'ts-milliseconds',
		base: lines(spec({ ts: '1700000000000' })),
		title: /in milliseconds \(1700000000000\) while the header has seconds/
	},
	{
		id: 'ts-milliseconds',
		ts: '1700000000123',
		base: lines(spec({ ts: '1700000000' })),
		title: /in seconds \(1700000000\) while the header has milliseconds/
	},
	{
		id: 'ts-other',
		base: lines(spec({ ts: '1700000001' })),
		title: /one second later .*clock was read twice/
	},
	{
		id: 'nonce-whitespace',
		base: lines(spec({ nonce: `${NONCE} ` })),
		title: /nonce with a trailing space/
	},
	{
		id: 'nonce-whitespace',
		nonce: ` ${NONCE}`,
		base: lines(spec({ nonce: NONCE })),
		title: /nonce trimmed/
	},
	{
		id: 'nonce-url-encoded',
		nonce: 'ab+c/d==',
		base: lines(spec({ nonce: 'ab%2Bc%2Fd%3D%3D' })),
		title: /nonce URL-encoded/
	},
	{
		id: 'key-whitespace',
		signKey: `${KEY}\n`,
		base: lines(spec()),
		title: /mac_key plus a trailing line feed/
	},
	{
		id: 'key-whitespace',
		key: `${KEY} `,
		signKey: KEY,
		base: lines(spec()),
		title: /mac_key trimmed/
	},
	{
		id: 'key-base64-decoded',
		key: 'c2VjcmV0LWtleS0xMjM0NQ==',
		signKey: Buffer.from('c2VjcmV0LWtleS0xMjM0NQ==', 'base64'),
		base: lines(spec()),
		title: /Base64-decoded the mac_key/
	},
	{
		id: 'key-is-kid',
		signKey: KID,
		base: lines(spec()),
		title:
			/^Signed with the kid \(which the access_token repeats\) as the key instead of the mac_key$/
	},
	{
		// Each character beyond ASCII as "?": .NET's Encoding.ASCII and Java's US-ASCII agree here.
		id: 'key-ascii',
		key: 'clé-密钥',
		signKey: 'cl?-??',
		base: lines(spec()),
		title: /mac_key encoded as ASCII, each non-ASCII character as \?/
	},
	{
		// .NET writes "?" for each UTF-16 code unit: a character beyond U+FFFF is "??".
		id: 'key-ascii',
		key: 'key-😀',
		signKey: 'key-??',
		base: lines(spec()),
		title: /\.NET's Encoding\.ASCII .*as \?\?$/
	},
	{
		id: 'key-ascii',
		key: 'key-😀',
		signKey: 'key-?',
		base: lines(spec()),
		title: /US-ASCII by Java's getBytes\(\): each non-ASCII character as one \?$/
	},
	{
		id: 'key-latin1',
		key: 'clé-密钥',
		signKey: Buffer.from('cl\xe9-??', 'latin1'),
		base: lines(spec()),
		title: /ISO-8859-1 \(Latin-1\)/
	},
	{
		// 密 is C3 DC and 钥 D4 BF in GBK (Java 17's String.getBytes("GBK")).
		id: 'key-gbk',
		key: 'clé-密钥',
		signKey: Buffer.from([0x63, 0x6c, 0xa8, 0xa6, 0x2d, 0xc3, 0xdc, 0xd4, 0xbf]),
		base: lines(spec()),
		title: /encoded as GBK/
	},
	{ id: 'hmac-sha256', hash: 'sha256', base: lines(spec()), title: /HMAC-SHA-256/ },
	{ id: 'digest-hex', encoding: 'hex', base: lines(spec()), title: /as hex/ },
	{
		id: 'digest-hex-dashed',
		encoding: 'hex-dashed',
		base: lines(spec()),
		title: /BitConverter\.ToString/
	},
	{
		id: 'digest-base64-of-hex',
		encoding: 'base64-of-hex',
		base: lines(spec()),
		title: /hex text of the digest/
	},
	{ id: 'digest-bytes-repr', encoding: 'bytes-repr', base: lines(spec()), title: /b'…'/ },
	{
		id: 'digest-base64url',
		...SLASHED,
		encoding: 'base64url',
		base: lines(spec(SLASHED)),
		title: /Base64url \(- and _ instead of \+ and \/\)$/
	},
	{
		id: 'digest-base64url',
		...SLASHED,
		encoding: 'base64url-unpadded',
		base: lines(spec(SLASHED)),
		title: /without = padding/
	},
	{
		id: 'digest-unpadded',
		...SLASHED,
		encoding: 'base64-unpadded',
		base: lines(spec(SLASHED)),
		title: /Dropped the = padding/
	}
];

async function run(c: Case) {
	const customerMac = mac(c.base, { key: c.signKey ?? KEY, hash: c.hash, encoding: c.encoding });
	return diagnose({
		authorization: { id: KID, ts: c.ts ?? TS, nonce: c.nonce ?? NONCE, mac: customerMac },
		method: 'GET',
		url: c.url ?? URL_CN,
		uriForm: c.uriForm,
		macKey: c.key ?? KEY
	});
}

describe('diagnose', () => {
	it('the test nonce for the encoding cases gives a digest with + or /', () => {
		expect(mac(lines(spec(SLASHED)))).toMatch(/[+/]/);
	});

	it('has a test case for every catalogue entry', () => {
		const tested = new Set(cases.map((c) => c.id));
		expect(MISTAKES.map((mistake) => mistake.id).filter((id) => !tested.has(id))).toEqual([]);
	});

	it('says match for a correctly signed request', async () => {
		const result = await diagnose({
			authorization: { id: KID, ts: TS, nonce: NONCE, mac: mac(lines(spec())) },
			url: URL_CN,
			macKey: KEY
		});
		expect(result).toMatchObject({ verdict: 'match', match: true, keyOrUnseenInputs: false });
		expect(result.explanations).toEqual([]);
		expect(result.expectedBaseString).toBe(lines(spec()));
		expect(result.expectedMac).toBe(mac(lines(spec())));
	});

	it('signs the ext from the header on the seventh line', async () => {
		const base = lines(spec({ ext: 'x-1' }));
		const result = await diagnose({
			authorization: { id: KID, ts: TS, nonce: NONCE, ext: 'x-1', mac: mac(base) },
			url: URL_CN,
			macKey: KEY
		});
		expect(result.match).toBe(true);
	});

	it.each(cases.map((c) => [c.id, c.title?.source ?? '', c] as const))(
		'names %s first for that mistake made on purpose (%s)',
		async (id, _title, c) => {
			const result = await run(c);
			expect(result.match).toBe(false);
			expect(result.verdict).toBe('explained');
			const [first] = result.explanations;
			expect(first?.id).toBe(id);
			expect(first?.baseString).toBe(c.base);
			if (c.title) expect(english(first?.title)).toMatch(c.title);
			expect(english(first?.fix).length).toBeGreaterThan(10);
		}
	);

	it.each([
		{
			ids: 'host-with-port+ext-line-dropped',
			base: spec({ host: 'open.tapapis.cn:443' }).join('\n')
		},
		{
			ids: 'host-other-deployment+digest-hex',
			base: lines(spec({ host: 'open.tapapis.com' })),
			encoding: 'hex' as const
		},
		{
			ids: 'ts-other+key-whitespace',
			base: lines(spec({ ts: '1699999999' })),
			signKey: `${KEY}\n`
		},
		{
			ids: 'query-dropped+full-url',
			base: lines(spec({ uri: `https://open.tapapis.cn${PATH}` }))
		},
		{
			// The docs' Java sample on a POSIX locale, its URL written with :443.
			ids: 'uri-with-port+key-ascii',
			key: 'clé',
			base: lines(spec({ uri: `:443${PATH}?client_id=abc123` })),
			signKey: 'cl?'
		},
		{
			ids: 'uri-with-port+ts-padded',
			ts: '999999999',
			base: lines(spec({ ts: '0999999999', uri: `:443${PATH}?client_id=abc123` }))
		},
		{
			// The Unity SDK: its mac_algorithm hmac-sha-256 and a key with non-ASCII characters.
			ids: 'key-ascii+hmac-sha256',
			key: 'clé',
			base: lines(spec()),
			signKey: 'cl?',
			hash: 'sha256' as const
		},
		{
			ids: 'host-legacy+key-is-kid',
			base: lines(spec({ host: 'openapi.taptap.com' })),
			signKey: KID
		}
	])('names the pair $ids when two mistakes are made', async (pair) => {
		const { ids, base, encoding, signKey } = pair;
		const { key, ts, hash } = pair as { key?: string; ts?: string; hash?: 'sha256' };
		const result = await run({ id: 'crlf', base, encoding, signKey, key, ts, hash });
		expect(result.verdict).toBe('explained');
		expect(result.explanations[0]?.id).toBe(ids);
		expect(result.explanations[0]?.mistakes).toHaveLength(2);
		expect(english(result.explanations[0]?.title)).toMatch(/, and /);
	});

	it('says nothing in the catalogue reproduces the mac, without blaming the key alone', async () => {
		const result = await diagnose({
			authorization: { id: KID, ts: TS, nonce: NONCE, mac: mac(lines(spec()), { key: 'other' }) },
			url: URL_CN,
			macKey: KEY
		});
		expect(result).toMatchObject({
			verdict: 'unexplained',
			match: false,
			keyOrUnseenInputs: true,
			explanations: []
		});
		expect(english(result.message)).toMatch(/nothing in the catalogue reproduces it/);
		expect(english(result.message)).toMatch(/A different key .* is one possibility among others/);
		expect(english(result.message)).toMatch(
			/Compare their logged base string with the expected one next\.$/
		);
		expect(english(result.message)).not.toMatch(/likely/);
		expect(result.variantsTried).toBeGreaterThan(100);
	});

	it('says so when the mac is not a digest in any encoding', async () => {
		const result = await diagnose({
			authorization: { id: KID, ts: TS, nonce: NONCE, mac: 'abc' },
			url: URL_CN,
			macKey: KEY
		});
		expect(result.keyOrUnseenInputs).toBe(true);
		expect(english(result.message)).toMatch(/not an HMAC digest/);
		// Nothing can produce a 3-character mac, so nothing beyond the expected one is computed.
		expect(result.variantsTried).toBe(1);
	});

	it('computes only hex variants for a hex mac, so a Base64 mistake cannot be named', async () => {
		const result = await run({
			id: 'digest-hex',
			base: lines(spec({ port: '80' })),
			encoding: 'hex'
		});
		expect(result.explanations.map((e) => e.id)).toEqual(['port-wrong+digest-hex']);
	});

	it('compares a hex mac in any case', async () => {
		const hex = mac(lines(spec()), { encoding: 'hex' }).toUpperCase();
		const result = await diagnose({
			authorization: { id: KID, ts: TS, nonce: NONCE, mac: hex },
			url: URL_CN,
			macKey: KEY
		});
		expect(result.explanations[0]?.id).toBe('digest-hex');
	});

	it('never puts the mac_key into the result', async () => {
		const result = await run({ id: 'key-whitespace', signKey: `${KEY}\n`, base: lines(spec()) });
		expect(JSON.stringify(result)).not.toContain(KEY);
		expect(english(result.explanations[0]?.keyForm)).toBe('the mac_key with a trailing line feed');
	});

	it('rejects with the MacInputError of the core for a bad URL or an empty mac_key', async () => {
		const authorization = { id: KID, ts: TS, nonce: NONCE, mac: 'x' };
		await expect(diagnose({ authorization, url: 'ftp://h/', macKey: KEY })).rejects.toThrow(
			MacInputError
		);
		await expect(diagnose({ authorization, url: URL_CN, macKey: '' })).rejects.toMatchObject({
			field: 'mac_key'
		});
	});
});
