import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triageLogText } from '../bench/triage-log.js';

// `npm run triage` as a real process: node src/lib/triage/run.js, as package.json runs it.
const RUN = resolve(import.meta.dirname, '../../src/lib/triage/run.js');

function triage(
	...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, [RUN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', fail);
		child.on('close', (code) => done({ code, stdout, stderr }));
	});
}

let dir = '';
const LOG = triageLogText({ requests: 1200, faultRate: 0.05, seed: 21 });
const CLEAN = triageLogText({ requests: 300, faultRate: 0, seed: 22 });

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-cli-'));
	await writeFile(join(dir, 'log.ndjson'), LOG.text);
	await writeFile(join(dir, 'keys.txt'), LOG.keys);
	await writeFile(join(dir, 'clean.ndjson'), CLEAN.text);
	await writeFile(join(dir, 'clean-keys.txt'), CLEAN.keys);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each process loads the TypeScript through Vite's module runner: about a second on a busy machine.
describe('npm run triage', { timeout: 60_000 }, () => {
	it('prints the summary, writes the verdicts beside the input and exits 1 on mismatches', async () => {
		const { code, stdout, stderr } = await triage(
			join(dir, 'log.ndjson'),
			'--keys',
			join(dir, 'keys.txt')
		);
		expect(stderr).toBe('');
		expect(code).toBe(1);
		expect(stdout).toContain(`| mismatch | ${LOG.expected.mismatch} |`);
		expect(stdout).toContain(`| unreadable | ${LOG.expected.unreadable} |`);
		expect(stdout).toContain(`Verdicts: ${join(dir, 'log.ndjson.verdicts.csv')}`);
		const csv = await readFile(join(dir, 'log.ndjson.verdicts.csv'), 'utf8');
		const rows = csv.trimEnd().split('\r\n');
		expect(rows).toHaveLength(LOG.expected.requests + 1);
		expect(rows[0]).toMatch(/^number,method,url,kid,verdict,mistake,/);
		expect(rows.filter((row) => row.includes(',mismatch,query-dropped,'))).toHaveLength(
			LOG.expected.mistakes['query-dropped']
		);
		for (const line of LOG.keys.trim().split('\n')) {
			const [kid = '', key = ''] = line.split(' ');
			for (const text of [stdout, csv]) {
				expect(text).not.toContain(key);
				expect(text).not.toContain(kid);
			}
		}
	});

	it('prints JSON with --json and exits 0 when everything matches', async () => {
		const { code, stdout } = await triage(
			'--json',
			join(dir, 'clean.ndjson'),
			'--keys',
			join(dir, 'clean-keys.txt'),
			'--out',
			join(dir, 'clean.csv')
		);
		expect(code).toBe(0);
		const summary = JSON.parse(stdout);
		expect(summary.format).toBe('ndjson');
		expect(summary.groups).toEqual({ match: 300, mismatch: 0, 'no-key': 0, unreadable: 0 });
		expect(summary.verdicts).toBe(join(dir, 'clean.csv'));
		expect((await readFile(join(dir, 'clean.csv'), 'utf8')).split('\r\n')).toHaveLength(302);
	});

	it('exits 2 with a clear message on a usage error, naming a bad keys line but never its key', async () => {
		const noKeys = await triage(join(dir, 'log.ndjson'));
		expect(noKeys.code).toBe(2);
		expect(noKeys.stderr).toMatch(/^Give the keys: --keys KEYFILE\.\n\nUsage: npm run triage/);

		const noFile = await triage('--keys', join(dir, 'keys.txt'));
		expect(noFile.code).toBe(2);
		expect(noFile.stderr).toContain('Give the FILE to triage.');

		const missing = await triage(join(dir, 'nope.ndjson'), '--keys', join(dir, 'keys.txt'));
		expect(missing.code).toBe(2);
		expect(missing.stderr).toBe(`Cannot read ${join(dir, 'nope.ndjson')} (ENOENT).\n`);

		const unknown = await triage('--fast', join(dir, 'log.ndjson'));
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain('Unknown option --fast.');

		await writeFile(join(dir, 'bad-keys.txt'), 'kid-a key-a\nkid-b secret-b extra\n');
		const badKeys = await triage(join(dir, 'log.ndjson'), '--keys', join(dir, 'bad-keys.txt'));
		expect(badKeys.code).toBe(2);
		expect(badKeys.stderr).toBe(
			`${join(dir, 'bad-keys.txt')}, line 2: more than "kid mac_key" on the line.\n`
		);
		expect(badKeys.stderr).not.toContain('secret-b');

		const help = await triage('--help');
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('--keys KEYFILE');
	});
});
