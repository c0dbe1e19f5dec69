// The documented path from a recording to a triage (docs/sandbox.md, "The record"), with real
// processes on loopback: the sandbox server started with an accounts file and --record, requests
// signed here and sent to it, the server stopped, then `npm run triage` on the recording with the
// same accounts file as its keys. The recording masks the kids; the triage still finds each
// request's key, and keeps the kids apart, masked, in its summary.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskKid } from '$lib/diagnosis/mask-kid';
import { alive } from './relay-processes';
import { send, signRequest, startSandbox, stopAll, stopSandbox } from './sandbox-processes';
import { triage } from './triage-process';

const CLIENT = 'ci-client-0042';
const account = (kid: string, macKey: string) => ({
	kid,
	mac_key: macKey,
	client_id: CLIENT,
	scopes: ['basic_info']
});
// Two short kids that differ only at the end, and a long one.
const ACCOUNTS = [
	account('shop-17', 'key-shop-17-Xa9'),
	account('shop-28', 'key-shop-28-Pq4'),
	account('acme-kid-000001', 'key-acme-Lm2')
];
const PATH = `/account/basic-info/v1?client_id=${CLIENT}`;

let dir = '';
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'record-triage-'));
});
afterAll(async () => {
	await stopAll();
	await rm(dir, { recursive: true, force: true });
});

describe('a recording of the sandbox server, triaged', () => {
	it('finds every request its key in the accounts file it was made with, kids apart and masked', async () => {
		const accounts = join(dir, 'accounts.json');
		const record = join(dir, 'record.ndjson');
		await writeFile(accounts, JSON.stringify(ACCOUNTS, null, 2));
		const sandbox = await startSandbox('npm run sandbox', [
			'--port',
			'0',
			'--accounts',
			accounts,
			'--record',
			record
		]);
		const statuses: number[] = [];
		const host = `127.0.0.1:${sandbox.port}`;
		for (const [index, { kid, mac_key: macKey }] of ACCOUNTS.entries()) {
			// Each account's request signed right; the last account's also once with a wrong key.
			const keys = index === ACCOUNTS.length - 1 ? [macKey, 'not-the-key'] : [macKey];
			for (const key of keys) {
				const signed = await signRequest(`http://${host}${PATH}`, { kid, macKey: key });
				const answer = await send(sandbox.port, {
					target: PATH,
					host,
					headers: { Authorization: signed.authorization }
				});
				statuses.push(answer.status);
			}
		}
		expect(statuses).toEqual([200, 200, 200, 401]);
		expect(await stopSandbox(sandbox, 'SIGTERM')).toEqual({ code: 0, signal: null });
		expect(alive(sandbox)).toBe(false);

		const recorded = await readFile(record, 'utf8');
		for (const { kid, mac_key: macKey } of ACCOUNTS) {
			expect(recorded).not.toContain(`"${kid}\\"`);
			expect(recorded).toContain(`id=\\"${maskKid(kid)}\\"`);
			expect(recorded).not.toContain(macKey);
		}

		const read = await triage([record, '--keys', accounts, '--summary-only']);
		expect(read.stderr).toBe('');
		// The wrong key's request is a mismatch: exit 1, and no request left without its key.
		expect(read.code).toBe(1);
		expect(read.stdout).toContain('# Triage of 4 signed requests');
		expect(read.stdout).toContain('| match | 3 |');
		expect(read.stdout).toContain('| mismatch | 1 |');
		expect(read.stdout).toContain('| no key for kid | 0 |');
		// The Kids table: one row a kid, each masked its own way.
		for (const [kid, requests, mismatches] of [
			['sh...7', 1, 0],
			['sh...8', 1, 0],
			['acme...01', 2, 1]
		] as const)
			expect(read.stdout).toContain(`| ${kid} | ${requests} | ${mismatches} | 0 |`);
		for (const { kid, mac_key: macKey } of ACCOUNTS) {
			expect(read.stdout).not.toContain(kid);
			expect(read.stdout).not.toContain(macKey);
		}

		// `kid mac_key` lines find the masked kids too; --reveal-kid shows what the recording holds.
		const keys = join(dir, 'keys.txt');
		await writeFile(keys, ACCOUNTS.map((a) => `${a.kid} ${a.mac_key}`).join('\n'));
		const lines = await triage([record, '--keys', keys, '--summary-only', '--reveal-kid']);
		expect(lines.stdout).toContain('| match | 3 |');
		expect(lines.stdout).toContain('| sh...7 | 1 | 0 | 0 |');
	});
});
