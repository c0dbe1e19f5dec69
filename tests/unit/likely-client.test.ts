// "Likely client": requests shaped as each of the vendor's clients makes them (their code read from
// the vendor's docs and SDK, see src/lib/diagnosis/client-profiles.ts) are named for that client
// where its shape is its own, and never named with confidence where two clients share a shape. The
// client zoo's real requests are classified too (fixtures/zoo-requests.json: the 141 requests of
// tests/clients' results.json, each signed by its client's own program with its own toolchain).
import { describe, expect, it } from 'vitest';
import zooRequests from './fixtures/zoo-requests.json' with { type: 'json' };
import { renderText as render } from '$lib/i18n/render-text';
import { shownString } from '$lib/i18n/shown-text';
import {
	CLIENT_IDS,
	CLIENT_PROFILES,
	clientCode,
	clientGroupId,
	clientGroupOf,
	clientsOf,
	confidenceOf,
	decodeShape,
	headerShape,
	likelyClient,
	writtenPort,
	type ClientId
} from '$lib/diagnosis/likely-client';

const KID = '1/hC0vtMo7ke0Hkd-iI8-zcAwy7vKds9si93l7qBmNFxJkylWEOYEzGqa7k_9iw';
const MAC = 'XWTPmq6A6LzgK8BbNDwj+kE4gzs=';
const TS = '1780000000';

/** `MAC id="…",ts="…",nonce="…",mac="…"` joined as a client joins it. */
function header(nonce: string, options: { ts?: string; space?: boolean } = {}): string {
	const join = options.space ? ', ' : ',';
	return `MAC ${[`id="${KID}"`, `ts="${options.ts ?? TS}"`, `nonce="${nonce}"`, `mac="${MAC}"`].join(join)}`;
}

const base64Nonce = () =>
	Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');

/** One request as each client writes its header (ts of today: 10 digits, padded or not). */
const AS_MADE: Record<ClientId, () => string> = {
	'docs-shell': () => header('8IBTHwOdqNKAWeKl7plt8g=='),
	'docs-node-current': () => header(base64Nonce(), { space: true }),
	'docs-node-old': () => header(base64Nonce()),
	'docs-java': () => header(base64Nonce()),
	'docs-php': () => header('== XinDong_Lee-JiEun =='),
	'docs-python3': () => header('qUzVbHrtWkLmPoAs'),
	'docs-go': () => header('8IBTHwOdqNKAWeKl7plt66=='),
	'unity-sdk': () => header(String(1_335_075_827))
};

/** The line in English, as /verify shows it. */
const inWords = (authorization: string, mistakes?: string[], url?: string) =>
	shownString(render, likelyClient({ authorization, mistakes, url }).summary);

describe('the shape of a header', () => {
	it('reads the separator, order, nonce and ts in one pass', () => {
		expect(decodeShape(headerShape(header('8IBTHwOdqNKAWeKl7plt8g==')))).toEqual({
			readable: true,
			separator: 'comma',
			usualOrder: true,
			ext: false,
			quoted: true,
			nonce: 'shell-sample',
			ts: 'ten-digits'
		});
		const shape = decodeShape(
			headerShape(`Authorization: MAC id="a", nonce="abc", ts="0999999999", ext="x", mac=b`)
		);
		expect(shape).toMatchObject({
			separator: 'comma-space',
			usualOrder: false,
			ext: true,
			quoted: false,
			nonce: 'other',
			ts: 'padded'
		});
	});

	it('tells each nonce style and ts style apart', () => {
		const nonce = (value: string) => decodeShape(headerShape(header(value))).nonce;
		expect(nonce('IV7NZHa/p+/5cTbbDUCzSw==')).toBe('base64-16');
		// 24 characters ending == but not 16 bytes (the last character keeps bits): not Base64 of 16.
		expect(nonce('IV7NZHa/p+/5cTbbDUCzSx==')).toBe('other');
		expect(nonce('abcdefghijklmnop')).toBe('letters-16');
		expect(nonce('abcdefghijklmno1')).toBe('other');
		expect(nonce('0')).toBe('decimal');
		expect(nonce('2147483646')).toBe('decimal');
		expect(nonce('2147483647')).toBe('other');
		expect(nonce('0123')).toBe('other');
		expect(nonce('8IBTHwOdqNKAWeKl7plt66==')).toBe('go-sample');
		expect(nonce('== XinDong_Lee-JiEun ==')).toBe('php-sample');
		const ts = (value: string) => decodeShape(headerShape(header('x', { ts: value }))).ts;
		expect(ts('0999999999')).toBe('padded');
		expect(ts('999999999')).toBe('unpadded');
		expect(ts('1780000000')).toBe('ten-digits');
		expect(ts('1780000000123')).toBe('milliseconds');
		expect(ts('17800000.5')).toBe('other');
	});

	it('says unreadable for what is not a MAC header with id, ts, nonce and mac', () => {
		for (const text of [
			'',
			'Bearer abc',
			'MAC id="a",ts="1",nonce="n"',
			'MAC id="a",id="b",ts="1",nonce="n",mac="m"',
			'MAC id="a",ts="1",nonce="n",mac="m",foo="x"',
			'MAC id="a,ts="1"'
		])
			expect(decodeShape(headerShape(text)).readable, text).toBe(false);
	});

	// How fast is the bench's to say (no timed test here): these read whole, and right.
	it('reads long and hostile headers to the end', () => {
		const hostile = `MAC id="${'a='.repeat(200_000)}`;
		expect(decodeShape(headerShape(hostile)).readable).toBe(false);
		const long = header('x').replace(KID, 'k'.repeat(1_000_000));
		expect(decodeShape(headerShape(long)).readable).toBe(true);
		const escaped = `MAC id="${'\\"'.repeat(300_000)}",ts="1",nonce="n",mac="m"`;
		expect(decodeShape(headerShape(escaped)).readable).toBe(true);
	});
});

describe('the likely client', () => {
	it('names the clients whose sample ships a fixed nonce, with high confidence and why', () => {
		for (const id of ['docs-shell', 'docs-php', 'docs-go'] as const) {
			const found = likelyClient({ authorization: AS_MADE[id]() });
			expect(found.clients, id).toEqual([id]);
			expect(found.confidence, id).toBe('high');
		}
		expect(inWords(AS_MADE['docs-php']())).toBe(
			"docs PHP sample, high confidence, because: the PHP sample's fixed nonce == XinDong_Lee-JiEun ==; header parts joined by , with no space"
		);
	});

	it('names nobody by a form other code writes too, and says what was seen', () => {
		for (const id of [
			'docs-node-current',
			'docs-node-old',
			'docs-java',
			'docs-python3',
			'unity-sdk'
		] as const) {
			const found = likelyClient({ authorization: AS_MADE[id]() });
			expect(found, id).toMatchObject({ clients: [], confidence: null, id: 'unknown' });
		}
		expect(inWords(AS_MADE['docs-node-current']())).toBe(
			'unknown; seen: nonce Base64 of 16 bytes; header parts joined by , ; that is how docs Node.js sample (current) writes a request, and other code writes it so too: not enough to name a client'
		);
		expect(inWords(AS_MADE['docs-java']())).toBe(
			'unknown; seen: nonce Base64 of 16 bytes; header parts joined by , with no space; that is how docs Node.js sample (older) or docs Java sample writes a request, and other code writes it so too: not enough to name a client'
		);
		// A mistake the client makes, but other code as well (HMAC-SHA-256 above all): still unknown.
		const unity = likelyClient({
			authorization: AS_MADE['unity-sdk'](),
			mistakes: ['hmac-sha256']
		});
		expect(unity.confidence).toBe(null);
		expect(shownString(render, unity.summary)).toContain('signed with HMAC-SHA-256');
		expect(shownString(render, unity.summary)).toContain('that is how Unity SDK (C#) writes');
	});

	it('names the Java sample, medium confidence, by the way only its code takes the URI', () => {
		const java = AS_MADE['docs-java']();
		const url = 'https://open.tapapis.cn:443/account/profile/v1?client_id=x';
		expect(likelyClient({ authorization: java, mistakes: ['uri-with-port'], url })).toMatchObject({
			clients: ['docs-java'],
			confidence: 'medium'
		});
		expect(inWords(java, ['uri-with-port'], url)).toBe(
			'docs Java sample, medium confidence, because: nonce Base64 of 16 bytes; header parts joined by , with no space; :443 in the signed URI'
		);
		expect(likelyClient({ authorization: java, mistakes: ['uri-after-last-host'] })).toMatchObject({
			clients: ['docs-java'],
			confidence: 'medium'
		});
		// Other code encodes a key as Latin-1 too, or signs another ts than it sends: unknown.
		for (const id of ['key-latin1', 'key-gbk', 'ts-other', 'host-legacy'])
			expect(likelyClient({ authorization: java, mistakes: [id] }).confidence, id).toBe(null);
		// A ts before 2001: Java pads it, the older Node.js sample does not; the form says so, and
		// names nobody.
		const padded = header(base64Nonce(), { ts: '0999999999' });
		expect(likelyClient({ authorization: padded }).confidence).toBe(null);
		expect(inWords(padded)).toContain('ts padded to 10 digits');
		expect(inWords(padded)).toContain('that is how docs Java sample writes');
	});

	it('never names a client with confidence by its shape alone, but for a fixed nonce', () => {
		for (const profile of CLIENT_PROFILES) {
			const found = likelyClient({ authorization: AS_MADE[profile.id]() });
			const fixed = ['docs-shell', 'docs-php', 'docs-go'].includes(profile.id);
			expect(found.confidence, profile.id).toBe(fixed ? 'high' : null);
		}
	});

	it('names nobody where a mistake only another client makes shows code other than the sample', () => {
		// A port of the PHP sample that kept its nonce and signs with HMAC-SHA-256.
		const php = likelyClient({ authorization: AS_MADE['docs-php'](), mistakes: ['hmac-sha256'] });
		expect(php).toMatchObject({ clients: [], confidence: null });
		expect(shownString(render, php.summary)).toContain("the PHP sample's fixed nonce");
		// A mistake no profile lists (the kid used as the key: anyone's) changes nothing.
		const shell = likelyClient({ authorization: AS_MADE['docs-shell'](), mistakes: 'key-is-kid' });
		expect(shell).toMatchObject({ clients: ['docs-shell'], confidence: 'high' });
		expect(
			likelyClient({ authorization: AS_MADE['unity-sdk'](), mistakes: 'hmac-sha256+key-ascii' })
				.evidence.length
		).toBe(4);
	});

	it('says unknown, and what was seen, for shapes no client makes', () => {
		const cases: [string, string][] = [
			// oauthlib: a long decimal nonce, ", ".
			[header('118431958376293861501780000000', { space: true }), 'a nonce of no client'],
			// rack-oauth2: id, nonce, ts, mac.
			[
				`MAC id="a", nonce="5:0123456789abcdef0123456789abcdef", ts="${TS}", mac="${MAC}"`,
				'parts in another order'
			],
			[header(base64Nonce(), { ts: '1780000000123' }), 'ts in milliseconds'],
			[`MAC id="a",ts="${TS}",nonce="x",ext="e",mac="${MAC}"`, 'ext'],
			[`MAC id="a",ts="${TS}", nonce="${base64Nonce()}",mac="${MAC}"`, 'mixed separators'],
			['Bearer abc', 'cannot be read'],
			// 16 letters joined by ", ": each feature is some client's, no client has both.
			[header('qUzVbHrtWkLmPoAs', { space: true }), 'nonce of 16 ASCII letters']
		];
		for (const [authorization, reason] of cases) {
			const found = likelyClient({ authorization });
			expect(found, authorization).toMatchObject({ clients: [], confidence: null, id: 'unknown' });
			expect(inWords(authorization)).toMatch(/^unknown; seen: /);
			expect(inWords(authorization)).toContain(reason);
			expect(inWords(authorization)).not.toContain('that is how');
		}
	});

	it('gives the same answer as a small integer, for a column of verdicts', () => {
		for (const id of CLIENT_IDS) {
			const authorization = AS_MADE[id]();
			const full = likelyClient({ authorization });
			const code = clientCode(headerShape(authorization));
			expect(code).toBe(full.code);
			expect(clientsOf(code)).toEqual(full.clients);
			expect(confidenceOf(code)).toBe(full.confidence);
			expect(clientGroupId(code)).toBe(full.id);
			expect(clientGroupOf(full.id)).toBe(code & 0xff);
			expect(code).toBeLessThan(1 << 10);
		}
		const java = headerShape(AS_MADE['docs-java']());
		expect(clientsOf(clientCode(java, 'uri-with-port'))).toEqual(['docs-java']);
		expect(clientsOf(clientCode(java, 'unexplained'))).toEqual([]);
		expect(clientGroupOf('unknown')).toBe(0);
		expect(clientGroupOf('docs-nope')).toBe(0);
	});

	it('finds the port a URL writes', () => {
		expect(writtenPort('https://open.tapapis.cn:443/a?b=c:1')).toBe('443');
		expect(writtenPort('https://user:pw@h:8443/')).toBe('8443');
		expect(writtenPort('https://open.tapapis.cn/a:1')).toBe('');
		expect(writtenPort('https://[::1]/')).toBe('');
		expect(writtenPort('https://[::1]:8080/')).toBe('8080');
	});
});

interface ZooRequest {
	id: string;
	client: ClientId;
	url: string;
	authorization: string;
	expectedIds: string[];
}

describe("the zoo's requests", () => {
	it('are never named for another client; the fixed nonces always with high confidence', () => {
		const requests = zooRequests as ZooRequest[];
		expect(requests.length).toBeGreaterThan(100);
		const named = new Set<ClientId>();
		for (const { id, client, url, authorization, expectedIds } of requests) {
			const found = likelyClient({ authorization, mistakes: expectedIds, url });
			if (found.confidence === null) continue;
			expect(found.clients, id).toEqual([client]);
			named.add(client);
			if (['docs-shell', 'docs-php', 'docs-go'].includes(client))
				expect(found.confidence, id).toBe('high');
		}
		// Java by the `:443` its code keeps in the URI.
		expect([...named].sort()).toEqual(['docs-go', 'docs-java', 'docs-php', 'docs-shell']);
	});
});
