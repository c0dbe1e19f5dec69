// The triage page's state (src/lib/triage-desk): a run in the real triage worker code over a real
// message channel, the Summary's counts as they come, the Verdicts' filters and sort, what the
// exports hold and the hand-over of one verdict to /verify.
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
	verdictsCsv,
	summaryMarkdown,
	type TriageCommand,
	type TriageReport,
	type VerdictRecord
} from '$lib/triage';
import { TriageDesk, type TriageWorker } from '$lib/triage-desk/desk.svelte';
import { Tally } from '$lib/triage/tally';
import { encodeVerdicts } from '$lib/triage/verdict-batch';
import { PASTE_BOX_MAX_BYTES } from '$lib/read/input-limits';
import { parseSignedRequest } from '$lib/read/parse-signed-request';
import { triageLogText } from '../bench/triage-log.js';
import { assigned } from './assigned';
import { workerChannel } from './triage-channel';

/** The worker's code on one end of a channel; the desk's worker is the other end. */
const realWorker = workerChannel;

const log = triageLogText({ requests: 600, faultRate: 0.1, seed: 11 });
const { expected } = log;
const keys = log.keys
	.trim()
	.split('\n')
	.map((line) => line.split(' ') as [string, string]);

/** The run's end, when the desk takes it (its phase leaves 'running'), however long it takes. */
async function finished(desk: TriageDesk): Promise<void> {
	expect(await assigned(desk, 'phase', (phase) => phase !== 'running')).toBe('done');
}

async function ranDesk(run: { text: string; keys: string } = log): Promise<TriageDesk> {
	const desk = new TriageDesk(realWorker);
	desk.requestsText = run.text;
	desk.keysText = run.keys;
	desk.start();
	await finished(desk);
	return desk;
}

describe('TriageDesk', () => {
	it('says what is missing only once Triage is pressed, and starts no run without it', () => {
		const create = vi.fn(realWorker);
		const desk = new TriageDesk(create);
		expect(desk.missingRequests && desk.missingKeys).toBe(true);
		expect(desk.attempted).toBe(false);
		desk.start();
		expect(desk.attempted).toBe(true);
		expect(desk.phase).toBe('idle');
		expect(create).not.toHaveBeenCalled();
	});

	it('ends a run with the worker summary and every verdict in file order', async () => {
		const desk = await ranDesk();
		expect(desk.format).toBe('ndjson');
		expect(desk.received).toBe(expected.requests);
		expect(desk.verdicts().map((record) => record.number)).toEqual(
			Array.from({ length: expected.requests }, (_, index) => index + 1)
		);
		expect(desk.counts).toBe(desk.summary);
		expect(desk.countsLive).toBe(false);
		expect(desk.counts?.groups).toEqual({
			match: expected.match,
			refused: expected.refused,
			mismatch: expected.mismatch,
			'no-key': expected.noKey,
			unreadable: expected.unreadable
		});
	});

	it('filters the verdicts by group and by kid, and both at once', async () => {
		const desk = await ranDesk();
		expect(desk.rows).toHaveLength(expected.requests);
		expect([...desk.rows]).toEqual(desk.verdicts());
		const count = (group: typeof desk.groupFilter) => {
			desk.groupFilter = group;
			return desk.rows.length;
		};
		expect(count('mismatch')).toBe(expected.mismatch);
		expect(count('refused')).toBe(expected.refused);
		expect(count('no-key')).toBe(expected.noKey);
		expect(count('unreadable')).toBe(expected.unreadable);
		expect(count('mistake:query-dropped')).toBe(expected.mistakes['query-dropped']);
		expect(count('mistake:digest-hex')).toBe(expected.mistakes['digest-hex']);
		expect(count('mistake:unexplained')).toBe(expected.unexplained);
		expect(count('clock')).toBe(expected.outsideWindow);
		expect(count('nonce')).toBe(expected.noncesReused);
		// The very lines planted with each fault.
		const numbers = (group: typeof desk.groupFilter) => {
			desk.groupFilter = group;
			return [...desk.rows].map((row) => row.number);
		};
		expect(numbers('nonce')).toEqual(expected.lines['nonce-reused']);
		expect(numbers('clock')).toEqual(expected.lines['ts-window']);
		expect(numbers('mistake:crlf')).toEqual(expected.lines.crlf);

		const [kid] = keys[0]!;
		desk.groupFilter = 'all';
		desk.kidFilter = ` ${kid} `;
		const ofKid = desk.verdicts().filter((record) => record.kid === kid);
		expect(ofKid.length).toBeGreaterThan(0);
		expect([...desk.rows]).toEqual(ofKid);
		desk.groupFilter = 'match';
		expect([...desk.rows]).toEqual(ofKid.filter((record) => record.verdict === 'match'));
		// The rows in view, as the table asks for them.
		expect(desk.rows.slice(2, 5)).toEqual(
			ofKid.filter((record) => record.verdict === 'match').slice(2, 5)
		);
		desk.kidFilter = 'no kid is called this';
		expect([...desk.rows]).toEqual([]);
	});

	it('counts and filters the headers not in the spec form, a kid with no key included', async () => {
		const url = 'https://open.tapapis.cn/account/basic-info/v1?client_id=abc';
		const line = (kid: string, nonce: string, quote: string) => {
			// Signed by node:crypto over the spec's seven lines, not by our core.
			const mac = createHmac('sha1', 'format-key')
				.update(
					`1764320000\n${nonce}\nGET\n/account/basic-info/v1?client_id=abc\nopen.tapapis.cn\n443\n\n`
				)
				.digest('base64');
			const q = (value: string) => `${quote}${value}${quote}`;
			const authorization = `MAC id=${q(kid)},ts=${q('1764320000')},nonce=${q(nonce)},mac=${q(mac)}`;
			return JSON.stringify({ method: 'GET', url, authorization });
		};
		const desk = await ranDesk({
			text: [
				line('kid-format', 'bm9uY2Ux', '"'),
				line('kid-format', 'bm9uY2Uy', "'"),
				line('kid-without-key', 'bm9uY2Uz', "'"),
				line('kid-without-key', 'bm9uY2U0', '"')
			].join('\n'),
			keys: 'kid-format format-key'
		});
		expect(desk.counts?.headerFormat).toBe(2);
		desk.groupFilter = 'header-format';
		expect([...desk.rows].map((row) => [row.number, row.verdict])).toEqual([
			[2, 'refused'],
			[3, 'no-key']
		]);
	});

	it('sorts by a column, ties in file order; the same column again turns the order round', async () => {
		const desk = await ranDesk();
		const sorted = (by: (record: VerdictRecord) => string | number, sign = 1) =>
			[...desk.verdicts()].sort((a, b) => {
				const x = by(a);
				const y = by(b);
				return x < y ? -sign : x > y ? sign : a.number - b.number;
			});
		desk.sortBy('kid');
		expect([desk.sortColumn, desk.sortDirection]).toEqual(['kid', 'ascending']);
		expect([...desk.rows]).toEqual(sorted((record) => record.kid));
		desk.sortBy('kid');
		expect(desk.sortDirection).toBe('descending');
		expect([...desk.rows]).toEqual(sorted((record) => record.kid, -1));
		desk.sortBy('mistake');
		expect(desk.sortDirection).toBe('ascending');
		expect([...desk.rows]).toEqual(sorted((record) => record.mistake ?? record.refusal ?? ''));
		desk.sortBy('url');
		expect([...desk.rows]).toEqual(sorted((record) => record.url));
		desk.sortBy('verdict');
		desk.sortBy('verdict');
		expect([...desk.rows]).toEqual(sorted((record) => record.verdict, -1));
		desk.sortBy('number');
		desk.sortBy('number');
		expect([...desk.rows].map((row) => row.number)).toEqual(
			desk
				.verdicts()
				.map((record) => record.number)
				.reverse()
		);
		// A filter and a sort together.
		desk.groupFilter = 'mismatch';
		expect([...desk.rows].every((row) => row.verdict === 'mismatch')).toBe(true);
		expect([...desk.rows].map((row) => row.number)).toEqual(
			desk
				.verdicts()
				.filter((record) => record.verdict === 'mismatch')
				.map((record) => record.number)
				.reverse()
		);
	});

	it('exports every verdict, kids masked and never a key, in the CSV and in the Markdown', async () => {
		const desk = await ranDesk();
		const file = await desk.csv();
		const csv = await file.text();
		expect(csv).toBe(verdictsCsv(desk.verdicts()));
		expect(file.type).toBe('text/csv;charset=utf-8');
		const markdown = summaryMarkdown(desk.summary!);
		expect(csv.split('\r\n')).toHaveLength(expected.requests + 2);
		for (const [kid, key] of keys) {
			for (const text of [csv, markdown]) {
				expect(text).not.toContain(key);
				expect(text).not.toContain(kid);
			}
			expect(csv).toContain(`${kid.slice(0, 4)}...${kid.slice(-2)}`);
		}
	});

	it('writes the CSV of a bigger run in several slices, the same text as the exporter at once', async () => {
		const bigger = triageLogText({ requests: 4000, faultRate: 0.02, seed: 12 });
		const desk = await ranDesk(bigger);
		const csv = await (await desk.csv()).text();
		// More than one slice's worth (256 k characters).
		expect(csv.length).toBeGreaterThan(1 << 18);
		expect(csv).toBe(verdictsCsv(desk.verdicts()));
		expect(csv.split('\r\n')).toHaveLength(4000 + 2);
	});

	it('hands a verdict to /verify as a request it reads, with the key of its kid only', async () => {
		const desk = await ranDesk();
		const mismatch = desk.verdicts().find((record) => record.verdict === 'mismatch')!;
		const handed = desk.caseOf(mismatch);
		expect(handed.macKey).toBe(keys.find(([kid]) => kid === mismatch.kid)?.[1]);
		const read = parseSignedRequest(handed.signedRequest);
		expect(read.method).toBe(mismatch.method);
		expect(read.url).toBe(mismatch.url);
		expect(read.authorizationValue).toBe(mismatch.authorization);
		// A kid nobody gave a key for is handed over without one.
		const unknown = desk.verdicts().find((record) => record.verdict === 'no-key')!;
		expect(desk.caseOf(unknown).macKey).toBe('');
	});

	it('takes requests and keys handed over from /verify, and triages them at once', async () => {
		const desk = new TriageDesk(realWorker);
		desk.file = new File(['x'], 'other.ndjson');
		desk.receive({ requests: log.text, keys: log.keys });
		expect(desk.file).toBeNull();
		expect([desk.requestsText, desk.keysText]).toEqual([log.text, log.keys]);
		expect(desk.phase).toBe('running');
		await finished(desk);
		expect(desk.summary?.requests).toBe(expected.requests);
	});

	it('starts a run again in a new worker when its worker says nothing of it, once', async () => {
		// A worker that takes every message and answers none, as Firefox's sometimes did.
		const silent: TriageWorker = {
			postMessage: () => undefined,
			addEventListener: () => undefined,
			removeEventListener: () => undefined,
			terminate: vi.fn()
		};
		const create = vi
			.fn<() => TriageWorker>()
			.mockReturnValueOnce(silent)
			.mockImplementation(realWorker);
		const desk = new TriageDesk(create, { silentStartMs: 50 });
		desk.requestsText = log.text;
		desk.keysText = log.keys;
		desk.start();
		await finished(desk);
		expect(silent.terminate).toHaveBeenCalledTimes(1);
		expect(create).toHaveBeenCalledTimes(2);
		expect(desk.summary?.requests).toBe(expected.requests);
		// The second worker is silent too: the run is not started a third time. The desk's clock is
		// the test's here (fake timers): every wait it sets is run out, none is waited for.
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		try {
			const both = vi.fn(() => silent);
			const stuck = new TriageDesk(both, { silentStartMs: 20 });
			stuck.requestsText = log.text;
			stuck.keysText = log.keys;
			stuck.start();
			expect(both).toHaveBeenCalledTimes(1);
			vi.advanceTimersByTime(20);
			expect(both).toHaveBeenCalledTimes(2);
			vi.runAllTimers();
			expect(both).toHaveBeenCalledTimes(2);
			expect(stuck.phase).toBe('running');
		} finally {
			vi.useRealTimers();
		}
	});

	it('takes a handed-over paste over the box limit as a file, never into the box, and triages it', async () => {
		// The /verify box's link sends what the box refuses: laid out in a text box it held the page.
		const over = log.text + '\n'.repeat(PASTE_BOX_MAX_BYTES + 1 - log.text.length);
		const desk = new TriageDesk(realWorker);
		desk.receive({ requests: over, keys: log.keys });
		expect(desk.requestsText).toBe('');
		expect(desk.fileHandedOver).toBe(true);
		expect(desk.file?.size).toBe(PASTE_BOX_MAX_BYTES + 1);
		expect(await desk.file?.text()).toBe(over);
		await finished(desk);
		expect(desk.summary?.requests).toBe(expected.requests);
		// A file the user chooses is theirs, not a hand-over; and one byte less stays in the box.
		desk.file = new File([over], 'verify-paste.txt');
		expect(desk.fileHandedOver).toBe(false);
		desk.receive({ requests: over.slice(1), keys: log.keys });
		expect([desk.file, desk.fileHandedOver, desk.requestsText]).toEqual([
			null,
			false,
			over.slice(1)
		]);
		await finished(desk);
	});

	it('shows the counts and the verdicts as they come, before the summary, and cancels at once', async () => {
		// A worker the test speaks for: two batches with their progress, then nothing until cancel.
		const posted: TriageCommand[] = [];
		const listeners = new Set<(event: MessageEvent<TriageReport>) => void>();
		const worker: TriageWorker = {
			postMessage: (command) => void posted.push(command),
			addEventListener: (_type, listener) => void listeners.add(listener),
			removeEventListener: (_type, listener) => void listeners.delete(listener),
			terminate: () => undefined
		};
		const say = (report: TriageReport) => {
			for (const listener of [...listeners])
				listener({ data: structuredClone(report) } as MessageEvent<TriageReport>);
		};
		const real = await ranDesk();
		const records = real.verdicts();
		// What the worker reports after the first `count` verdicts: their batch and everything counted.
		const tally = new Tally(real.summary!.clock.windowSeconds);
		let reported = 0;
		const progressTo = (count: number): TriageReport => {
			const batch = records.slice(reported, count);
			for (const record of batch) tally.add(record);
			reported = count;
			return {
				type: 'progress',
				id,
				batch: encodeVerdicts(batch),
				progress: {
					bytesRead: 0,
					totalBytes: null,
					requests: count,
					rate: 0,
					elapsedMs: 0,
					counts: tally.counts()
				}
			};
		};
		const desk = new TriageDesk(() => worker);
		desk.requestsText = log.text;
		desk.keysText = log.keys;
		desk.start();
		const id = (posted[0] as { id: number }).id;
		expect(desk.counts).not.toBeNull();
		expect(desk.counts?.groups).toEqual({
			match: 0,
			refused: 0,
			mismatch: 0,
			'no-key': 0,
			unreadable: 0
		});

		const first = records.slice(0, 300);
		say(progressTo(300));
		const counted = (list: readonly VerdictRecord[], verdict: string) =>
			list.filter((record) => record.verdict === verdict).length;
		expect(desk.countsLive).toBe(true);
		// The rows reach the Verdicts a task after their counts: the first build of the table's rows
		// is then a task of its own.
		expect(desk.received).toBe(0);
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(desk.received).toBe(300);
		expect([...desk.rows]).toEqual(first);
		expect(desk.counts?.groups.mismatch).toBe(counted(first, 'mismatch'));
		expect(desk.counts?.skipped).toBeNull();
		const queryDropped = first.filter((record) => record.mistake === 'query-dropped').length;
		expect(desk.counts?.mistakes.find((entry) => entry.id === 'query-dropped')?.count).toBe(
			queryDropped || undefined
		);
		expect(desk.counts?.unreadable.reduce((sum, entry) => sum + entry.count, 0)).toBe(
			counted(first, 'unreadable')
		);

		say(progressTo(records.length));
		expect(desk.counts?.groups).toEqual(real.summary?.groups);
		expect(desk.counts?.mistakes).toEqual(real.summary?.mistakes);
		expect(desk.counts?.unreadable).toEqual(real.summary?.unreadable);
		expect(desk.verdicts()).toEqual(records);

		desk.cancel();
		expect(desk.phase).toBe('cancelled');
		expect(posted.at(-1)).toEqual({ type: 'cancel', id });
		// Nothing after a cancel is shown but the summary.
		reported = 0;
		say(progressTo(10));
		expect(desk.received).toBe(records.length);
		say({ type: 'done', id, summary: { ...real.summary!, cancelled: true } });
		expect((await assigned(desk, 'summary', (summary) => summary !== null))?.cancelled).toBe(true);
		expect(desk.countsLive).toBe(false);
		expect(desk.phase).toBe('cancelled');
	});
});
