// The headline is the service's answer: a right signature the service would refuse is "refused",
// never "match", in the triage (its verdicts, counts and exports) and on /verify; the customer's
// logged base string is checked first as evidence. Requests signed here with node:crypto, not with
// the app's signer.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { refusalOf, headlineId, isMillisecondsTs } from '$lib/diagnosis/service-answer';
import { loggedEvidence } from '$lib/diagnosis/logged-evidence';
import { triageText, type VerdictRecord } from '$lib/triage';
import { CSV_COLUMNS, csvRow, summaryMarkdown } from '$lib/triage/exports';
import { english } from './verify-english';

const KID = 'kid-headline-0001';
const KEY = 'headline-key-Zq9';
const URL_ = 'https://open.tapapis.cn/account/basic-info/v1?client_id=app1';
const SENT = 1_764_000_000;

function mac(base: string, key = KEY): string {
	return createHmac('sha1', key).update(base, 'utf8').digest('base64');
}

function base(ts: string, nonce: string, ext = '', uri = '/account/basic-info/v1?client_id=app1') {
	return `${ts}\n${nonce}\nGET\n${uri}\nopen.tapapis.cn\n443\n${ext}\n`;
}

/** An NDJSON line of a request signed over `signed`, its header carrying `ext` when given. */
function line(
	ts: string,
	nonce: string,
	signed: string,
	options: { ext?: string; time?: number | null; baseString?: string } = {}
): string {
	const ext = options.ext === undefined ? '' : `,ext="${options.ext}"`;
	return JSON.stringify({
		method: 'GET',
		url: URL_,
		authorization: `MAC id="${KID}",ts="${ts}",nonce="${nonce}"${ext},mac="${mac(signed)}"`,
		...(options.time === null
			? {}
			: { time: new Date((options.time ?? SENT) * 1000).toISOString() }),
		...(options.baseString === undefined ? {} : { base_string: options.baseString })
	});
}

async function run(lines: string[]) {
	const records: VerdictRecord[] = [];
	const summary = await triageText(lines.join('\n'), `${KID} ${KEY}`, {
		onVerdicts: (batch) => void records.push(...batch)
	});
	return { records, summary };
}

describe('refusalOf', () => {
	const none = { outsideWindow: false, nonceFirstUsedAt: null };
	it('finds nothing to refuse in a ts of seconds, no ext, within the window, a new nonce', () => {
		expect(refusalOf({ ts: String(SENT), ...none })).toBeNull();
		// No send time: the window is not judged.
		expect(refusalOf({ ts: String(SENT), outsideWindow: null, nonceFirstUsedAt: null })).toBeNull();
	});

	it('names each refusal, the most certain first', () => {
		expect(refusalOf({ ts: '1764000000123', ...none })).toBe('ts-milliseconds');
		expect(refusalOf({ ts: '1764000000.5', ...none })).toBe('ts-not-seconds');
		expect(refusalOf({ ts: String(SENT), ext: 'x', ...none })).toBe('ext-not-signed');
		expect(refusalOf({ ts: String(SENT), outsideWindow: true, nonceFirstUsedAt: 3 })).toBe(
			'ts-outside-window'
		);
		expect(refusalOf({ ts: String(SENT), outsideWindow: false, nonceFirstUsedAt: 3 })).toBe(
			'nonce-reused'
		);
		expect(
			refusalOf({ ts: '1764000000123', ext: 'x', outsideWindow: true, nonceFirstUsedAt: 1 })
		).toBe('ts-milliseconds');
	});

	it('reads 13 digits as milliseconds, 10 (or padded) as seconds', () => {
		expect(isMillisecondsTs('1764000000123')).toBe(true);
		expect(isMillisecondsTs('001764000000')).toBe(false);
		expect(isMillisecondsTs('abc')).toBe(false);
	});

	it('writes the headline as an id', () => {
		expect(headlineId('match', null, null)).toBe('match');
		expect(headlineId('refused', 'ts-milliseconds', null)).toBe('refused:ts-milliseconds');
		expect(headlineId('mismatch', null, 'query-dropped')).toBe('mismatch:query-dropped');
		expect(headlineId('mismatch', null, null)).toBe('mismatch:unexplained');
	});
});

describe('the triage counts a right signature the service refuses apart', () => {
	it('gives each request its verdict and refusal', async () => {
		const ms = String(SENT * 1000 + 123);
		const old = String(SENT - 1000);
		const { records, summary } = await run([
			line(String(SENT), 'n-ok', base(String(SENT), 'n-ok')),
			line(ms, 'n-ms', base(ms, 'n-ms')),
			// ext signed as line 7: the service signs it empty.
			line(String(SENT), 'n-ext', base(String(SENT), 'n-ext', 'abc'), { ext: 'abc' }),
			// ext sent, the spec's empty line 7 signed: what the service signs.
			line(String(SENT), 'n-ext-spec', base(String(SENT), 'n-ext-spec'), { ext: 'abc' }),
			line(old, 'n-old', base(old, 'n-old')),
			// The same old ts with no logged time: the window is not judged.
			line(old, 'n-old-unlogged', base(old, 'n-old-unlogged'), { time: null }),
			line(String(SENT), 'n-ok', base(String(SENT), 'n-ok')),
			// A mismatch with a nonce used again stays a mismatch: the signature comes first.
			line(String(SENT), 'n-ok', base(String(SENT), 'n-ok', '', '/account/basic-info/v1'))
		]);
		expect(records.map(({ verdict, refusal }) => [verdict, refusal])).toEqual([
			['match', null],
			['refused', 'ts-milliseconds'],
			['refused', 'ext-not-signed'],
			['match', null],
			['refused', 'ts-outside-window'],
			['match', null],
			['refused', 'nonce-reused'],
			['mismatch', null]
		]);
		expect(records[7]?.mistake).toBe('query-dropped');
		expect(summary.groups).toEqual({
			match: 3,
			refused: 4,
			mismatch: 1,
			'no-key': 0,
			unreadable: 0
		});
		expect(Object.fromEntries(summary.refusals.map(({ id, count }) => [id, count]))).toEqual({
			'ts-milliseconds': 1,
			'ext-not-signed': 1,
			'ts-outside-window': 1,
			'nonce-reused': 1
		});
		// The export column and the Summary's row and section.
		const refusalColumn = CSV_COLUMNS.indexOf('refusal');
		expect(csvRow(records[1]!).split(',')[refusalColumn]).toBe('ts-milliseconds');
		expect(csvRow(records[1]!).split(',')[CSV_COLUMNS.indexOf('verdict')]).toBe('refused');
		const markdown = summaryMarkdown(summary);
		expect(markdown).toContain('| signature right, refused | 4 | 2, 3, 5, 7 |');
		expect(markdown).toContain('| `ts-milliseconds` | 1 | 2 |');
		expect(markdown).toContain('| `nonce-reused` | 1 | 7 |');
	});
});

describe('the logged base string as evidence', () => {
	const ts = String(SENT);
	const expected = base(ts, 'nonce-sent');

	it('a nonce made again between the header and the base string: the key is right, line 2', async () => {
		const signed = base(ts, 'nonce-made-again');
		const evidence = await loggedEvidence(expected, signed, KEY, mac(signed));
		expect(evidence.keyRight).toBe(true);
		expect(evidence.id).toBe('logged-base-string:nonce');
		expect(evidence.lines).toEqual([
			{ number: 2, kind: 'changed', expected: 'nonce-sent', actual: 'nonce-made-again' }
		]);
		const words = english(evidence.message);
		expect(words).toMatch(/the key is right/);
		expect(words).toMatch(/they signed the nonce "nonce-made-again", which is not the nonce sent/);
	});

	it('a ts that differs and a line missing are named line by line', async () => {
		const signed = `${String(SENT + 1)}\nnonce-sent\nGET\n/account/basic-info/v1?client_id=app1\nopen.tapapis.cn\n443\n`;
		const evidence = await loggedEvidence(expected, signed, KEY, mac(signed));
		expect(evidence.keyRight).toBe(true);
		expect(evidence.id).toBe('logged-base-string:ts,line-7-missing');
		expect(english(evidence.message)).toMatch(/line 7 \(""\) is missing from what they signed/);
	});

	it('a string that does not sign to their mac: the key or the digest step differs', async () => {
		const signed = base(ts, 'nonce-made-again');
		const evidence = await loggedEvidence(expected, signed, KEY, mac(signed, 'another-key'));
		expect(evidence.keyRight).toBe(false);
		expect(evidence.id).toBe('logged-base-string:key-or-digest');
		expect(english(evidence.message)).toMatch(/the key or the digest step/);
	});

	it('the triage reads NDJSON base_string first and names the line', async () => {
		const signed = base(ts, 'nonce-made-again');
		const header = `MAC id="${KID}",ts="${ts}",nonce="nonce-sent",mac="${mac(signed)}"`;
		const { records } = await run([
			JSON.stringify({ method: 'GET', url: URL_, authorization: header, base_string: signed }),
			// Without it the same request is unexplained: no catalogued mistake makes a new nonce.
			JSON.stringify({ method: 'GET', url: URL_, authorization: header })
		]);
		expect(records.map(({ verdict, mistake }) => [verdict, mistake])).toEqual([
			['mismatch', 'logged-base-string:nonce'],
			['mismatch', 'unexplained']
		]);
	});
});

describe('a HAR entry carries the logged base string as _base_string', () => {
	it('the triage reads it first, on the entry or its request, and names the line', async () => {
		const signed = base(String(SENT), 'nonce-made-again');
		const header = `MAC id="${KID}",ts="${SENT}",nonce="nonce-sent",mac="${mac(signed)}"`;
		const request = {
			method: 'GET',
			url: URL_,
			headers: [{ name: 'Authorization', value: header }]
		};
		const har = JSON.stringify({
			log: {
				entries: [
					{ startedDateTime: '2025-11-24T16:00:00Z', _base_string: signed, request },
					{
						startedDateTime: '2025-11-24T16:00:00Z',
						request: { ...request, _base_string: signed }
					},
					{ startedDateTime: '2025-11-24T16:00:00Z', request }
				]
			}
		});
		const records: VerdictRecord[] = [];
		await triageText(har, `${KID} ${KEY}`, { onVerdicts: (batch) => void records.push(...batch) });
		expect(records.map(({ verdict, mistake }) => [verdict, mistake])).toEqual([
			['mismatch', 'logged-base-string:nonce'],
			['mismatch', 'logged-base-string:nonce'],
			['mismatch', 'unexplained']
		]);
	});
});

describe('the nonce ledger keeps which first uses were matches', () => {
	it('marks the pair recorded last, also when the table grew right after it', async () => {
		const { NonceLedger } = await import('$lib/triage/tally');
		const ledger = new NonceLedger();
		// 2,000 pairs grow the table from 1,024 slots several times; every third is a match.
		for (let number = 1; number <= 2000; number++) {
			expect(ledger.see('kid', `nonce-${number}`, number)).toBeNull();
			if (number % 3 === 0) ledger.markMatch();
		}
		// A pair used again is not new: marking then changes nothing.
		expect(ledger.see('kid', 'nonce-1', 2001)).toBe(1);
		ledger.markMatch();
		const { first, matched } = ledger.entries();
		expect(Array.from(first)).toEqual(Array.from({ length: 2000 }, (_, index) => index + 1));
		expect(Array.from(matched)).toEqual(
			Array.from({ length: 2000 }, (_, index) => ((index + 1) % 3 === 0 ? 1 : 0))
		);
	});
});
