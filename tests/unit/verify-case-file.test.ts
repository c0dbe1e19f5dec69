import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAuthorization } from '$lib/mac';
import { caseFileMarkdown, testVector, type CaseInput } from '$lib/verify';
import { clockCheck, diagnose, maskKid } from '$lib/diagnosis';
import { text } from '$lib/i18n/text';
import { likelyClient } from '$lib/diagnosis/likely-client';

// Recognisable, so that a leak of the key anywhere in the output is caught.
const MAC_KEY = 'SECRET-mac-key-ZZ9plural';
const KID = 'kidAbCdEf0123456789';
const URL_CN = 'https://open.tapapis.cn/account/profile/v1?client_id=abc123';
const wrongBase =
	'1700000000\nbm9uY2Ux\nGET\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn:443\n443\n\n';

async function caseInput(): Promise<CaseInput> {
	const authorization = {
		id: KID,
		ts: '1700000000',
		nonce: 'bm9uY2Ux',
		mac: createHmac('sha1', MAC_KEY).update(wrongBase).digest('base64')
	};
	return {
		authorization,
		method: 'GET',
		url: `${URL_CN}&access_token=${KID}`,
		diagnosis: await diagnose({ authorization, url: URL_CN, macKey: MAC_KEY }),
		clock: clockCheck('1700000000', 1_700_000_010_000),
		source: { kind: 'curl', understood: [text('paste_curl_url')] }
	};
}

describe('maskKid', () => {
	it('keeps the first 4 and last 2 characters of a long kid, fewer of a short one', () => {
		expect(maskKid(KID)).toBe('kidA...89');
		expect(maskKid('short')).toBe('s...t');
		expect(maskKid('ab')).toBe('a...');
	});

	it('leaves a masked kid as it is (a recording triaged), so that it names the same kid', () => {
		for (const kid of [KID, 'short', 'ab', 'demo-kid-profile-4f1c'])
			expect(maskKid(maskKid(kid))).toBe(maskKid(kid));
		// A kid with dots that is not a mask is masked.
		expect(maskKid('a.b.c.d.e.f.g')).toBe('a.b.....g');
	});

	it('keeps kids that differ at either end apart, and never shows half of a short kid', () => {
		const kids = ['kid-1', 'kid-2', 'a-kid', 'b-kid', 'user-0001-a', 'user-0001-b', 'x1', 'y1'];
		expect(new Set(kids.map(maskKid)).size).toBe(kids.length);
		for (const kid of ['abcd', 'abcdefghi', 'ab', '汉字汉字汉字汉字汉字汉字', '😀😀😀😀']) {
			const shown = Array.from(maskKid(kid).replace('...', '')).length;
			expect(shown * 2).toBeLessThanOrEqual(Math.max(Array.from(kid).length, 2));
			// Whole characters: a surrogate pair is never cut.
			expect(maskKid(kid)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
		}
	});
});

describe('caseFileMarkdown', () => {
	it('names the likely client, its evidence in code spans, and the kid still masked', async () => {
		const authorization = `MAC id="${KID}",ts="1700000000",nonce="== XinDong_Lee-JiEun ==",mac="x"`;
		const input = { ...(await caseInput()), likelyClient: likelyClient({ authorization }) };
		const markdown = caseFileMarkdown(input, { createdAt: new Date(0) });
		expect(markdown).toContain(
			"- Likely client: docs PHP sample, high confidence, because: the PHP sample's fixed nonce `== XinDong_Lee-JiEun ==`; header parts joined by `,` with no space"
		);
		expect(markdown).not.toContain(KID);
		const unknown = { ...input, likelyClient: likelyClient({ authorization: 'MAC id="a"' }) };
		expect(caseFileMarkdown(unknown)).toContain(
			'- Likely client: unknown; seen: the Authorization header cannot be read'
		);
	});

	it('never contains the mac_key, and masks every occurrence of the kid by default', async () => {
		const markdown = caseFileMarkdown(await caseInput(), { createdAt: new Date(0) });
		expect(markdown).not.toContain(MAC_KEY);
		expect(markdown).not.toContain(KID);
		expect(markdown).toContain('kidA...89');
		expect(markdown).toContain('The mac_key is not in this file.');
	});

	it('shows the kid when asked, still without the mac_key', async () => {
		const markdown = caseFileMarkdown(await caseInput(), { revealKid: true });
		expect(markdown).toContain(`id="${KID}"`);
		expect(markdown).not.toContain(MAC_KEY);
		expect(markdown).not.toContain('(kid masked)');
	});

	it('reports inputs, verdict, clock, the diagnosis and its base string with visible line feeds', async () => {
		const input = await caseInput();
		const markdown = caseFileMarkdown(input, { createdAt: new Date(0) });
		expect(markdown).toContain('Created 1970-01-01T00:00:00.000Z.');
		expect(markdown).toContain('- Method: `GET`');
		expect(markdown).toContain('- Match: no');
		expect(markdown).toContain(`- Expected mac: \`${input.diagnosis.expectedMac}\``);
		expect(markdown).toContain('Clock: ts is 10 seconds old');
		expect(markdown).toContain(
			'**Signed the host with its port (open.tapapis.cn:443)** (`host-with-port`)'
		);
		expect(markdown).toContain('   open.tapapis.cn:443\\n\n   443\\n\n   \\n\n   ```');
		expect(markdown).toContain('- Pasted as: curl');
	});
});

describe('testVector', () => {
	it('gives the request, the correct base string, header and mac, with the kid masked', async () => {
		const input = await caseInput();
		const vector = testVector(input);
		expect(vector).toEqual({
			request: { method: 'GET', url: `${URL_CN}&access_token=kidA...89` },
			base_string:
				'1700000000\nbm9uY2Ux\nGET\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn\n443\n\n',
			header: `MAC id="kidA...89",ts="1700000000",nonce="bm9uY2Ux",mac="${input.diagnosis.expectedMac}"`,
			expected_mac: input.diagnosis.expectedMac
		});
		expect(parseAuthorization(vector.header).mac).toBe(
			createHmac('sha1', MAC_KEY).update(vector.base_string).digest('base64')
		);
		expect(JSON.stringify(vector)).not.toContain(MAC_KEY);
		expect(testVector(input, { revealKid: true }).header).toContain(`id="${KID}"`);
	});
});
