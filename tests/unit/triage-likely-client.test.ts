// The likely client in triage: each verdict carries it (refined by a mismatch's mistake), the
// Summary counts readable requests per client, the CSV and the Markdown carry it, and so does the
// command line's summary, text and JSON.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientGroupId, confidenceOf } from '$lib/diagnosis/likely-client';
import { main } from '../../src/node/triage/cli';
import { CSV_COLUMNS, summaryMarkdown, verdictsCsv } from '$lib/triage/exports';
import { triageText } from '$lib/triage/engine';
import { TriageDesk } from '$lib/triage-desk/desk.svelte';
import { clientLine } from '$lib/triage-desk/client-labels';
import type { TriageSummary, VerdictRecord } from '$lib/triage/types';
import { ndjsonLine, signAs, type ShapedClient } from './client-shaped';
import { assigned } from './assigned';
import { workerChannel } from './triage-channel';

const KID = 'kid-of-a-zoo-customer-77';
const KEY = 'zoo-customer-key-Qx81';
const URL = 'https://open.tapapis.cn/account/profile/v1?client_id=zoo-app';
const NOW = 1_780_000_000;

/** Requests as each client makes them, in log order, with the group triage must put each in. */
const PLAN: [ShapedClient, string, Partial<Parameters<typeof signAs>[1]>?][] = [
	// The samples' fixed nonces: named, with high confidence.
	['docs-php', 'docs-php'],
	['docs-php', 'docs-php'],
	['docs-php', 'docs-php'],
	// 16 letters, a decimal nonce, Base64 of 16 bytes: forms other code writes too, unknown.
	['docs-python3', 'unknown'],
	['docs-python3', 'unknown'],
	['unity-sdk', 'unknown'],
	// HMAC-SHA-256: Unity's mistake, and a common one elsewhere; still unknown.
	['unity-sdk', 'unknown', { sha256: true }],
	['docs-shell', 'docs-shell'],
	['docs-go', 'docs-go'],
	['docs-node-current', 'unknown'],
	['docs-java', 'unknown'],
	['docs-java', 'unknown'],
	// The other deployment's host signed: of the shape's two clients only the older Node.js sample
	// makes it, but so can other code: unknown.
	['docs-node-old', 'unknown', { signedHost: 'open.tapapis.com' }],
	// `:443` in the signed URI, the Java sample's own way of taking it: named, medium confidence.
	[
		'docs-java',
		'docs-java',
		{ url: 'https://open.tapapis.cn:443/account/profile/v1?client_id=zoo-app' }
	]
];

const requests = PLAN.map(([client, , signing], index) =>
	signAs(client, { kid: KID, key: KEY, url: URL, seconds: NOW + index, ...signing })
);
const LOG = [
	...requests.map((request, index) => ndjsonLine(request, NOW + index)),
	// rack-oauth2's order (id, nonce, ts, mac): no vendor client's.
	JSON.stringify({
		method: 'GET',
		url: URL,
		authorization: `MAC id="${KID}", nonce="5:abc", ts="${NOW}", mac="x"`
	}),
	'not json'
].join('\n');

let verdicts: VerdictRecord[] = [];
let summary: TriageSummary;

beforeAll(async () => {
	const all: VerdictRecord[] = [];
	summary = await triageText(LOG, `${KID} ${KEY}`, {
		nowMs: NOW * 1000,
		onVerdicts: (batch) => void all.push(...batch)
	});
	verdicts = all;
});

describe('triage names the likely client', () => {
	it('of every request, a mismatch by its mistake too', () => {
		expect(verdicts.map((record) => clientGroupId(record.client))).toEqual([
			...PLAN.map(([, group]) => group),
			'unknown',
			'unknown'
		]);
		expect(confidenceOf((verdicts[0] as VerdictRecord).client)).toBe('high');
		const sha256 = verdicts[6] as VerdictRecord;
		expect(sha256).toMatchObject({ verdict: 'mismatch', mistake: 'hmac-sha256' });
		expect(confidenceOf(sha256.client)).toBe(null);
		const otherHost = verdicts[12] as VerdictRecord;
		expect(otherHost).toMatchObject({ verdict: 'mismatch', mistake: 'host-other-deployment' });
		expect(confidenceOf(otherHost.client)).toBe(null);
		const port = verdicts[13] as VerdictRecord;
		expect(port).toMatchObject({ verdict: 'mismatch', mistake: 'uri-with-port' });
		expect(confidenceOf(port.client)).toBe('medium');
	});

	it('and counts the readable requests per client, most first', () => {
		expect(summary.clients).toEqual([
			{ id: 'unknown', count: 9 },
			{ id: 'docs-php', count: 3 },
			{ id: 'docs-shell', count: 1 },
			{ id: 'docs-java', count: 1 },
			{ id: 'docs-go', count: 1 }
		]);
		expect(summary.groups.unreadable).toBe(1);
	});

	it('in the CSV (client, confidence, evidence) and the Markdown summary', () => {
		expect(CSV_COLUMNS.slice(-3)).toEqual([
			'likely_client',
			'likely_client_confidence',
			'likely_client_evidence'
		]);
		const rows = verdictsCsv(verdicts).trimEnd().split('\r\n');
		expect(rows[0]).toMatch(/,likely_client,likely_client_confidence,likely_client_evidence$/);
		expect(rows[1]).toMatch(/,docs-php,high,nonce_php; separator_comma$/);
		expect(rows[11]).toMatch(/,unknown,,$/);
		expect(rows[14]).toMatch(
			/,docs-java,medium,nonce_base64; separator_comma; uri_with_port_unknown$/
		);
		expect(rows.at(-1)).toMatch(/,not-json,,,$/);
		const markdown = summaryMarkdown(summary);
		expect(markdown).toContain('## Likely clients');
		expect(markdown).toContain('| `docs-java` | 1 |');
		expect(markdown).toContain('| `unknown` | 9 |');
		expect(markdown).toContain("Named only on a sample's fixed nonce (high confidence)");
		const named = summaryMarkdown(summary, { clientLabel: (id) => `client ${id}` });
		expect(named).toContain('| client docs-php | 3 |');
	});
});

describe('the triage page', () => {
	it("words each row's client with its confidence and evidence", () => {
		const line = (index: number) => {
			const record = verdicts[index] as VerdictRecord;
			return clientLine(record.client, record.mistake);
		};
		expect(line(0)).toBe(
			"docs PHP sample, high confidence, because: the PHP sample's fixed nonce == XinDong_Lee-JiEun ==; header parts joined by , with no space"
		);
		expect(line(13)).toBe(
			"docs Java sample, medium confidence, because: nonce Base64 of 16 bytes; header parts joined by , with no space; the URL's port in the signed URI"
		);
		expect(line(6)).toBe('unknown');
	});

	it('filters the verdicts by likely client, with the other filters, and sorts by it', async () => {
		const desk = new TriageDesk(workerChannel);
		desk.requestsText = LOG;
		desk.keysText = `${KID} ${KEY}`;
		desk.start();
		expect(await assigned(desk, 'phase', (phase) => phase !== 'running')).toBe('done');
		expect(desk.summary?.clients).toEqual(summary.clients);
		const numbers = () => [...desk.rows].map((record) => record.number);
		desk.clientFilter = 'docs-php';
		expect(numbers()).toEqual([1, 2, 3]);
		desk.clientFilter = 'docs-java';
		expect(numbers()).toEqual([14]);
		// 'unknown' holds the readable requests no client is named for, not the unreadable line.
		desk.clientFilter = 'unknown';
		expect(numbers()).toEqual([4, 5, 6, 7, 10, 11, 12, 13, 15]);
		desk.groupFilter = 'mismatch';
		expect(numbers()).toEqual([7, 13, 15]);
		desk.groupFilter = 'all';
		desk.clientFilter = 'all';
		desk.sortBy('client');
		expect(clientGroupId(desk.rows.at(0).client)).toBe('unknown');
		expect(desk.rows.at(0).verdict).toBe('unreadable');
		expect(clientGroupId(desk.rows.at(desk.rows.length - 10).client)).toBe('docs-shell');
		expect(clientGroupId(desk.rows.at(desk.rows.length - 1).client)).toBe('unknown');
		desk.dispose();
	});
});

describe('npm run triage', () => {
	let dir = '';
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'triage-clients-'));
		await writeFile(join(dir, 'log.ndjson'), LOG);
		await writeFile(join(dir, 'keys.txt'), `${KID} ${KEY}\n`);
	});
	afterAll(() => rm(dir, { recursive: true, force: true }));

	const run = async (...extra: string[]) => {
		let stdout = '';
		const code = await main([join(dir, 'log.ndjson'), '--keys', join(dir, 'keys.txt'), ...extra], {
			stdout: (text) => (stdout += text),
			stderr: (text) => (stdout += text)
		});
		return { code, stdout };
	};

	it('names the counts per client in its text and its JSON summary, and in the CSV', async () => {
		const text = await run();
		expect(text.code).toBe(1);
		expect(text.stdout).toContain('## Likely clients');
		expect(text.stdout).toContain('| `docs-php` | 3 |');
		expect(text.stdout).toContain('| `unknown` | 9 |');
		const json = await run('--json');
		expect(JSON.parse(json.stdout).clients).toEqual(summary.clients);
		const csv = await readFile(join(dir, 'log.ndjson.verdicts.csv'), 'utf8');
		expect(csv.split('\r\n')[1]).toMatch(/,docs-php,high,nonce_php; separator_comma$/);
		expect(csv.split('\r\n')[4]).toMatch(/,unknown,,$/);
	});
});
