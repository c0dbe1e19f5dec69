// A paste of one request a line (NDJSON, log lines) that holds several MAC-signed requests: the
// verify page lists them as it lists a HAR's, read line by line by the triage page's readers.
import { describe, expect, it } from 'vitest';
import { listLogged, loggedSingle, type ListedRequest } from '$lib/read/parse-signed-request';
import { firstToOpen, listedVerdicts } from '$lib/verify/desk/request-list';
import { KEY, KID, NONCE, TS, mac } from './verify-paste-fixtures';
import { englishAll } from './verify-english';

const HOST = 'open.tapapis.cn';
const BASIC = '/account/basic-info/v1?client_id=abc123';
const PROFILE = '/account/profile/v1?client_id=abc123';

function header(path: string, signedPath = path): string {
	const signature = mac(`${TS}\n${NONCE}\nGET\n${signedPath}\n${HOST}\n443\n\n`);
	return `MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${signature}"`;
}

const ndjson = (path: string, authorization: string, status: number) =>
	JSON.stringify({ method: 'GET', url: `https://${HOST}${path}`, authorization, status, time: TS });

// Line 2 blank, line 4 not signed; line 5 signed without its query, refused.
const NDJSON = [
	ndjson(BASIC, header(BASIC), 200),
	'',
	ndjson(PROFILE, header(PROFILE), 200),
	JSON.stringify({ url: `https://${HOST}/favicon.ico` }),
	ndjson(PROFILE, header(PROFILE, '/account/profile/v1'), 401)
].join('\n');

const logLine = (path: string, authorization: string, status: number) =>
	`2023-11-14T22:13:20Z INFO GET https://${HOST}${path} status=${status} Authorization: ${authorization}`;

const LOG = [
	logLine(BASIC, header(BASIC), 200),
	'2023-11-14T22:13:21Z INFO cache warmed',
	logLine(PROFILE, header(PROFILE, '/account/profile/v1'), 401),
	logLine(PROFILE, header(PROFILE), 200)
].join('\n');

const rows = (requests: ListedRequest[] | null) =>
	requests?.map(({ number, method, url, status }) => ({ number, method, url, status }));

describe('listLogged, with the log readers', () => {
	it('lists every MAC-signed line of NDJSON by its line number, method, URL and status', () => {
		const requests = listLogged(NDJSON);
		expect(rows(requests)).toEqual([
			{ number: 1, method: 'GET', url: `https://${HOST}${BASIC}`, status: 200 },
			{ number: 3, method: 'GET', url: `https://${HOST}${PROFILE}`, status: 200 },
			{ number: 5, method: 'GET', url: `https://${HOST}${PROFILE}`, status: 401 }
		]);
		const last = requests?.[2]?.parsed;
		expect(last?.ok && last.value.kind).toBe('ndjson');
		expect(last?.ok && englishAll(last.value.understood)).toEqual([
			'Line 5 of the NDJSON: its method (GET when none), url and authorization.',
			'kid, ts, nonce and mac from the Authorization header.'
		]);
		expect(last?.ok && last.value.sentAt?.ms).toBe(Number(TS) * 1000);
	});

	it('lists log lines that hold a URL and a MAC header, and skips the others', () => {
		const requests = listLogged(LOG);
		expect(rows(requests)?.map(({ number, status }) => [number, status])).toEqual([
			[1, 200],
			[3, 401],
			[4, 200]
		]);
		const first = requests?.[0]?.parsed;
		expect(first?.ok && first.value.kind).toBe('log-lines');
		expect(first?.ok && first.value.uriForm).toBe('as-written');
	});

	it('checks each against the mac_key and opens the failing one first', async () => {
		const ndjsonRequests = listLogged(NDJSON) ?? [];
		const verdicts = await listedVerdicts(ndjsonRequests, KEY);
		// The second repeats the first's kid and nonce: signed right, but it may be refused.
		expect(verdicts).toEqual(['match', 'refused-maybe', 'mismatch']);
		expect(firstToOpen(ndjsonRequests, verdicts)).toBe(5);
		const logRequests = listLogged(LOG) ?? [];
		expect(await listedVerdicts(logRequests, KEY)).toEqual(['match', 'mismatch', 'refused-maybe']);
		expect(firstToOpen(logRequests, null)).toBe(3);
	});

	it('keeps a line whose header cannot be read, as one that cannot be checked', async () => {
		const text = [ndjson(BASIC, 'MAC id="x",ts="1"', 401), ndjson(BASIC, header(BASIC), 200)];
		const requests = listLogged(text.join('\n')) ?? [];
		expect(await listedVerdicts(requests, KEY)).toEqual(['unreadable', 'match']);
	});

	it('is null for one signed line, a HAR, a curl command or a header: the page reads those alone', () => {
		expect(listLogged(ndjson(BASIC, header(BASIC), 200))).toBeNull();
		expect(listLogged('{"log":{"entries":[]}}')).toBeNull();
		expect(
			listLogged(`curl 'https://${HOST}${BASIC}' \\\n  -H 'Authorization: ${header(BASIC)}'`)
		).toBeNull();
		expect(listLogged(`Authorization: ${header(BASIC)}`)).toBeNull();
		expect(listLogged('')).toBeNull();
	});

	it('reads a paste of one signed NDJSON or log line as that request, and nothing else', () => {
		const one = loggedSingle(ndjson(PROFILE, header(PROFILE), 401));
		expect(one?.ok && one.value.kind).toBe('ndjson');
		expect(one?.ok && one.value.url).toBe(`https://${HOST}${PROFILE}`);
		expect(one?.ok && one.value.authorization.id).toBe(KID);
		expect(one?.ok && englishAll(one.value.understood)[0]).toBe(
			'Line 1 of the NDJSON: its method (GET when none), url and authorization.'
		);
		const log = loggedSingle(logLine(BASIC, header(BASIC), 200));
		expect(log?.ok && log.value.kind).toBe('log-lines');
		expect(loggedSingle(NDJSON)).toBeNull();
		expect(loggedSingle(JSON.stringify({ url: `https://${HOST}/favicon.ico` }))).toBeNull();
	});
});
