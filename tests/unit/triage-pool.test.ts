// The triage's pool (src/lib/triage/pool): a log cut into parts at line breaks, the parts triaged by
// workers that finish in any order, and put back together. Its answer must be the one-thread
// engine's, verdict for verdict and count for count, however the log is cut and whichever worker
// finishes first: the engine (triage(), already proven against the planted log) is the oracle.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
	serveTriage,
	startTriage,
	triage,
	verdictsCsv,
	type TriageCommand,
	type TriagePort,
	type TriageReport,
	type TriageSummary,
	type VerdictRecord
} from '$lib/triage';
import { ndjsonLine } from '$lib/triage/exports';
import { LineSplitter } from '$lib/read/text-source';
import { LineChunker, countLines, cut, plan, type LinePart } from '$lib/triage/pool/line-chunks';
import { poolSize, runPool, type PoolWorker } from '$lib/triage/pool/pool';
import { channelWorker, NOW, openChannel, pooled, runSettings } from './triage-pool-channel';
import { triageLogText } from '../bench/triage-log.js';

const encoder = new TextEncoder();

const stream = (text: string | Uint8Array<ArrayBuffer>) =>
	new Blob([typeof text === 'string' ? encoder.encode(text) : text]).stream();

/** What the summaries must share (time taken and the engine named aside). */
function comparable(summary: TriageSummary) {
	const { elapsedMs: _elapsed, workers: _workers, ...rest } = summary;
	void _elapsed;
	void _workers;
	return rest;
}

async function oneThread(text: string | Uint8Array<ArrayBuffer>, keys: string) {
	const records: VerdictRecord[] = [];
	const summary = await triage(stream(text), keys, {
		nowMs: NOW,
		onVerdicts: (batch) => void records.push(...batch)
	});
	return { summary, records };
}

/** Every byte of `bytes` once, in order, in parts of whole lines numbered as the whole-file reader numbers them. */
function expectWholeLines(text: string, bytes: Uint8Array, parts: LinePart[]): void {
	// Every byte once, in order.
	const joined = parts.flatMap((part) => [...part.bytes]);
	expect(joined).toEqual([...bytes]);
	// Each part's lines are what the reader of the whole file finds there.
	const splitter = new LineSplitter();
	const all = [...splitter.feed(text), ...splitter.end()];
	let before = 0;
	for (const [index, part] of parts.entries()) {
		expect(part.index).toBe(index);
		expect(part.linesBefore).toBe(before);
		const own = new LineSplitter(undefined, part.linesBefore);
		const decoded = new TextDecoder().decode(part.bytes);
		const lines = [...own.feed(decoded), ...own.end()];
		expect(lines).toEqual(all.slice(before, before + lines.length));
		expect(part.lines).toBe(lines.length);
		before += part.lines;
	}
	expect(before).toBe(all.length);
}

describe('cutting a log into parts', () => {
	const breaks = fc.constantFrom('\n', '\r\n', '\r');
	const line = fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'é', ' ', '{', '😀') });
	const logText = fc
		.array(fc.tuple(line, breaks), { maxLength: 60 })
		.chain((lines) =>
			fc.tuple(fc.constant(lines.map(([text, end]) => text + end).join('')), fc.boolean(), line)
		)
		.map(([text, lastBreak, tail]) => (lastBreak ? text : text + tail));

	it('gives every byte once, in whole lines, numbered as the whole-file reader numbers them', () => {
		fc.assert(
			fc.property(
				logText,
				fc.integer({ min: 1, max: 64 }),
				fc.integer({ min: 1, max: 50 }),
				(text, size, block) => {
					const bytes = encoder.encode(text);
					const chunker = new LineChunker(size);
					const parts = [];
					for (let at = 0; at < bytes.length; at += block)
						parts.push(...chunker.feed(bytes.subarray(at, at + block)));
					parts.push(...chunker.end());
					expectWholeLines(text, bytes, parts);
				}
			),
			{ numRuns: 400 }
		);
	});

	it('never ends a part between a CR and the LF that may follow it', () => {
		expect(cut(encoder.encode('a\r'))).toBe(-1);
		expect(cut(encoder.encode('a\r\nb\r'))).toBe(3);
		expect(cut(encoder.encode('a\rb'))).toBe(2);
		expect(countLines(encoder.encode('a\r\nb\rc\n\r'))).toBe(4);
	});

	it('drops a line too long unread, as one numbered line, and holds no more than a line', () => {
		const long = 'x'.repeat(5000);
		const text = `one\ntwo\n${long}\r\nthree\n`;
		const chunker = new LineChunker(64, 0, 1024);
		const parts = [];
		const bytes = encoder.encode(text);
		for (let at = 0; at < bytes.length; at += 100)
			parts.push(...chunker.feed(bytes.subarray(at, at + 100)));
		parts.push(...chunker.end());
		const tooLong = parts.filter((part) => part.tooLong);
		expect(tooLong).toHaveLength(1);
		expect(tooLong[0]).toMatchObject({
			linesBefore: 2,
			lines: 1,
			byteLength: 5002,
			bytes: new Uint8Array(0)
		});
		expect(parts.at(-1)?.linesBefore).toBe(3);
		expect(Math.max(...parts.map((part) => part.bytes.length))).toBeLessThanOrEqual(1024 + 100);
	});

	it('splits only lines in UTF-8 with something in their first kilobytes', () => {
		expect(plan(encoder.encode('{"url":"https://a/"}\n'))).toEqual({ format: 'ndjson', skip: 0 });
		expect(plan(encoder.encode('\uFEFF{"url":"x"}\n'))).toEqual({ format: 'ndjson', skip: 3 });
		expect(plan(encoder.encode('GET https://a/ MAC id="x"\n'))).toMatchObject({
			format: 'log-lines'
		});
		expect(plan(encoder.encode('{"log":{"entries":[]}}'))).toBeNull();
		expect(plan(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42, 0x00]))).toBeNull();
		expect(plan(encoder.encode(' '.repeat(5000) + '{}'))).toBeNull();
		expect(plan(new Uint8Array(0))).toBeNull();
	});

	it('starts one worker a core, at least 2 and at most 8', () => {
		expect([undefined, 1, 2, 4, 8, 64].map(poolSize)).toEqual([2, 2, 2, 4, 8, 8]);
	});
});

describe('the pool against the one-thread engine', () => {
	it('gives the same verdicts in the log’s order and the same counts, nonces across parts included', async () => {
		// Small parts: many nonces used again are first used in another part, read by another worker.
		const log = triageLogText({ requests: 3000, faultRate: 0.05, seed: 21 });
		const alone = await oneThread(log.text, log.keys);
		const pool = await pooled(log.text, log.keys, { workers: 3, partBytes: 2048 });
		expect(pool.records).toEqual(alone.records);
		expect(comparable(pool.summary)).toEqual(comparable(alone.summary));
		expect(pool.summary.noncesReused).toBe(log.expected.noncesReused);
		expect(pool.summary.groups.mismatch).toBe(log.expected.mismatch);
	});

	it('is the same whichever worker finishes first', async () => {
		const log = triageLogText({ requests: 800, faultRate: 0.1, seed: 5 });
		const alone = await oneThread(log.text, log.keys);
		const workers = [channelWorker(), channelWorker(), channelWorker()];
		// The first worker's answers wait until the others have answered theirs: parts come back out
		// of order, and the later ones wait for the earlier.
		(workers[0] as ReturnType<typeof channelWorker>).holding = true;
		const timer = setInterval(() => {
			const [first, ...rest] = workers as ReturnType<typeof channelWorker>[];
			if (rest.every((worker) => worker.held.length === 0)) {
				first!.holding = false;
				first!.release();
			}
		}, 5);
		try {
			const pool = await pooled(log.text, log.keys, { partBytes: 1024, workerList: workers });
			expect(pool.records).toEqual(alone.records);
			expect(comparable(pool.summary)).toEqual(comparable(alone.summary));
		} finally {
			clearInterval(timer);
		}
	});

	it('writes the CSV and NDJSON text the command line writes, nonces across parts filled in', async () => {
		const log = triageLogText({ requests: 1500, faultRate: 0.08, seed: 34 });
		const alone = await oneThread(log.text, log.keys);
		const csv = await pooled(log.text, log.keys, { output: 'csv', partBytes: 3000 });
		expect(verdictsCsv([], {}) + csv.written).toBe(verdictsCsv(alone.records));
		const ndjson = await pooled(log.text, log.keys, { output: 'ndjson', partBytes: 3000 });
		expect(ndjson.written).toBe(alone.records.map((record) => ndjsonLine(record)).join(''));
		expect(alone.records.some((record) => record.nonceFirstUsedAt !== null)).toBe(true);
	});

	it('reads log lines, CRLF and CR endings, a byte-order mark, blank and broken lines as the engine does', async () => {
		const log = triageLogText({ requests: 400, faultRate: 0.1, seed: 13 });
		const lines = log.text.trimEnd().split('\n');
		const mixed =
			'\uFEFF' +
			lines
				.map((line, index) =>
					index % 7 === 3 ? `${line}\r\n\r\n` : index % 11 === 5 ? `${line}\r` : `${line}\n`
				)
				.join('') +
			'{"not": "closed"';
		const alone = await oneThread(mixed, log.keys);
		const pool = await pooled(mixed, log.keys, { partBytes: 700 });
		expect(pool.records).toEqual(alone.records);
		expect(comparable(pool.summary)).toEqual(comparable(alone.summary));
	});

	it('counts a line too long to keep as one unreadable line, at its number', async () => {
		const log = triageLogText({ requests: 50, faultRate: 0, seed: 2 });
		const lines = log.text.trimEnd().split('\n');
		lines.splice(20, 0, `{"url": "${'x'.repeat(4.5 * 1024 * 1024)}"}`);
		const text = lines.join('\n') + '\n';
		const alone = await oneThread(text, log.keys);
		const pool = await pooled(text, log.keys, { partBytes: 64 * 1024 });
		expect(pool.records).toEqual(alone.records);
		expect(comparable(pool.summary)).toEqual(comparable(alone.summary));
		expect(pool.records[20]?.unreadable?.code).toBe('too-long');
	});

	it('stops at cancel: nothing is released after it, and the summary says cancelled', async () => {
		const log = triageLogText({ requests: 4000, faultRate: 0.01, seed: 3 });
		const bytes = encoder.encode(log.text);
		const found = plan(bytes.subarray(0, 65_536));
		const stop = new AbortController();
		let released = 0;
		let afterCancel = 0;
		const summary = await runPool({
			workers: [channelWorker(), channelWorker()],
			stream: stream(bytes),
			plan: found!,
			settings: runSettings(log.keys, 'batch'),
			partBytes: 8192,
			signal: stop.signal,
			onPart: () => {
				if (stop.signal.aborted) afterCancel += 1;
				released += 1;
				if (released === 3) stop.abort();
			}
		});
		expect(summary.cancelled).toBe(true);
		expect(afterCancel).toBe(0);
		expect(summary.requests).toBeLessThan(4000);
		expect(summary.requests).toBeGreaterThan(0);
	});

	it('fails the run with the worker’s reason when a worker fails', async () => {
		const log = triageLogText({ requests: 300, faultRate: 0, seed: 4 });
		const broken: PoolWorker = {
			postMessage: () => undefined,
			listen: (listener) => {
				setTimeout(() => listener(new Error('the worker could not load')), 1);
				return () => undefined;
			}
		};
		await expect(
			pooled(log.text, log.keys, { workerList: [channelWorker(), broken] })
		).rejects.toThrow('the worker could not load');
	});

	it('goes on in the triage worker when its pool cannot start, for this run and the next', async () => {
		const log = triageLogText({ requests: 5000, faultRate: 0.02, seed: 12 });
		expect(encoder.encode(log.text).length).toBeGreaterThan(1 << 20);
		const alone = await oneThread(log.text, log.keys);
		let started = 0;
		const broken = (): PoolWorker => ({
			postMessage: () => undefined,
			listen: (listener) => {
				setTimeout(() => listener(new Error('no worker starts from a worker here')), 1);
				return () => undefined;
			}
		});
		const { port1, port2 } = openChannel();
		serveTriage(port1 as unknown as TriagePort<TriageCommand, TriageReport>, {
			pool: () => {
				started += 1;
				return [broken(), broken()];
			}
		});
		const page = port2 as unknown as TriagePort<TriageReport, TriageCommand>;
		for (let run = 0; run < 2; run++) {
			const records: VerdictRecord[] = [];
			const summary = await startTriage(
				page,
				new Blob([log.text]),
				log.keys,
				{
					onVerdicts: (batch) => void records.push(...batch)
				},
				{ nowMs: NOW }
			).done;
			expect(summary.workers).toBe(0);
			expect(comparable(summary)).toEqual(comparable(alone.summary));
			expect(records).toEqual(alone.records);
		}
		expect(started).toBe(1);
	});

	it('splits a big log across the triage worker’s pool, and not a small one', async () => {
		const { port1, port2 } = openChannel();
		serveTriage(port1 as unknown as TriagePort<TriageCommand, TriageReport>, {
			pool: () => [channelWorker(), channelWorker()]
		});
		const page = port2 as unknown as TriagePort<TriageReport, TriageCommand>;
		const big = triageLogText({ requests: 5000, faultRate: 0.02, seed: 12 });
		const small = triageLogText({ requests: 500, faultRate: 0.02, seed: 12 });
		const bigRun = await startTriage(page, new Blob([big.text]), big.keys, {}, { nowMs: NOW }).done;
		const smallRun = await startTriage(page, small.text, small.keys, {}, { nowMs: NOW }).done;
		expect(bigRun.workers).toBe(2);
		expect(bigRun.groups.mismatch).toBe(big.expected.mismatch);
		expect(smallRun.workers).toBe(0);
		expect(smallRun.groups.mismatch).toBe(small.expected.mismatch);
	});

	it('reads characters cut where a part is decoded in pieces as the engine does', async () => {
		// Each worker decodes its part 32 KiB at a time (part.ts): a character of 2, 3 or 4 bytes
		// that a piece's end cuts in two is completed from the next piece, not made two U+FFFDs.
		const log = triageLogText({ requests: 600, faultRate: 0.05, seed: 17 });
		const wide = ['é', '中', '😀'];
		const text = log.text
			.trimEnd()
			.split('\n')
			.map((line, index) => {
				// In the URL (as a fragment, which is not signed): a verdict quotes it.
				const note = (wide[index % 3] as string).repeat(40 + (index % 13));
				return `${line.replace(/"url":"([^"]*)"/, (_, url: string) => `"url":"${url}#${note}"`)}\n`;
			})
			.join('');
		expect(encoder.encode(text).length).toBeGreaterThan(4 * 32_768);
		const alone = await oneThread(text, log.keys);
		// Parts of 100 KiB: several pieces each, their ends inside characters of every width.
		const pool = await pooled(text, log.keys, { workers: 2, partBytes: 100_000 });
		expect(pool.records).toEqual(alone.records);
		expect(comparable(pool.summary)).toEqual(comparable(alone.summary));
		expect(pool.summary.groups.mismatch).toBe(log.expected.mismatch);
	});

	it('reads ahead only so far: a slow writer holds the reading, and memory with it', async () => {
		const log = triageLogText({ requests: 3000, faultRate: 0.01, seed: 23 });
		const bytes = encoder.encode(log.text);
		const workers = [channelWorker(), channelWorker()];
		let handedOut = 0;
		let handled = 0;
		let most = 0;
		// Each part handed to a worker counted as it goes.
		const counted = workers.map((worker): PoolWorker => ({
			postMessage: (command, transfer) => {
				if (command.type === 'part') {
					handedOut += 1;
					most = Math.max(most, handedOut - handled);
				}
				worker.postMessage(command, transfer);
			},
			listen: (listener) => worker.listen(listener)
		}));
		const summary = await runPool({
			workers: counted,
			stream: stream(bytes),
			plan: plan(bytes.subarray(0, 65_536))!,
			settings: runSettings(log.keys, 'csv'),
			partBytes: 4096,
			onPart: async () => {
				// A writer far slower than the workers.
				await new Promise((resolve) => setTimeout(resolve, 15));
				handled += 1;
			}
		});
		expect(summary.requests).toBe(3000);
		expect(handedOut).toBeGreaterThan(40);
		// Two workers, two parts each at once, and one more each waiting: six at most.
		expect(most).toBeLessThanOrEqual(6);
	});
});
