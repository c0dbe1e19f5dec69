// Memory stays flat whatever the log's length: 2 GiB of log lines through standard input, made as
// they are written (never held), and the process's peak resident memory read as it exits.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triageLogText } from '../bench/triage-log.js';
import { start } from './triage-process';

/** Blocks of 1 MiB, 2,048 of them: 2 GiB. */
const BLOCK_BYTES = 1 << 20;
const BLOCKS = 2048;
/**
 * The peak resident memory allowed. A run over a log of 1 MB peaks at about 190 MB (most of it Vite's
 * module runner and the code it loads), the 2 GiB one at about 230 MB; held input would be GiBs.
 */
const MAX_PEAK_BYTES = 300 * 1024 * 1024;
/**
 * The heap the process gets: left to itself, V8 lets garbage pile up the more a process allocates
 * (the 2 GiB run then peaks at 280 to 300 MB, 4 GiB no higher); a limit makes it collect, so what
 * the peak measures is what the triage keeps, and anything kept per line would end the run.
 */
const HEAP_MB = 128;

/**
 * One MiB of a server's log: signed requests (a log line each: time, method, URL, status and the
 * MAC header; all match) among other lines of 4 KB. Each block signs the same requests again, so
 * from the second block on each request uses a nonce again: the ledger of nonces stays small, and
 * the count of nonces used again says every block was read.
 */
function logBlock(): { block: Buffer; keys: string; requests: number; other: number } {
	const log = triageLogText({ requests: 100, faultRate: 0, seed: 41 });
	const requests = log.text
		.trimEnd()
		.split('\n')
		.map((line) => {
			const { time, method, url, status, authorization } = JSON.parse(line);
			const at = typeof time === 'number' ? new Date(time * 1000).toISOString() : time;
			return `${at} INFO ${method} ${url} status=${status} Authorization: ${authorization}\n`;
		});
	let text = requests.join('');
	let other = 0;
	while (text.length < BLOCK_BYTES) {
		const start = `2025-11-22T08:26:42Z INFO worker-${other} `;
		const room = Math.min(4096, BLOCK_BYTES - text.length) - start.length - 1;
		text += `${start}${'x'.repeat(Math.max(0, room))}\n`;
		other += 1;
	}
	const block = Buffer.from(text);
	expect(block.length).toBe(BLOCK_BYTES);
	return { block, keys: log.keys, requests: requests.length, other };
}

let dir = '';
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-memory-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run triage on 2 GiB through standard input', () => {
	// A bound on a run that took about 30 s on a busy 2-core machine, not a measure of its speed.
	it('reads it all with its peak memory under a fixed cap', async () => {
		const { block, keys, requests, other } = logBlock();
		await writeFile(join(dir, 'keys.txt'), keys);
		// Read by the process itself as it exits: VmHWM is the peak of its resident memory.
		const peakFile = join(dir, 'peak.txt');
		await writeFile(
			join(dir, 'peak.cjs'),
			`process.on('exit', () => { const status = require('fs').readFileSync('/proc/self/status', 'utf8'); require('fs').writeFileSync(${JSON.stringify(peakFile)}, /VmHWM:\\s*(\\d+) kB/.exec(status)[1]); });\n`
		);
		const { child, done } = start(
			['-', '--keys', join(dir, 'keys.txt'), '--summary-only', '--json'],
			{ nodeOptions: ['--require', join(dir, 'peak.cjs'), `--max-old-space-size=${HEAP_MB}`] }
		);
		for (let sent = 0; sent < BLOCKS; sent++)
			if (!child.stdin.write(block)) await once(child.stdin, 'drain');
		child.stdin.end();
		const { code, stdout, stderr } = await done;
		expect(stderr).toBe('');
		// From the second block on every request uses its nonce again: signature right, but refused
		// (the spec does not say a nonce used again is accepted), so not every request would be: 1.
		expect(code).toBe(1);
		const summary = JSON.parse(stdout);
		expect(summary.bytesRead).toBe(BLOCKS * BLOCK_BYTES);
		expect(summary.requests).toBe(BLOCKS * requests);
		// The first block's requests match; each later one's is refused for its nonce used again.
		expect(summary.groups.match).toBe(requests);
		expect(summary.groups.refused).toBe((BLOCKS - 1) * requests);
		expect(summary.skipped).toBe(BLOCKS * other);
		expect(summary.noncesReused).toBe((BLOCKS - 1) * requests);
		const peakBytes = Number(await readFile(peakFile, 'utf8')) * 1024;
		expect(peakBytes).toBeGreaterThan(0);
		expect(peakBytes).toBeLessThan(MAX_PEAK_BYTES);
		// The figure, for the README and the report.
		console.log(`triage of 2 GiB: peak RSS ${(peakBytes / 2 ** 20).toFixed(0)} MiB`);
	});
});
