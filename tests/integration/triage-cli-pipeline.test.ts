// The command line in a pipeline: standard input, verdicts streamed as NDJSON (and stopping when
// the reader goes), and a log split by lines, triaged in parts and merged into the whole's summary.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triageLogText } from '../bench/triage-log.js';
import { ROOT, start, triage } from './triage-process';

const run = promisify(execFile);

const LOG = triageLogText({ requests: 3000, faultRate: 0.1, seed: 31 });
const LINES = LOG.text.trimEnd().split('\n');
/** The first three lines holding a request as signed, with no fault planted. */
const PLAIN = (() => {
	const faulty = new Set(Object.values(LOG.expected.lines).flat());
	return [...LINES.keys()].filter((index) => !faulty.has(index + 1)).slice(0, 3);
})().map((index) => LINES[index] ?? '');
/**
 * The log with nonces used again far from their first use, so that a split puts them in other
 * parts: three plain requests again near the middle and at the end; and blank lines, which count
 * as lines for the numbers of the parts after them.
 */
const SPREAD = [
	...LINES.slice(0, 1400),
	'',
	PLAIN[0],
	...LINES.slice(1400, 2900),
	PLAIN[1],
	'   ',
	PLAIN[2],
	...LINES.slice(2900)
].join('\n');

let dir = '';
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-pipeline-'));
	await writeFile(join(dir, 'log.ndjson'), LOG.text);
	await writeFile(join(dir, 'spread.ndjson'), `${SPREAD}\n`);
	await writeFile(join(dir, 'keys.txt'), LOG.keys);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A summary without what differs from run to run (the time it took). */
function counts(summary: Record<string, unknown>): Record<string, unknown> {
	const { elapsedMs, ...rest } = summary;
	expect(elapsedMs).toBeTypeOf('number');
	return rest;
}

describe('npm run triage in a pipeline', () => {
	it('reads standard input (-) as it reads a file', async () => {
		const keys = join(dir, 'keys.txt');
		const [fromFile, fromStdin] = await Promise.all([
			triage([join(dir, 'log.ndjson'), '--keys', keys, '--summary-only', '--json']),
			triage(['-', '--keys', keys, '--summary-only', '--json'], LOG.text)
		]);
		expect(fromStdin.stderr).toBe('');
		expect(fromStdin.code).toBe(1);
		expect(counts(JSON.parse(fromStdin.stdout))).toEqual(counts(JSON.parse(fromFile.stdout)));
		expect(JSON.parse(fromStdin.stdout).groups).toEqual({
			match: LOG.expected.match,
			refused: LOG.expected.refused,
			mismatch: LOG.expected.mismatch,
			'no-key': LOG.expected.noKey,
			unreadable: LOG.expected.unreadable
		});
		// --summary-only writes no CSV; standard input has no name to put one beside.
		expect((await readdir(dir)).filter((name) => name.endsWith('.csv'))).toEqual([]);
		const nowhere = await triage(['-', '--keys', keys], LOG.text);
		expect(nowhere.code).toBe(2);
		expect(nowhere.stderr).toMatch(
			/^triage: Standard input has no name to put the verdicts beside/
		);
	});

	it('writes one verdict a line with --ndjson, the CSV only with --out, the summary to stderr', async () => {
		const keys = join(dir, 'keys.txt');
		const out = join(dir, 'both.csv');
		const [ndjson, both] = await Promise.all([
			triage(['-', '--keys', keys, '--ndjson'], LOG.text),
			triage(['-', '--keys', keys, '--ndjson', '--json', '--out', out], LOG.text)
		]);
		expect(ndjson.code).toBe(1);
		const verdicts = ndjson.stdout
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(verdicts).toHaveLength(LOG.expected.requests);
		const numbers = verdicts.map((verdict) => verdict.number as number);
		expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
		expect(verdicts.filter((verdict) => verdict.verdict === 'mismatch')).toHaveLength(
			LOG.expected.mismatch
		);
		expect(Object.keys(verdicts[0])).toEqual([
			'number',
			'method',
			'url',
			'kid',
			'verdict',
			'refusal',
			'mistake',
			'status',
			'ts_age_seconds',
			'ts_outside_window',
			'nonce_first_used_at',
			'unreadable',
			'likely_client',
			'likely_client_confidence',
			'likely_client_evidence'
		]);
		expect(ndjson.stderr).toContain(`| mismatch | ${LOG.expected.mismatch} |`);
		expect(ndjson.stderr).not.toContain('Verdicts:');
		// With --out the CSV is written too, and the JSON summary names it.
		expect(both.stdout).toBe(ndjson.stdout);
		expect(JSON.parse(both.stderr).verdicts).toBe(out);
		const rows = (await readFile(out, 'utf8')).trimEnd().split('\r\n');
		expect(rows).toHaveLength(LOG.expected.requests + 1);
		for (const line of LOG.keys.trim().split('\n'))
			expect(ndjson.stdout).not.toContain(line.split(' ')[1]);
	});

	it('stops reading when the reader of --ndjson goes away (| head), quietly, with status 141', async () => {
		const { child, done } = start(['-', '--keys', join(dir, 'keys.txt'), '--ndjson']);
		// A log without end: the test writes until the process stops reading it.
		let feeding = true;
		const feed = (async () => {
			let blocks = 0;
			while (feeding && !child.stdin.destroyed) {
				blocks += 1;
				// Rejects with EPIPE once the process has stopped reading: the loop then ends.
				if (!child.stdin.write(LOG.text)) await once(child.stdin, 'drain').catch(() => undefined);
			}
			return blocks;
		})();
		// As `head -n 3` does: read three lines, then close the pipe.
		let seen = '';
		for await (const chunk of child.stdout) {
			seen += chunk;
			if (seen.split('\n').length > 3) break;
		}
		child.stdout.destroy();
		const { code, stderr } = await done;
		feeding = false;
		const blocks = await feed;
		expect(code).toBe(141);
		expect(stderr).toBe('');
		expect(seen.split('\n', 3).map((line) => JSON.parse(line).number)).toEqual([1, 2, 3]);
		expect(blocks).toBeGreaterThan(0);
	});

	it('merges the --json summaries of a log split by lines into the summary of the whole', async () => {
		const keys = join(dir, 'keys.txt');
		const log = join(dir, 'spread.ndjson');
		const parts = join(dir, 'parts');
		await mkdir(parts);
		// As a person would cut it: `split -n l/4` cuts at line ends, into parts of about a size.
		await run('split', ['-n', 'l/4', '-d', log, join(parts, 'part.')]);
		const names = (await readdir(parts)).sort().map((name) => join(parts, name));
		expect(names).toHaveLength(4);
		const [whole, ...runs] = await Promise.all([
			triage([log, '--keys', keys, '--summary-only', '--json']),
			...names.map((name) => triage([name, '--keys', keys, '--summary-only', '--json']))
		]);
		await Promise.all(
			runs.map((part, index) => writeFile(`${names[index]}.json`, part?.stdout ?? ''))
		);
		const merged = await triage(['--merge', ...names.map((name) => `${name}.json`), '--json']);
		expect(merged.stderr).toBe('');
		expect(merged.code).toBe(whole.code);
		const summary = JSON.parse(merged.stdout);
		const one = JSON.parse(whole.stdout);
		// Nonces used again across parts: the three plain requests again, each in another part.
		expect(one.noncesReused).toBe(LOG.expected.noncesReused + 3);
		const perPart = runs.reduce(
			(sum, part) => sum + JSON.parse(part?.stdout ?? '').noncesReused,
			0
		);
		expect(perPart).toBe(one.noncesReused - 3);
		expect(counts(summary)).toEqual(counts(one));
		// The text summary of a merge is the whole's, as a ticket shows it.
		const text = await triage(['--merge', ...names.map((name) => `${name}.json`)]);
		expect(text.stdout).toContain(
			`- nonce used again by the same kid: ${one.noncesReused}; first lines`
		);
	});

	it('refuses parts that are not --json summaries of triage, in one line', async () => {
		await writeFile(join(dir, 'not-json.json'), 'summary: fine\n');
		await writeFile(join(dir, 'other.json'), '{"groups": {}}\n');
		const [notJson, other, missing] = await Promise.all([
			triage(['--merge', join(dir, 'not-json.json')]),
			triage(['--merge', join(dir, 'other.json')]),
			triage(['--merge', join(dir, 'none.json')])
		]);
		expect(notJson).toMatchObject({ code: 2, stdout: '' });
		expect(notJson.stderr).toBe(
			`triage: ${join(dir, 'not-json.json')} is not JSON (give the files triage --json printed).\n`
		);
		expect(other.stderr).toBe(
			`triage: ${join(dir, 'other.json')} is not a triage --json summary: no nonceLedger: made by triage --json before it could be merged?.\n`
		);
		expect(missing.stderr).toBe(`triage: Cannot read ${join(dir, 'none.json')} (ENOENT).\n`);
	});

	it("runs docs/triage-cli.md's split, xargs -P and --merge as written", async () => {
		const doc = await readFile(join(ROOT, 'docs/triage-cli.md'), 'utf8');
		const block = /```sh\n(split -n l\/[^`]*)```/.exec(doc)?.[1];
		expect(block).toMatch(/xargs -P/);
		// In a folder of the checkout (npm finds the package by walking up), as docs/triage-cli.md says.
		await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
		const folder = await mkdtemp(join(ROOT, 'node_modules/.cache/triage-readme-'));
		try {
			await writeFile(join(folder, 'api.log'), `${SPREAD}\n`);
			await writeFile(join(folder, 'keys.txt'), LOG.keys);
			const lines = (block ?? '').trimEnd().split('\n');
			// Each line as a shell runs it; xargs exits 123 here (parts with mismatches exit 1).
			for (const line of lines.slice(0, -1))
				await run('bash', ['-c', line], { cwd: folder }).catch((error: { code?: number }) =>
					expect(error.code).toBe(123)
				);
			const merged = await run('bash', ['-c', `${lines.at(-1)} --json`], { cwd: folder }).catch(
				(error: { code?: number; stdout: string }) => {
					expect(error.code).toBe(1);
					return error;
				}
			);
			const whole = await triage([
				join(folder, 'api.log'),
				'--keys',
				join(folder, 'keys.txt'),
				'--summary-only',
				'--json'
			]);
			expect(counts(JSON.parse(merged.stdout))).toEqual(counts(JSON.parse(whole.stdout)));
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});
