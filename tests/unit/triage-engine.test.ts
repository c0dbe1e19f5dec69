import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { triage, triageText, type TriageSummary, type VerdictRecord } from '$lib/triage';
import { NonceLedger } from '$lib/triage/tally';
import { PLANTED_MISTAKES, triageLogText } from '../bench/triage-log.js';

// Small enough to run in a second, faulty enough (5%) to plant each kind several times.
const LOG = triageLogText({ requests: 3000, faultRate: 0.05, seed: 11 });

async function run(text: string, keys: string, options: Parameters<typeof triageText>[2] = {}) {
	const records: VerdictRecord[] = [];
	const summary = await triageText(text, keys, {
		...options,
		onVerdicts: (batch) => void records.push(...batch)
	});
	return { summary, records };
}

const numbers = (records: VerdictRecord[], keep: (record: VerdictRecord) => boolean) =>
	records.filter(keep).map((record) => record.number);

describe('triage of a generated log with planted faults', () => {
	it('counts every group as planted', async () => {
		const { summary, records } = await run(LOG.text, LOG.keys);
		const { expected } = LOG;
		expect(summary.format).toBe('ndjson');
		expect(summary.cancelled).toBe(false);
		expect(summary.requests).toBe(expected.requests);
		expect(summary.groups).toEqual({
			match: expected.match,
			refused: expected.refused,
			mismatch: expected.mismatch,
			'no-key': expected.noKey,
			unreadable: expected.unreadable
		});
		expect(Object.fromEntries(summary.mistakes.map(({ id, count }) => [id, count]))).toEqual(
			expected.mistakes
		);
		expect(summary.unexplained).toBe(expected.unexplained);
		expect(summary.clock).toEqual({
			outsideWindow: expected.outsideWindow,
			withLoggedTime: expected.withLoggedTime,
			windowSeconds: 300
		});
		expect(summary.noncesReused).toBe(expected.noncesReused);
		expect(summary.unreadable).toEqual(
			expect.arrayContaining([
				{ code: 'not-json', count: expected.lines['not-json'].length },
				{ code: 'bad-header', count: expected.lines['bad-header'].length }
			])
		);
		// One record per request, in file order, and each fault on the lines it was planted on.
		expect(records.map((record) => record.number)).toEqual(
			Array.from({ length: expected.requests }, (_, index) => index + 1)
		);
		for (const id of PLANTED_MISTAKES)
			expect(numbers(records, (record) => record.mistake === id)).toEqual(expected.lines[id]);
		expect(numbers(records, (record) => record.mistake === 'unexplained')).toEqual(
			expected.lines.unexplained
		);
		expect(numbers(records, (record) => record.verdict === 'no-key')).toEqual(
			expected.lines['no-key']
		);
		expect(numbers(records, (record) => record.clock?.outsideWindow === true)).toEqual(
			expected.lines['ts-window']
		);
		expect(numbers(records, (record) => record.nonceFirstUsedAt !== null)).toEqual(
			expected.lines['nonce-reused']
		);
		for (const id of PLANTED_MISTAKES) expect(expected.lines[id].length).toBeGreaterThan(5);
	});

	it('verifies every kid with a single mac_key given for all', async () => {
		const key = 'one-key-for-all';
		const lines = ['kid-aaaaaaaaaa', 'kid-bbbbbbbbbb'].map((kid, index) => {
			const ts = String(1763800000 + index);
			const base = `${ts}\nnonce${index}\nGET\n/account/basic-info/v1?client_id=c\nopen.tapapis.cn\n443\n\n`;
			const mac = createHmac('sha1', key).update(base).digest('base64');
			return JSON.stringify({
				url: 'https://open.tapapis.cn/account/basic-info/v1?client_id=c',
				authorization: `MAC id="${kid}",ts="${ts}",nonce="nonce${index}",mac="${mac}"`
			});
		});
		const { summary } = await run(lines.join('\n'), key);
		expect(summary.groups).toEqual({
			match: 2,
			refused: 0,
			mismatch: 0,
			'no-key': 0,
			unreadable: 0
		});
		expect((await run(lines.join('\n'), 'another-key')).summary.groups.mismatch).toBe(2);
	});
});

describe('the clock and nonce groups', () => {
	const key = 'clock-key';
	function line(ts: string, nonce: string, time: unknown, kid = 'kid-clock-0001') {
		const base = `${ts}\n${nonce}\nGET\n/account/profile/v1?client_id=c\nopen.tapapis.cn\n443\n\n`;
		const mac = createHmac('sha1', key).update(base).digest('base64');
		return JSON.stringify({
			url: 'https://open.tapapis.cn/account/profile/v1?client_id=c',
			authorization: `MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`,
			time
		});
	}

	it('judges ts against the logged time, with the window given, and a zone the log left out', async () => {
		const text = [
			line('1763800000', 'n1', 1763800000 + 300),
			line('1763800000', 'n2', 1763800000 + 301),
			line('1763800000', 'n3', new Date((1763800000 - 400) * 1000).toISOString()),
			// Written without a zone, eight hours ahead of UTC: read as that zone, within the window.
			line('1763800000', 'n4', '2025-11-22 16:26:40'),
			line('1763800000000', 'n5', 1763800000),
			line('1763800000', 'n6', undefined)
		].join('\n');
		const { records, summary } = await run(text, `kid-clock-0001 ${key}`);
		expect(records.map((record) => record.clock)).toEqual([
			{ ageSeconds: 300, outsideWindow: false },
			{ ageSeconds: 301, outsideWindow: true },
			{ ageSeconds: -400, outsideWindow: true },
			{ ageSeconds: 0, outsideWindow: false },
			expect.objectContaining({ outsideWindow: true }),
			null
		]);
		expect(summary.clock).toEqual({ outsideWindow: 3, withLoggedTime: 5, windowSeconds: 300 });
		const wider = await run(text, `kid-clock-0001 ${key}`, { windowSeconds: 500 });
		expect(wider.summary.clock.outsideWindow).toBe(1);
	});

	it('counts a nonce used again by the same kid, not by another kid', async () => {
		const text = [
			line('1763800000', 'same', 1763800000),
			line('1763800001', 'other', 1763800001),
			line('1763800002', 'same', 1763800002),
			line('1763800003', 'same', 1763800003, 'kid-clock-0002'),
			line('1763800004', 'same', 1763800004)
		].join('\n');
		const { records, summary } = await run(text, `kid-clock-0001 ${key}\nkid-clock-0002 ${key}`);
		expect(records.map((record) => record.nonceFirstUsedAt)).toEqual([null, null, 1, null, 1]);
		expect(summary.noncesReused).toBe(2);
		// Signed right, but a nonce used again: refused, not a match (the spec does not say the
		// service refuses it, and the refusal's words say so).
		expect(summary.groups).toMatchObject({ match: 3, refused: 2 });
		expect(records.map((record) => record.refusal)).toEqual([
			null,
			null,
			'nonce-reused',
			null,
			'nonce-reused'
		]);
		expect(summary.refusals).toEqual([{ id: 'nonce-reused', count: 2 }]);
	});
});

describe('the nonce ledger', () => {
	it('remembers every pair through its growth, and tells kids apart', () => {
		const ledger = new NonceLedger();
		const kids = ['kid-a', 'kid-b', 'kid-ab'];
		let number = 0;
		for (let nonce = 0; nonce < 20_000; nonce++)
			for (const kid of kids) expect(ledger.see(kid, `n${nonce}`, ++number)).toBeNull();
		number = 0;
		for (let nonce = 0; nonce < 20_000; nonce++)
			for (const kid of kids) {
				number += 1;
				expect(ledger.see(kid, `n${nonce}`, 1e9)).toBe(number);
			}
		// 120,000 expectations: seconds on a machine busy with other work (it failed at 5 s on main too).
	}, 30_000);

	it('made for the pairs a log likely holds, answers as a plain Map would, and grows past them', () => {
		// Made for 1,000 pairs, given 5,000 (it grows) of which every third is used again; the
		// oracle is a Map of kid and nonce to the first request's number, not the ledger's hashing.
		const pairs = Array.from({ length: 5_000 }, (_, at) => `n${at - (at % 3)}`);
		const firstUse = new Map<string, number>();
		const expected = pairs.map((nonce, at) => {
			const first = firstUse.get(nonce) ?? null;
			if (first === null) firstUse.set(nonce, at + 1);
			return first;
		});
		const answers = (ledger: NonceLedger) =>
			pairs.map((nonce, at) => ledger.see('kid', nonce, at + 1));
		expect(answers(new NonceLedger(1_000))).toEqual(expected);
		expect(answers(new NonceLedger())).toEqual(expected);
		expect(expected.filter((first) => first !== null)).toHaveLength(3_333);
		// The table made ahead has a cap: an absurd estimate costs no more than 2^22 slots.
		expect(() => new NonceLedger(1e12)).not.toThrow();
	});
});

describe('a run', () => {
	it('stops at once when cancelled: no verdicts after the abort, and says it was cancelled', async () => {
		const big = triageLogText({ requests: 20000, faultRate: 0.01, seed: 2 });
		const controller = new AbortController();
		let after = 0;
		let received = 0;
		const summary: TriageSummary = await triageText(big.text, big.keys, {
			signal: controller.signal,
			batchSize: 500,
			intervalMs: 60_000,
			onVerdicts: (batch) => {
				if (controller.signal.aborted) after += batch.length;
				received += batch.length;
				if (received >= 1000) controller.abort();
			}
		});
		expect(summary.cancelled).toBe(true);
		expect(after).toBe(0);
		expect(received).toBe(1000);
		expect(summary.requests).toBeLessThan(1100);
	});

	it('reports progress in batches, not per request, and ends with the whole count', async () => {
		const progress: number[] = [];
		const batches: number[] = [];
		const summary = await triageText(LOG.text, LOG.keys, {
			batchSize: 1000,
			intervalMs: 60_000,
			onProgress: (report) => progress.push(report.requests),
			onVerdicts: (batch) => void batches.push(batch.length)
		});
		expect(batches).toEqual([1000, 1000, 1000]);
		expect(progress.at(-1)).toBe(3000);
		expect(progress.length).toBeLessThanOrEqual(4);
		expect(summary.bytesRead).toBe(new TextEncoder().encode(LOG.text).length);
	});

	it('reads an empty file as no requests', async () => {
		const summary = await triage(new Blob(['  \n']).stream(), 'k');
		expect(summary.format).toBeNull();
		expect(summary.requests).toBe(0);
	});
});
