// The bench's controls (tests/bench/triage-control-*.js) are read beside the triage's ratios: a
// control that counted other requests than the reference would be a ceiling for other work. Each
// runs here as the bench runs it, a real process, against the reference script's own counts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineCuts } from '../bench/triage-control-threads.js';
import { triageLogText } from '../bench/triage-log.js';

const run = promisify(execFile);
const BENCH = join(import.meta.dirname, '..', 'bench');

/** Runs a bench script and reads its JSON counts. */
async function counts(script: string, ...args: string[]) {
	const { stdout } = await run(process.execPath, [join(BENCH, script), ...args]);
	const { match, mismatch, noKey, unreadable } = JSON.parse(stdout);
	return { match, mismatch, noKey, unreadable };
}

let dir: string;
let keys: string;
let expected: {
	match: number;
	refused: number;
	mismatch: number;
	noKey: number;
	unreadable: number;
};
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'bench-controls-'));
	const log = triageLogText({ requests: 3000, kids: 5, seed: 7 });
	expected = log.expected;
	keys = join(dir, 'keys.txt');
	await writeFile(keys, log.keys);
	// LF, CRLF, and no line break after the last line: the cuts fall after line feeds only.
	await writeFile(join(dir, 'lf.ndjson'), log.text);
	await writeFile(join(dir, 'crlf.ndjson'), log.text.replace(/\n/g, '\r\n').replace(/\r\n$/, ''));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the command line control', () => {
	for (const file of ['lf.ndjson', 'crlf.ndjson'])
		it(`counts on 1, 2 and 3 threads what the reference counts (${file})`, async () => {
			const path = join(dir, file);
			const reference = await counts('triage-reference.js', path, keys);
			expect(reference).toEqual({
				// The references count signatures: a refused request's is right.
				match: expected.match + expected.refused,
				mismatch: expected.mismatch,
				noKey: expected.noKey,
				unreadable: expected.unreadable
			});
			for (const threads of ['1', '2', '3'])
				expect(await counts('triage-control-threads.js', path, keys, threads)).toEqual(reference);
		});

	it('cuts the log just after line feeds, the whole file between them', async () => {
		const text = 'a\nbb\n\nccc\r\nd';
		const path = join(dir, 'cuts.txt');
		await writeFile(path, text);
		for (const parts of [1, 2, 3, 4, 8]) {
			const cuts: number[] = lineCuts(path, parts);
			expect(cuts[0]).toBe(0);
			expect(cuts.at(-1)).toBe(text.length);
			for (let at = 1; at < cuts.length - 1; at++) {
				const cut = cuts[at] as number;
				expect(cut).toBeGreaterThanOrEqual(cuts[at - 1] as number);
				expect(cut === text.length || text[cut - 1] === '\n').toBe(true);
			}
		}
	});
});
