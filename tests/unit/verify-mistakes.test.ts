import { describe, expect, it } from 'vitest';
import { MISTAKES, mistakeById, type MistakeContext, type SigningInputs } from '$lib/diagnosis';
import { english } from './verify-english';
import { text } from '$lib/i18n/text';

const inputs: SigningInputs = {
	ts: '1700000000',
	nonce: 'ab+c/d==',
	method: 'GET',
	uri: '/account/profile/v1?client_id=abc123&scope=a+b',
	host: 'open.tapapis.cn',
	port: '443',
	ext: '',
	lineEnd: '\n',
	ending: 'terminated',
	key: 'k7Qx2mZpR4vN8sLw',
	keyForm: text('diagnosis_key_as_given'),
	hash: 'SHA-1',
	encoding: 'base64'
};
const context: MistakeContext = {
	scheme: 'https',
	explicitPort: '',
	knownHosts: ['open.tapapis.cn', 'open.tapapis.com']
};

function variants(id: Parameters<typeof mistakeById>[0], from: SigningInputs = inputs) {
	const mistake = mistakeById(id);
	if (!mistake) throw new Error(id);
	return mistake.variants(from, context);
}

describe('the catalogue', () => {
	it('has unique ids, priors between 0 and 1, and a fix sentence for each entry', () => {
		const ids = MISTAKES.map((mistake) => mistake.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBeGreaterThanOrEqual(25);
		for (const mistake of MISTAKES) {
			expect(mistake.prior).toBeGreaterThan(0);
			expect(mistake.prior).toBeLessThan(1);
			expect(english(mistake.fix)).toMatch(/\.$/);
		}
	});

	it('never returns a variant equal to its input', () => {
		for (const mistake of MISTAKES) {
			for (const candidate of mistake.variants(inputs, context)) {
				expect(candidate.inputs, mistake.id).not.toEqual(inputs);
			}
		}
	});

	it('offers the other known deployment, and every known one for an unknown host', () => {
		expect(variants('host-other-deployment').map((c) => c.inputs.host)).toEqual([
			'open.tapapis.com'
		]);
		expect(
			variants('host-other-deployment', { ...inputs, host: 'proxy.example' }).map(
				(c) => c.inputs.host
			)
		).toEqual(['open.tapapis.cn', 'open.tapapis.com']);
	});

	it('re-encodes the query in the ways libraries do, each distinct', () => {
		const uris = variants('query-re-encoded').map((c) => c.inputs.uri);
		expect(uris).toContain('/account/profile/v1?client_id=abc123&scope=a%20b');
		expect(uris).toContain('/account/profile/v1?client_id=abc123&scope=a%2Bb');
		expect(new Set(uris).size).toBe(uris.length);
		expect(uris).not.toContain(inputs.uri);
	});

	it('has nothing to do on the query when there is none', () => {
		const bare = { ...inputs, uri: '/account/profile/v1' };
		for (const id of [
			'query-dropped',
			'query-decoded',
			'query-re-encoded',
			'query-sorted'
		] as const) {
			expect(variants(id, bare)).toEqual([]);
		}
	});

	it('URL-encodes, URL-decodes and form-decodes a nonce', () => {
		expect(variants('nonce-url-encoded').map((c) => c.inputs.nonce)).toEqual([
			'ab%2Bc%2Fd%3D%3D',
			'ab c/d=='
		]);
	});

	it('Base64-decodes only a key that is Base64', () => {
		expect(variants('key-base64-decoded', { ...inputs, key: 'not base64!' })).toEqual([]);
		const [decoded] = variants('key-base64-decoded', { ...inputs, key: 'AAEC/w==' });
		expect(Array.from(decoded?.inputs.key as Uint8Array)).toEqual([0, 1, 2, 255]);
		expect(english(decoded?.inputs.keyForm)).toBe('the mac_key Base64-decoded');
	});

	it('keeps the width of a padded ts when it shifts it by a second', () => {
		expect(variants('ts-other', { ...inputs, ts: '0999999999' }).map((c) => c.inputs.ts)).toEqual([
			'1000000000',
			'0999999998'
		]);
	});

	it('gives each mistake a slot; the query mistakes share one, so they never pair', () => {
		const slots = new Set(
			MISTAKES.filter((m) => m.id.startsWith('query-')).map((mistake) => mistake.slot)
		);
		expect([...slots]).toEqual(['query']);
	});

	it("offers the older docs' hosts only while a current host is called, its own region's first", () => {
		expect(variants('host-legacy').map((c) => c.inputs.host)).toEqual([
			'openapi.taptap.com',
			'openapi.tap.io'
		]);
		expect(
			variants('host-legacy', { ...inputs, host: 'open.tapapis.com' }).map((c) => c.inputs.host)
		).toEqual(['openapi.tap.io', 'openapi.taptap.com']);
		expect(variants('host-legacy', { ...inputs, host: 'proxy.example' })).toEqual([]);
	});

	it('uses the kid as the key only when there is one and it is not the key', () => {
		const mistake = mistakeById('key-is-kid');
		expect(mistake?.variants(inputs, context)).toEqual([]);
		expect(mistake?.variants(inputs, { ...context, kid: inputs.key as string })).toEqual([]);
		const [kid] = mistake?.variants(inputs, { ...context, kid: 'kid-1' }) ?? [];
		expect(kid?.inputs.key).toBe('kid-1');
		expect(english(kid?.inputs.keyForm)).toBe('the kid in place of the mac_key');
	});

	it('encodes the key in another charset only where that changes it', () => {
		for (const id of ['key-ascii', 'key-latin1', 'key-gbk'] as const)
			expect(variants(id), id).toEqual([]);
		const accented = { ...inputs, key: 'clé' };
		expect(variants('key-ascii', accented)).toHaveLength(1);
		expect(variants('key-latin1', accented)).toHaveLength(1);
		expect(variants('key-gbk', accented)).toHaveLength(1);
		// Nothing of U+0080–U+00FF: ISO-8859-1 writes what ASCII writes.
		expect(variants('key-latin1', { ...inputs, key: '密钥' })).toEqual([]);
		// Beyond U+FFFF, .NET ("??") and Java ("?") differ.
		const emoji = variants('key-ascii', { ...inputs, key: 'k😀' });
		expect(emoji.map((c) => Array.from(c.inputs.key as Uint8Array))).toEqual([
			[0x6b, 0x3f, 0x3f],
			[0x6b, 0x3f]
		]);
		expect(english(emoji[0]?.inputs.keyForm)).toBe('the mac_key encoded as ASCII');
	});

	it("keeps the URL's port in the request URI as the text after the host, from the URL or its port line", () => {
		const written = { host: 'open.tapapis.cn', uri: inputs.uri };
		expect(
			mistakeById('uri-with-port')
				?.variants(inputs, { ...context, written, writtenPort: ':443' })
				.map((c) => c.inputs.uri)
		).toEqual([`:443${inputs.uri}`]);
		expect(
			mistakeById('uri-with-port')
				?.variants(inputs, { ...context, written, writtenPort: '' })
				.map((c) => c.inputs.uri)
		).toEqual([`:443${inputs.uri}`]);
		// The URL names another port: the Java sample signs it in the URI and the scheme's on the port line.
		expect(
			mistakeById('uri-with-port')
				?.variants({ ...inputs, port: '8443' }, { ...context, written, writtenPort: ':8443' })
				.map((c) => [c.inputs.uri, c.inputs.port])
		).toEqual([
			[`:8443${inputs.uri}`, '8443'],
			[`:8443${inputs.uri}`, '443']
		]);
		expect(mistakeById('uri-with-port')?.variants(inputs, context)).toEqual([]);
	});

	it('cuts the request URI after the host name only where the URI holds it again', () => {
		const written = { host: 'open.tapapis.cn', uri: inputs.uri };
		const cut = mistakeById('uri-after-last-host');
		expect(cut?.variants(inputs, { ...context, written })).toEqual([]);
		const uri = '/p?r=https://open.tapapis.cn/cb?x=open.tapapis.cn.evil/y';
		expect(
			cut?.variants({ ...inputs, uri }, { ...context, written }).map((c) => c.inputs.uri)
		).toEqual(['.evil/y']);
	});
});
