// A file that is not what it claims (issue 23 §2), at a size only a process of its own shows in
// bounded memory: 150 MB of `[` read by the triage engine in a child with a 512 MB heap
// (records-flood.js). The rest of the hostile files: tests/unit/records-hostile-files.test.ts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs records-flood.js (the engine over `megabytes` of `[`) in a child with a 512 MB heap. */
function flood(shape: 'har' | 'plain', megabytes: number): Promise<Record<string, unknown>> {
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			['--max-old-space-size=512', 'tests/integration/records-flood.js', shape, String(megabytes)],
			{ cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 },
			(error, stdout, stderr) => {
				if (error) reject(new Error(`the child failed: ${String(error)}\n${stderr.slice(-2000)}`));
				else resolve(JSON.parse(stdout) as Record<string, unknown>);
			}
		);
	});
}

const MB = 1 << 20;

describe('150 MB of `[`, generated as a stream, in a child process', () => {
	it('after a HAR start: memory grows less than 200 MB, and it is cut short at entry 1 at its last byte', async () => {
		const result = await flood('har', 150);
		const total = 150 * MB + '{"log":{"entries":['.length;
		expect(result).toMatchObject({
			format: 'har',
			stopped: { number: 1, code: 'har-cut-short', at: total },
			bytesRead: total,
			records: 1
		});
		expect(result.growth).toBeLessThan(200 * MB);
	});

	it('alone: one line too long, memory grows less than 200 MB', async () => {
		const result = await flood('plain', 150);
		expect(result).toMatchObject({
			format: 'log-lines',
			stopped: null,
			bytesRead: 150 * MB,
			unreadable: [{ code: 'too-long', count: 1 }],
			records: 1
		});
		expect(result.growth).toBeLessThan(200 * MB);
	});
});
