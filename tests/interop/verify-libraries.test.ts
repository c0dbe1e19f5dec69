// What other MAC-token libraries sign, diagnosed: Python's oauthlib (prepare_mac_header, draft 1)
// splits the URL with urlparse, so it signs the host as written, "?query" without "/" for an empty
// path, and the path without the last segment's ";params". Where Debian's python3-oauthlib is
// installed the library itself signs; everywhere, a signer written here the library's way does.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAuthorization } from '$lib/mac';
import { diagnose } from '$lib/diagnosis';
import { english } from '../unit/verify-english';

const KEY = 'k7Qx2mZpR4vN8sLw';
const KID = 'kid-1234567890';
const TS = '1700000000';
const NONCE = 'dj83hs9s';

/** urlparse's split of an http(s) URL: netloc as written, the last segment's ;params apart. */
function urlparse(url: string) {
	const match = /^(\w+):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/.exec(url);
	if (!match) throw new Error(url);
	const [, scheme = '', netloc = '', fullPath = '', query = ''] = match;
	const semicolon = fullPath.indexOf(';', fullPath.lastIndexOf('/'));
	const path = semicolon < 0 ? fullPath : fullPath.slice(0, semicolon);
	return { scheme, netloc, path, query };
}

/** prepare_mac_header(…, draft=1) of oauthlib, transcribed: ", " between id, ts, nonce and mac. */
function oauthlibHeader(url: string): string {
	const { scheme, netloc, path, query } = urlparse(url);
	const [host = '', port = scheme === 'https' ? '443' : '80'] = netloc.split(/:(.*)/s);
	const uri = query ? `${path}?${query}` : path;
	const base = [TS, NONCE, 'GET', uri, host, port, ''].join('\n') + '\n';
	const signature = createHmac('sha1', KEY).update(base, 'utf8').digest('base64');
	return `MAC id="${KID}", ts="${TS}", nonce="${NONCE}", mac="${signature}"`;
}

const PYTHON = '/usr/bin/python3';
const ORACLE = `
import json, sys
from unittest import mock
from oauthlib.oauth2.rfc6749 import tokens
r = json.loads(sys.argv[1])
with mock.patch('oauthlib.common.generate_timestamp', return_value=r['ts']), \\
     mock.patch('oauthlib.common.generate_nonce', return_value=r['nonce']):
    print(tokens.prepare_mac_header(r['kid'], r['url'], r['key'], 'GET', draft=1)['Authorization'])
`;
const hasOauthlib = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import oauthlib']).status === 0;

function realOauthlibHeader(url: string): string {
	const run = spawnSync(
		PYTHON,
		['-c', ORACLE, JSON.stringify({ kid: KID, url, key: KEY, ts: TS, nonce: NONCE })],
		{ encoding: 'utf8' }
	);
	if (run.status !== 0) throw new Error(run.stderr);
	return run.stdout.trim();
}

const CASES = [
	['host-as-written', 'https://Open.TapAPIs.cn/account/basic-info/v1?client_id=abc123'],
	['path-empty-no-slash', 'https://open.tapapis.cn?client_id=abc123'],
	['path-params-dropped', 'https://open.tapapis.cn/account/basic-info/v1;v=2?client_id=abc123']
] as const;

async function firstExplanation(header: string, url: string) {
	const result = await diagnose({ authorization: parseAuthorization(header), url, macKey: KEY });
	expect(result.verdict).toBe('explained');
	return result.explanations[0];
}

describe("oauthlib's prepare_mac_header (draft 1)", () => {
	it.each(CASES)('is diagnosed as %s first for %s', async (id, url) => {
		const first = await firstExplanation(oauthlibHeader(url), url);
		expect(first?.id).toBe(id);
		expect(english(first?.fix)).toMatch(/\.$/);
	});

	it.skipIf(!hasOauthlib).each(CASES)(
		'is diagnosed as %s first when oauthlib itself signs %s',
		async (id, url) => {
			const header = realOauthlibHeader(url);
			expect(header).toBe(oauthlibHeader(url));
			expect((await firstExplanation(header, url))?.id).toBe(id);
		}
	);

	it('matches when the URL gives urlparse nothing to get wrong', async () => {
		const url = 'https://open.tapapis.cn/account/basic-info/v1?client_id=abc123';
		const header = hasOauthlib ? realOauthlibHeader(url) : oauthlibHeader(url);
		const result = await diagnose({ authorization: parseAuthorization(header), url, macKey: KEY });
		expect(result.verdict).toBe('match');
	});
});

describe('headers other libraries write', () => {
	it('reads the parts in any order, and a nonce holding ":"', () => {
		expect(
			parseAuthorization('MAC id="k", nonce="264095:7d8f3e4a", ts="1700000000", mac="bWFj"')
		).toEqual({ id: 'k', ts: '1700000000', nonce: '264095:7d8f3e4a', mac: 'bWFj' });
		expect(parseAuthorization('MAC mac="bWFj",ts="1",id="k",nonce="a:b:c"')).toEqual({
			id: 'k',
			ts: '1',
			nonce: 'a:b:c',
			mac: 'bWFj'
		});
	});

	it('says that a draft-0 header (a nonce of age:random, no ts) is another scheme', () => {
		expect(() => parseAuthorization('MAC id="k", nonce="264095:dj83hs9s", mac="bWFj"')).toThrow(
			/Missing ts\. It looks like draft 0 .*draft=1/
		);
		expect(() =>
			parseAuthorization('MAC id="k", nonce="1:n", bodyhash="Yg==", mac="bWFj"')
		).toThrow(/Unknown parameter "bodyhash".*draft 0/);
	});
});
