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
});
