// Verdicts travel from the worker to the page as columns: whatever a record holds comes back equal,
// field for field, from the engine's own runs (every verdict, mistake and unreadable reason of a
// generated log, a HAR, log lines) and from records written to reach every corner.
import { describe, expect, it } from 'vitest';
import { triageText, type VerdictRecord } from '$lib/triage';
import { decodeVerdicts, encodeVerdicts, transferables } from '$lib/triage/verdict-batch';
import { triageLogText } from '../bench/triage-log.js';

async function records(text: string, keys: string): Promise<VerdictRecord[]> {
	const all: VerdictRecord[] = [];
	await triageText(text, keys, {
		nowMs: 1_763_800_000_000,
		onVerdicts: (batch) => void all.push(...batch)
	});
	return all;
}

const roundTrip = (list: VerdictRecord[]) => decodeVerdicts(structuredClone(encodeVerdicts(list)));

const RECORD: VerdictRecord = {
	number: 7,
	method: 'GET',
	url: 'https://open.tapapis.cn/account/profile/v1?client_id=c',
	kid: 'kid-1',
	verdict: 'match',
	mistake: null,
	refusal: null,
	status: 200,
	authorization: 'MAC id="kid-1",ts="1",nonce="n",mac="m"',
	uriForm: 'as-written',
	sentAt: { ms: 1_763_800_000_123, source: 'log', zoneKnown: true },
	clock: { ageSeconds: -3, outsideWindow: false },
	nonceFirstUsedAt: null,
	client: 0,
	unreadable: null
};

describe('verdict batches', () => {
	it('give back every record of a generated log with faults of every kind', async () => {
		const log = triageLogText({ requests: 1500, faultRate: 0.2, seed: 4 });
		const original = await records(log.text, log.keys);
		expect(new Set(original.map((record) => record.verdict))).toEqual(
			new Set(['match', 'refused', 'mismatch', 'no-key', 'unreadable'])
		);
		expect(roundTrip(original)).toStrictEqual(original);
	});

	it('give back HAR and log-line records: browser URIs, HAR times, texts beyond ASCII', async () => {
		const header = RECORD.authorization;
		const har = JSON.stringify({
			log: {
				entries: [
					{
						startedDateTime: '2026-11-22T10:15:30.123+08:00',
						request: {
							method: 'GET',
							url: 'https://open.tapapis.cn/account/profile/v1?client_id=漢字',
							headers: [{ name: 'Authorization', value: header }]
						},
						response: { status: 0 }
					}
				]
			}
		});
		const lines = [
			`2026-11-22 10:15:30,118 GET https://open.tapapis.cn/a?q=é ${header} status=401`,
			`GET https://open.tapapis.cn/a ${header.replace('ts="1"', 'ts="soon"')}`,
			`GET ${header}`
		].join('\n');
		for (const text of [har, lines]) {
			const original = await records(text, 'kid-1 key');
			expect(original.length).toBeGreaterThan(0);
			expect(roundTrip(original)).toStrictEqual(original);
		}
	});

	it('give back each field in each of its forms', () => {
		const variants: VerdictRecord[] = [
			RECORD,
			{ ...RECORD, number: 1e9 + 1, status: null, sentAt: null, clock: null },
			{ ...RECORD, uriForm: 'browser', sentAt: { ms: -1, source: 'har', zoneKnown: false } },
			{ ...RECORD, sentAt: { ms: 0.5, source: 'date', zoneKnown: true } },
			{ ...RECORD, clock: { ageSeconds: null, outsideWindow: true }, nonceFirstUsedAt: 3 },
			{ ...RECORD, verdict: 'mismatch', mistake: 'query-dropped+crlf', nonceFirstUsedAt: 0 },
			// Every code a likely client can have: 8 bits of clients, 2 of confidence.
			{ ...RECORD, client: 0x3ff },
			{ ...RECORD, client: (3 << 8) | 0b1000 },
			{ ...RECORD, verdict: 'no-key', method: '', url: '', kid: '', authorization: '' },
			{ ...RECORD, kid: '🙂 "kid"\n', url: 'https://例え.jp/パス' },
			{
				...RECORD,
				verdict: 'unreadable',
				authorization: '',
				unreadable: {
					number: 7,
					code: 'bad-header',
					detail: { code: 'header_scheme', params: { scheme: 'Bearer' } }
				}
			},
			{
				...RECORD,
				verdict: 'unreadable',
				unreadable: { number: 7, code: 'bad-field', field: 'time' }
			}
		];
		expect(roundTrip(variants)).toStrictEqual(variants);
		expect(roundTrip([])).toStrictEqual([]);
	});

	it('moves its columns rather than copying them', () => {
		const batch = encodeVerdicts([RECORD, RECORD]);
		const moved = structuredClone(batch, { transfer: transferables(batch) });
		expect(batch.values.byteLength).toBe(0);
		expect(decodeVerdicts(moved)).toStrictEqual([RECORD, RECORD]);
	});
});
