// The triage CLI as a real process: a request whose header is not written as the spec shows it
// never ends in exit 0, even when its kid has no key (it cannot be verified, and its header would
// still have to be rewritten); the Markdown summary says how many and which.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triage } from './triage-process';

const KEY = 'a-key-for-the-cli-format-test';
const URI = '/account/basic-info/v1?client_id=abc';
const URL_ = `https://open.tapapis.cn${URI}`;

/** A line of NDJSON signed by node:crypto over the spec's seven lines (not by our core). */
function line(kid: string, nonce: string, write: (header: string) => string): string {
	const ts = '1764320000';
	const mac = createHmac('sha1', KEY)
		.update(`${ts}\n${nonce}\nGET\n${URI}\nopen.tapapis.cn\n443\n\n`)
		.digest('base64');
	const authorization = write(`MAC id="${kid}",ts="${ts}",nonce="${nonce}",mac="${mac}"`);
	return JSON.stringify({ time: '2025-11-28T08:53:20Z', method: 'GET', url: URL_, authorization });
}

let dir = '';
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'triage-format-'));
	await writeFile(join(dir, 'keys.txt'), `kid-with-key ${KEY}\n`);
	await writeFile(
		join(dir, 'clean.ndjson'),
		[
			line('kid-with-key', 'bm9uY2Ux', (header) => header),
			line('kid-without-key', 'bm9uY2Uy', (header) => header)
		].join('\n') + '\n'
	);
	// Kids with no key in the keys file: one written as the spec shows it, one in single quotes.
	await writeFile(
		join(dir, 'no-key.ndjson'),
		[
			line('kid-with-key', 'bm9uY2Ux', (header) => header),
			line('kid-without-key', 'bm9uY2Uy', (header) => header),
			line('other-kid', 'bm9uY2Uz', (header) => header.replaceAll('"', "'")),
			// No key, and a mac of 40 hex digits and a ts in milliseconds: told without the key.
			line('hex-kid', 'bm9uY2U0', (header) =>
				header
					.replace(/mac="[^"]*"/, `mac="${'ab'.repeat(20)}"`)
					.replace(/ts="(\d+)"/, 'ts="$1123"')
			)
		].join('\n') + '\n'
	);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('triage CLI, header format', () => {
	it('exits 0 for a clean log and a kid with no key written in the spec form', async () => {
		const clean = await triage([
			join(dir, 'clean.ndjson'),
			'--keys',
			join(dir, 'keys.txt'),
			'--out',
			join(dir, 'clean.csv')
		]);
		expect(clean.code).toBe(0);
		expect(clean.stdout).not.toContain('header not written as the spec shows it');
		expect(clean.stdout).not.toContain('what the requests alone show');
	});

	it('exits 1 for a kid with no key whose header is in single quotes, and says which line', async () => {
		const ran = await triage([
			join(dir, 'no-key.ndjson'),
			'--keys',
			join(dir, 'keys.txt'),
			'--out',
			join(dir, 'no-key.csv')
		]);
		expect(ran.stderr).toBe('');
		expect(ran.code).toBe(1);
		expect(ran.stdout).toContain('| no key for kid | 3 |');
		expect(ran.stdout).toMatch(/header not written as the spec shows it .*: 1; first lines 3/);
		// What the requests of kids with no key show alone, each with its line.
		expect(ran.stdout).toContain('## No key for kid: what the requests alone show');
		expect(ran.stdout).toContain('| ts in milliseconds (13 digits) | 1 | 4 |');
		expect(ran.stdout).toContain('| mac: 40 hex digits (SHA-1 in hex) | 1 | 4 |');
	});
});
