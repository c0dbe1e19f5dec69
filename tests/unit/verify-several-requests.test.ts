// A paste that holds several MAC-signed requests (a HAR): every one is read, in the HAR's order,
// checked against the mac_key, and the first that fails is the one the verify page opens.
import { describe, expect, it } from 'vitest';
import { parseHar } from '$lib/read/parse-har';
import { parseSignedRequests, type ListedRequest } from '$lib/read/parse-signed-request';
import { firstToOpen, listedVerdicts } from '$lib/verify/desk/request-list';
import { KEY, KID, NONCE, TS, mac } from './verify-paste-fixtures';
import { englishAll } from './verify-english';

const HOST = 'open.tapapis.cn';

function header(path: string, signedPath = path, id = KID): string {
	const signature = mac(`${TS}\n${NONCE}\nGET\n${signedPath}\n${HOST}\n443\n\n`);
	return `MAC id="${id}",ts="${TS}",nonce="${NONCE}",mac="${signature}"`;
}

function entry(path: string, authorization: string | null, status: number, method = 'GET') {
	return {
		startedDateTime: '2023-11-14T22:13:21.000Z',
		request: {
			method,
			url: `https://${HOST}${path}`,
			headers: [
				{ name: ':path', value: path },
				...(authorization === null ? [] : [{ name: 'authorization', value: authorization }])
			]
		},
		response: { status, content: { text: '{}' } }
	};
}

const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });

const BASIC = '/account/basic-info/v1?client_id=abc123';
const PROFILE = '/account/profile/v1?client_id=abc123';

/** Four signed requests and an unsigned one; the fourth signed without its query, refused. */
const FOUR = har([
	entry(BASIC, header(BASIC), 200),
	entry('/favicon.ico', null, 200),
	entry(PROFILE, header(PROFILE), 200),
	entry(BASIC, header(BASIC), 0),
	entry(PROFILE, header(PROFILE, '/account/profile/v1'), 401)
]);

describe('parseSignedRequests', () => {
	it('reads every MAC-signed entry of a HAR with its entry number, method, URL and status', () => {
		const requests = parseSignedRequests(FOUR);
		expect(
			requests?.map(({ number, method, url, status }) => ({ number, method, url, status }))
		).toEqual([
			{ number: 1, method: 'GET', url: `https://${HOST}${BASIC}`, status: 200 },
			{ number: 3, method: 'GET', url: `https://${HOST}${PROFILE}`, status: 200 },
			// A HAR writes 0 for a request that got no answer.
			{ number: 4, method: 'GET', url: `https://${HOST}${BASIC}`, status: null },
			{ number: 5, method: 'GET', url: `https://${HOST}${PROFILE}`, status: 401 }
		]);
	});

	it("gives each its own signing inputs, as a paste of that request alone would, without 'the first is used'", () => {
		const requests = parseSignedRequests(FOUR) ?? [];
		const last = requests[3]?.parsed;
		expect(last?.ok).toBe(true);
		if (!last?.ok) return;
		expect(last.value.kind).toBe('har');
		expect(last.value.url).toBe(`https://${HOST}${PROFILE}`);
		expect(last.value.authorization.mac).toBe(
			mac(`${TS}\n${NONCE}\nGET\n/account/profile/v1\n${HOST}\n443\n\n`)
		);
		expect(last.value.sentAt?.source).toBe('har');
		expect(englishAll(last.value.understood)).toEqual([
			'Method GET from the HAR entry.',
			'URL from the HAR entry.',
			'kid, ts, nonce and mac from the Authorization header.'
		]);
	});

	it('takes the URL HTTP/2 sent (:path) when the HAR writes it otherwise, as parseHar does', () => {
		const sent = entry(PROFILE, header(PROFILE), 200);
		sent.request.url = `https://${HOST}/account/profile/v1?client_id=abc%31%323`;
		const requests = parseSignedRequests(har([sent, entry(BASIC, header(BASIC), 200)]));
		expect(requests?.[0]?.url).toBe(`https://${HOST}${PROFILE}`);
	});

	it('keeps a request whose header cannot be read, as one that cannot be checked', () => {
		const requests = parseSignedRequests(
			har([entry(BASIC, 'MAC id="x",ts="1"', 401), entry(PROFILE, header(PROFILE), 200)])
		);
		expect(requests?.map((listed) => listed.parsed.ok)).toEqual([false, true]);
	});

	it('is null for a paste of one request, which the page reads as before', () => {
		const one = har([entry(BASIC, header(BASIC), 200), entry('/favicon.ico', null, 200)]);
		expect(parseSignedRequests(one)).toBeNull();
		expect(englishAll(parseHar(one).understood)[0]).toBe(
			"The one MAC-signed request of the HAR's 2 requests is used."
		);
		expect(parseSignedRequests(`Authorization: ${header(BASIC)}`)).toBeNull();
		expect(parseSignedRequests(`curl 'https://${HOST}${BASIC}' -H 'Authorization: x'`)).toBeNull();
	});

	it('is null for a HAR it cannot read, and never throws, whatever the paste', () => {
		for (const text of [
			'{"log":',
			'{"log":{"entries":[]}}',
			'{"log":{"entries":[null, 1, "x", {"request": null}]}}',
			'{"log":{"entries":[{"request":{"headers":[{"name":"authorization","value":"MAC"}]}},{"request":{"headers":[{"name":"authorization","value":"MAC"}]}}]}}',
			'{"log":{"entries":{"0":{}}}}'
		]) {
			expect(() => parseSignedRequests(text)).not.toThrow();
		}
		expect(parseSignedRequests('{"log":')).toBeNull();
		expect(parseSignedRequests(`{"log":${' '.repeat(5_000_001)}}`)).toBeNull();
	});

	it('keeps the first-is-used reading for parseHar, which the page uses for a paste alone', () => {
		expect(englishAll(parseHar(FOUR).understood)[0]).toContain(
			'The HAR holds 4 MAC-signed requests (of 5)'
		);
	});
});

describe('the verdicts of the listed requests', () => {
	const requests = parseSignedRequests(FOUR) as ListedRequest[];

	it('match or mismatch against the mac_key, each by its own header and URL', async () => {
		// Every request of the fixture uses one nonce: the later ones signed right may be refused
		// (the spec does not say a nonce used again is), and are not a plain match.
		expect(await listedVerdicts(requests, KEY)).toEqual([
			'match',
			'refused-maybe',
			'refused-maybe',
			'mismatch'
		]);
		expect(await listedVerdicts(requests, 'another key')).toEqual([
			'mismatch',
			'mismatch',
			'mismatch',
			'mismatch'
		]);
	});

	it('need the mac_key, and say when a request cannot be checked', async () => {
		expect(await listedVerdicts(requests, '')).toEqual(['no-key', 'no-key', 'no-key', 'no-key']);
		const broken = parseSignedRequests(
			har([entry(BASIC, 'MAC id="x",ts="1"', 401), entry(PROFILE, header(PROFILE), 200)])
		) as ListedRequest[];
		expect(await listedVerdicts(broken, KEY)).toEqual(['unreadable', 'match']);
	});

	it('open first the first mismatch, else the first the server refused, else the first', async () => {
		expect(firstToOpen(requests, await listedVerdicts(requests, KEY))).toBe(5);
		// No mac_key yet: the HAR's status says which failed.
		expect(firstToOpen(requests, null)).toBe(5);
		const early = parseSignedRequests(
			har([
				entry(BASIC, header(BASIC), 200),
				entry(PROFILE, header(PROFILE, '/account/profile/v1'), 200),
				entry(BASIC, header(BASIC), 403)
			])
		) as ListedRequest[];
		expect(firstToOpen(early, await listedVerdicts(early, KEY))).toBe(2);
		expect(firstToOpen(early, null)).toBe(3);
		// No mismatch: the first signed right that may be refused (its nonce used again), entry 3.
		const fine = requests.slice(0, 3);
		expect(firstToOpen(fine, await listedVerdicts(fine, KEY))).toBe(3);
		expect(firstToOpen(fine.slice(0, 1), await listedVerdicts(fine.slice(0, 1), KEY))).toBe(1);
	});
});
