import { once } from 'node:events';
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/node/triage/cli';
import { triageLogText } from '../bench/triage-log.js';
import { inShell, start, triage } from './triage-process';

let dir = '';
const LOG = triageLogText({ requests: 1200, faultRate: 0.05, seed: 21 });
const CLEAN = triageLogText({ requests: 300, faultRate: 0, seed: 22 });
const OLD_VERDICTS = 'the verdicts of an earlier run\n';

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-cli-'));
	await writeFile(join(dir, 'log.ndjson'), LOG.text);
	await writeFile(join(dir, 'keys.txt'), LOG.keys);
	await writeFile(join(dir, 'clean.ndjson'), CLEAN.text);
	await writeFile(join(dir, 'clean-keys.txt'), CLEAN.keys);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The files of a folder whose names say they are temporary (the CSV before its rename). */
async function temporaryFiles(folder: string): Promise<string[]> {
	return (await readdir(folder)).filter((name) => name.endsWith('.tmp'));
}

// Each process loads the TypeScript through Vite's module runner: about a second on a busy machine.
describe('npm run triage', () => {
	it('prints the summary, writes the verdicts beside the input and exits 1 on mismatches', async () => {
		const { code, stdout, stderr } = await triage([
			join(dir, 'log.ndjson'),
			'--keys',
			join(dir, 'keys.txt')
		]);
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
		expect(await temporaryFiles(dir)).toEqual([]);
	});

	it('prints JSON with --json and exits 0 when everything matches', async () => {
		const { code, stdout } = await triage([
			'--json',
			join(dir, 'clean.ndjson'),
			'--keys',
			join(dir, 'clean-keys.txt'),
			'--out',
			join(dir, 'clean.csv')
		]);
		expect(code).toBe(0);
		const summary = JSON.parse(stdout);
		expect(summary.format).toBe('ndjson');
		expect(summary.groups).toEqual({ match: 300, mismatch: 0, 'no-key': 0, unreadable: 0 });
		expect(summary.verdicts).toBe(join(dir, 'clean.csv'));
		expect((await readFile(join(dir, 'clean.csv'), 'utf8')).split('\r\n')).toHaveLength(302);
	});

	it('exits 2 with one line on a usage error, naming a bad keys line but never its key', async () => {
		await writeFile(join(dir, 'bad-keys.txt'), 'kid-a key-a\nkid-b secret-b extra\n');
		const [noKeys, noFile, missing, unknown, badKeys, help] = await Promise.all([
			triage([join(dir, 'log.ndjson')]),
			triage(['--keys', join(dir, 'keys.txt')]),
			triage([join(dir, 'nope.ndjson'), '--keys', join(dir, 'keys.txt')]),
			triage(['--fast', join(dir, 'log.ndjson')]),
			triage([join(dir, 'log.ndjson'), '--keys', join(dir, 'bad-keys.txt')]),
			triage(['--help'])
		]);
		expect(noKeys.code).toBe(2);
		expect(noKeys.stderr).toBe(
			'triage: Give the keys: --keys KEYFILE. See npm run triage -- --help.\n'
		);

		expect(noFile.code).toBe(2);
		expect(noFile.stderr).toBe('triage: Give the FILE to triage. See npm run triage -- --help.\n');

		expect(missing.code).toBe(2);
		expect(missing.stderr).toBe(`triage: Cannot read ${join(dir, 'nope.ndjson')} (ENOENT).\n`);

		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toBe('triage: Unknown option --fast. See npm run triage -- --help.\n');

		expect(badKeys.code).toBe(2);
		expect(badKeys.stderr).toBe(
			`triage: ${join(dir, 'bad-keys.txt')}, line 2: more than "kid mac_key" on the line.\n`
		);
		expect(badKeys.stderr).not.toContain('secret-b');

		expect(help.code).toBe(0);
		expect(help.stdout).toContain('--keys KEYFILE');
		// The statuses a script may test are documented where --help shows them.
		expect(help.stdout).toMatch(/^ {2}0 {8}every request read matches/m);
		expect(help.stdout).toMatch(/^ {2}1 {8}a request mismatches or cannot be read/m);
		expect(help.stdout).toMatch(/^ {2}2 {8}a usage error, or input that cannot be read/m);
	});

	it('refuses --out naming the log under any spelling, or the keys, before writing anything', async () => {
		const folder = join(dir, 'spellings');
		await mkdir(join(folder, 'sub'), { recursive: true });
		const log = join(folder, 'log.ndjson');
		await writeFile(log, LOG.text);
		await symlink(log, join(folder, 'symbolic.ndjson'));
		await link(log, join(folder, 'hard.ndjson'));
		const keys = join(dir, 'keys.txt');
		const refused = `is the log being triaged (log.ndjson): the verdicts would overwrite it. Give another --out.\n`;
		// The log given by a relative name, --out spelled four other ways (the process runs in `folder`).
		const spellings = ['./log.ndjson', 'sub/../log.ndjson', 'symbolic.ndjson', 'hard.ndjson'];
		const runs = await Promise.all(
			spellings.map((out) => {
				const { child, done } = start(['log.ndjson', '--keys', keys, '--out', out], {
					cwd: folder
				});
				child.stdin.end();
				return done.then(({ code, stdout, stderr }) => ({ out, code, stdout, stderr }));
			})
		);
		expect(runs).toEqual(
			spellings.map((out) => ({
				out,
				code: 2,
				stdout: '',
				stderr: `triage: --out ${out} ${refused}`
			}))
		);
		expect(await readFile(log, 'utf8')).toBe(LOG.text);
		const onKeys = await triage([log, '--keys', keys, '--out', keys]);
		expect(onKeys.code).toBe(2);
		expect(onKeys.stderr).toBe(
			`triage: --out ${keys} is the keys file: the verdicts would overwrite it. Give another --out.\n`
		);
		expect(await readFile(keys, 'utf8')).toBe(LOG.keys);
		expect(await temporaryFiles(folder)).toEqual([]);
	});

	it('refuses --out naming the file standard input is read from (`- < log`)', async () => {
		const log = join(dir, 'stdin-log.ndjson');
		await writeFile(log, LOG.text);
		const keys = join(dir, 'keys.txt');
		const { code, stdout, stderr } = await inShell('"$0" "$1" - --keys "$2" --out "$3" < "$3"', [
			keys,
			log
		]);
		expect({ code, stdout, stderr }).toEqual({
			code: 2,
			stdout: '',
			stderr: `triage: --out ${log} is the log being triaged (standard input): the verdicts would overwrite it. Give another --out.\n`
		});
		expect(await readFile(log, 'utf8')).toBe(LOG.text);
	});

	it('leaves neither a half-written CSV nor a temporary file when stopped by a signal', async () => {
		const folder = join(dir, 'stopped');
		await mkdir(folder);
		const out = join(folder, 'verdicts.csv');
		for (const [signal, status] of [
			['SIGTERM', 143],
			['SIGINT', 130]
		] as const) {
			await writeFile(out, OLD_VERDICTS);
			const { child, done } = start([
				'-',
				'--keys',
				join(dir, 'keys.txt'),
				'--ndjson',
				'--out',
				out
			]);
			// More than one batch of verdicts (2,000), and the input left open: the run is under way.
			child.stdin.write(LOG.text + LOG.text);
			const first = await Promise.race([
				once(child.stdout, 'data').then(([chunk]) => String(chunk)),
				done.then(({ stderr }) => `ended before any verdict: ${stderr}`)
			]);
			expect(first).toMatch(/^\{"number":1,/);
			child.kill(signal);
			const { code, stderr } = await done;
			expect(code).toBe(status);
			expect(stderr).toBe(`triage: stopped by ${signal}; ${out} was not written.\n`);
			expect(await readFile(out, 'utf8')).toBe(OLD_VERDICTS);
			expect(await temporaryFiles(folder)).toEqual([]);
		}
	});

	it('says in one line that a file is empty, or that the verdicts cannot be written', async () => {
		await writeFile(join(dir, 'empty.log'), '');
		const empty = await triage([join(dir, 'empty.log'), '--keys', join(dir, 'keys.txt')]);
		expect(empty.code).toBe(2);
		expect(empty.stderr).toBe(
			`triage: ${join(dir, 'empty.log')} is empty: there is nothing to triage.\n`
		);
		expect(await readdir(dir)).not.toContain('empty.log.verdicts.csv');

		const emptyStdin = await triage(['-', '--keys', join(dir, 'keys.txt'), '--summary-only']);
		expect(emptyStdin.code).toBe(2);
		expect(emptyStdin.stderr).toBe(
			'triage: standard input is empty: there is nothing to triage.\n'
		);

		// /dev/full: every write fails with ENOSPC, as a full disk does.
		const full = await triage([
			join(dir, 'log.ndjson'),
			'--keys',
			join(dir, 'keys.txt'),
			'--out',
			'/dev/full'
		]);
		expect(full.code).toBe(2);
		expect(full.stderr).toBe('triage: Cannot write the verdicts to /dev/full (ENOSPC).\n');
		expect(full.stdout).toBe('');
	});

	it('reads a log rotated as .gz, refuses a binary one in one line, and reads a keys file saved as UTF-16', async () => {
		// gzip by node:zlib, as logrotate's compress writes it: read as the log inside.
		await writeFile(join(dir, 'log.ndjson.gz'), gzipSync(LOG.text));
		const gz = await triage([
			join(dir, 'log.ndjson.gz'),
			'--keys',
			join(dir, 'keys.txt'),
			'--summary-only'
		]);
		expect(gz.stderr).toBe('');
		expect(gz.code).toBe(1);
		expect(gz.stdout).toContain(`# Triage of ${LOG.expected.requests} signed requests`);
		expect(gz.stdout).toContain(`| mismatch | ${LOG.expected.mismatch} |`);
		await writeFile(join(dir, 'clean.ndjson.gz'), gzipSync(CLEAN.text));
		const cleanGz = await triage([
			join(dir, 'clean.ndjson.gz'),
			'--keys',
			join(dir, 'clean-keys.txt'),
			'--summary-only'
		]);
		expect(cleanGz.stderr).toBe('');
		expect(cleanGz.code).toBe(0);
		expect(cleanGz.stdout).toContain(`| match | ${CLEAN.expected.match} |`);

		await writeFile(join(dir, 'core.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0, 1, 2]));
		const binary = await triage([join(dir, 'core.bin'), '--keys', join(dir, 'keys.txt')]);
		expect(binary.code).toBe(2);
		expect(binary.stderr).toMatch(/^triage: .*core\.bin holds binary data, not text: /);

		// Notepad's "Unicode": UTF-16 LE with its mark, lines ending in CRLF.
		const utf16 = Buffer.concat([
			Buffer.from([0xff, 0xfe]),
			Buffer.from(CLEAN.keys.replace(/\n/g, '\r\n'), 'utf16le')
		]);
		await writeFile(join(dir, 'keys-utf16.txt'), utf16);
		const clean = await triage([
			join(dir, 'clean.ndjson'),
			'--keys',
			join(dir, 'keys-utf16.txt'),
			'--summary-only'
		]);
		expect(clean.stderr).toBe('');
		expect(clean.code).toBe(0);
	});

	it('says a file of text with no signed request in it, exit 2 and no verdicts file, and reads UTF-8 after a stray UTF-16 mark', async () => {
		// A UTF-16 mark, then the lines in UTF-8: read as UTF-8, every request found.
		await writeFile(
			join(dir, 'marked.ndjson'),
			Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CLEAN.text)])
		);
		const marked = await triage([
			join(dir, 'marked.ndjson'),
			'--keys',
			join(dir, 'clean-keys.txt'),
			'--summary-only'
		]);
		expect(marked.stderr).toBe('');
		expect(marked.code).toBe(0);
		expect(marked.stdout).toContain(`# Triage of ${CLEAN.expected.requests} signed requests`);

		// The wrong file: text, but no MAC-signed request in it.
		await writeFile(join(dir, 'access.log'), 'GET /health 200\nGET /ready 200\n\nstarted\n');
		const none = await triage([join(dir, 'access.log'), '--keys', join(dir, 'keys.txt')]);
		expect(none.code).toBe(2);
		expect(none.stdout).toBe('');
		expect(none.stderr).toBe(
			`triage: ${join(dir, 'access.log')} holds no signed request: 40 bytes read as log lines, 4 lines or entries, none with an Authorization: MAC header. Check that it is the log of the calls, saved as text (UTF-8 or UTF-16).\n`
		);
		expect(await readdir(dir)).not.toContain('access.log.verdicts.csv');
		expect(await temporaryFiles(dir)).toEqual([]);
	});

	it('turns an error from nowhere into one line and status 2, and removes its temporary file', async () => {
		const folder = join(dir, 'failing');
		await mkdir(folder);
		const out = join(folder, 'verdicts.csv');
		await writeFile(out, OLD_VERDICTS);
		let stderr = '';
		const code = await main(
			[join(dir, 'log.ndjson'), '--keys', join(dir, 'keys.txt'), '--out', out, '--ndjson'],
			{
				stdout: () => {
					throw new Error('the terminal caught fire\n    at somewhere (file.js:1:1)');
				},
				stderr: (text) => (stderr += text)
			}
		);
		expect(code).toBe(2);
		expect(stderr).toBe('triage: internal error: the terminal caught fire\n');
		expect(await readFile(out, 'utf8')).toBe(OLD_VERDICTS);
		expect(await temporaryFiles(folder)).toEqual([]);
		// The same when only the summary cannot be printed: a status, not a rejection with a stack.
		let said = '';
		const printing = await main(
			[join(dir, 'clean.ndjson'), '--keys', join(dir, 'clean-keys.txt'), '--json', '--out', out],
			{
				stdout: () => {
					throw new TypeError('stdout is gone');
				},
				stderr: (text) => (said += text)
			}
		);
		expect(printing).toBe(2);
		expect(said).toBe('triage: internal error: stdout is gone\n');
	});
});
