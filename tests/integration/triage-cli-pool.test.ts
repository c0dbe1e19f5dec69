// `npm run triage` on every core: a log of lines of 1 MiB or more is split across worker threads
// (src/lib/triage/pool, src/node/triage/pool-thread.ts from the bundle run.js builds). Run as real
// processes: what it writes must be what the same command writes on one thread (--threads 0), byte
// for byte.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triageLogText } from '../bench/triage-log.js';
import { triage } from './triage-process';

let dir = '';
let logPath = '';
let keysPath = '';
let expected: ReturnType<typeof triageLogText>['expected'];

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-pool-'));
	// About 2.5 MB: over the 1 MiB from which the log is split, in parts of 256 KiB and more.
	const log = triageLogText({ requests: 10_000, faultRate: 0.03, seed: 77 });
	expected = log.expected;
	logPath = join(dir, 'log.ndjson');
	keysPath = join(dir, 'keys.txt');
	await writeFile(logPath, log.text);
	await writeFile(keysPath, log.keys);
});
afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** The summary as JSON, without what differs from run to run (the time, the creation date). */
function comparable(stdout: string) {
	const { elapsedMs: _elapsed, ...rest } = JSON.parse(stdout) as Record<string, unknown>;
	void _elapsed;
	return rest;
}

describe('npm run triage on worker threads', () => {
	it('writes the same CSV and the same --json summary (nonce table included) as one thread', async () => {
		const one = join(dir, 'one.csv');
		const many = join(dir, 'many.csv');
		const alone = await triage([
			logPath,
			'--keys',
			keysPath,
			'--threads',
			'0',
			'--out',
			one,
			'--json'
		]);
		const pooled = await triage([
			logPath,
			'--keys',
			keysPath,
			'--threads',
			'3',
			'--out',
			many,
			'--json'
		]);
		expect(alone.stderr).toBe('');
		expect(pooled.stderr).toBe('');
		expect(pooled.code).toBe(1);
		expect(alone.code).toBe(1);
		const summary = comparable(pooled.stdout);
		expect(summary.workers).toBe(3);
		expect(comparable(alone.stdout).workers).toBe(0);
		expect({ ...summary, verdicts: null, workers: 0 }).toEqual({
			...comparable(alone.stdout),
			verdicts: null
		});
		expect(summary.noncesReused).toBe(expected.noncesReused);
		expect((summary.groups as Record<string, number>).mismatch).toBe(expected.mismatch);
		const csv = await readFile(many, 'utf8');
		expect(csv).toBe(await readFile(one, 'utf8'));
		expect(csv.split('\r\n')).toHaveLength(10_000 + 2);
	});

	it('writes the same verdicts with --ndjson, in the log’s order', async () => {
		const alone = await triage([logPath, '--keys', keysPath, '--threads', '0', '--ndjson']);
		const pooled = await triage([logPath, '--keys', keysPath, '--threads', '2', '--ndjson']);
		expect(pooled.stdout).toBe(alone.stdout);
		const numbers = pooled.stdout
			.trimEnd()
			.split('\n')
			.map((line) => (JSON.parse(line) as { number: number }).number);
		expect(numbers).toEqual(Array.from({ length: 10_000 }, (_, index) => index + 1));
	});

	it('refuses --threads outside 0 to 8 in one line', async () => {
		const ran = await triage([logPath, '--keys', keysPath, '--threads', '9']);
		expect(ran.code).toBe(2);
		expect(ran.stderr).toBe(
			'triage: --threads takes 0 to 8, not "9". See npm run triage -- --help.\n'
		);
	});
});
