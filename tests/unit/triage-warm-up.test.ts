// The pool's warm-up (src/lib/triage/pool/warm-up.ts): a made-up log run through the pool before a
// log is chosen. It is worth its time only if it takes the paths a real log takes (every mistake the
// diagnosis names, the lines a reader cannot read, unknown kids, clocks, nonces), and it must leave
// nothing behind: a run after it, or one that stops it half-way, answers as a pool never warmed.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { triage, type TriageSummary } from '$lib/triage';
import type { PoolWorker } from '$lib/triage/pool/pool';
import { WARM_UP_SETTINGS, warmUpLines, warmUpPool } from '$lib/triage/pool/warm-up';
import { PLANTED_MISTAKES, triageLogText } from '../bench/triage-log.js';
import { channelWorker, pooled } from './triage-pool-channel';

describe('the warm-up log', () => {
	it('takes every path a real log takes', async () => {
		// Two rounds of every fault (64 lines each), cut where the pool's blocks would be.
		const text = warmUpLines(0, 1000) + warmUpLines(1000, 2 * 64 * 13);
		const lines = text.split('\n').filter((line) => line !== '');
		expect(lines).toHaveLength(2 * 64 * 13);
		// Signed as the scheme signs, by an HMAC that is not the triage's: node:crypto's, over the
		// seven lines rebuilt here, for every line with no fault (JSON, a MAC header, a known kid).
		const keys = new Map(
			WARM_UP_SETTINGS.keys.split('\n').map((line) => line.split(' ') as [string, string])
		);
		let checked = 0;
		for (const line of lines) {
			if (!line.includes('"status":200')) continue;
			const { url, authorization } = JSON.parse(line) as { url: string; authorization: string };
			const params = Object.fromEntries(
				[...authorization.matchAll(/\b(id|ts|nonce|mac)="([^"]*)"/g)].map(([, name, value]) => [
					name,
					value
				])
			);
			const target = new URL(url);
			const base = `${params.ts}\n${params.nonce}\nGET\n${target.pathname}${target.search}\n${target.hostname}\n443\n\n`;
			const key = keys.get(params.id ?? '');
			if (key === undefined) continue;
			expect(createHmac('sha1', key).update(base).digest('base64')).toBe(params.mac);
			checked += 1;
		}
		expect(checked).toBeGreaterThan(lines.length * 0.9);
		const summary = await triage(new Blob([text]).stream(), WARM_UP_SETTINGS.keys, {
			nowMs: WARM_UP_SETTINGS.nowMs
		});
		expect(summary.requests).toBe(lines.length);
		// The mistakes a real log has, as the bench's log plants them and the diagnosis names them.
		expect(summary.mistakes.map((mistake) => mistake.id).sort()).toEqual(
			[...PLANTED_MISTAKES].sort()
		);
		expect(summary.unexplained).toBeGreaterThan(0);
		expect(summary.unreadable.map((entry) => entry.code).sort()).toEqual([
			'bad-header',
			'not-json'
		]);
		expect(summary.groups['no-key']).toBeGreaterThan(0);
		expect(summary.clock.outsideWindow).toBeGreaterThan(0);
		expect(summary.noncesReused).toBeGreaterThan(0);
		// Most of it is signed well, as most of a real log is.
		expect(summary.groups.match / summary.requests).toBeGreaterThan(0.95);
		// Several kids, and the likely-client step taken: its nonces are made-up styles that other
		// code shares too, so by the calibrated rules (likely-client.ts) they name no client.
		expect(summary.kids.filter((kid) => kid.noKey === 0)).toHaveLength(4);
		expect(summary.clients.length).toBeGreaterThan(0);
	});
});

describe('warming a pool up', () => {
	const log = triageLogText({ requests: 3000, faultRate: 0.02, seed: 21 });

	const run = (workers: PoolWorker[]) =>
		pooled(log.text, log.keys, { workerList: workers, partBytes: 64 << 10 });

	const comparable = ({ elapsedMs: _elapsed, ...rest }: TriageSummary) => (void _elapsed, rest);

	it('leaves nothing behind: a run after it answers as on a pool never warmed', async () => {
		const cold = await run([channelWorker(), channelWorker()]);
		const workers = [channelWorker(), channelWorker()];
		await warmUpPool(workers, new AbortController().signal, 3000);
		const warm = await run(workers);
		expect(comparable(warm.summary)).toEqual(comparable(cold.summary));
		expect(warm.records).toEqual(cold.records);
	});

	it('stops when a run starts: the run answers in full, and the warm-up ends', async () => {
		const cold = await run([channelWorker(), channelWorker()]);
		// Each part handed out, by run: the warm-up's run is the first these workers are set up for.
		const partsOf = new Map<number, number>();
		const workers = [channelWorker(), channelWorker()].map((worker): PoolWorker => ({
			listen: (listener) => worker.listen(listener),
			postMessage(command, transfer) {
				if (command.type === 'part') partsOf.set(command.run, (partsOf.get(command.run) ?? 0) + 1);
				worker.postMessage(command, transfer);
			}
		}));
		// The first part the warm-up gets back: it is under way (and far from its end) then.
		const underWay = new Promise<void>((resolve) => {
			const stopListening = workers[0]!.listen((report) => {
				if (report instanceof Error || report.type !== 'result') return;
				stopListening();
				resolve();
			});
		});
		const stop = new AbortController();
		const warming = warmUpPool(workers, stop.signal, 200_000);
		await underWay;
		stop.abort();
		const warm = await run(workers);
		await warming;
		// Of the warm-up's 100 parts (200,000 lines, 2,000 a block), only those handed out before the
		// stop: at most three a worker were out, and one had come back.
		const [warmUpParts] = partsOf.values();
		expect(warmUpParts).toBeLessThanOrEqual(10);
		expect(comparable(warm.summary)).toEqual(comparable(cold.summary));
		expect(warm.records).toEqual(cold.records);
	});
});
