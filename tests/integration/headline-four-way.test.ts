// One set of requests, fed to all four readers of a request: /verify's desk, the triage page's
// engine, the triage command line as a real process, and the sandbox server as a real process on
// loopback. Each must give every request the same verdict and headline (service-answer.ts): a right
// signature the service refuses is "refused" everywhere, never a match in one and not in another.
// Requests are signed here with node:crypto and the real clock; their send time is now (the NDJSON
// `time`, and the moment the sandbox receives them).
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlineId, type ServiceVerdict } from '$lib/diagnosis/service-answer';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { triageText, type VerdictRecord } from '$lib/triage';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';
import {
	send,
	startSandbox,
	stopAll,
	removeBundleFolder,
	type SandboxProcess
} from './sandbox-processes';
import { triage } from './triage-process';

const ACCOUNT = DEMO_ACCOUNTS[0]!;
const PATH = `/account/basic-info/v1?client_id=${ACCOUNT.clientId}`;

interface Case {
	name: string;
	ts: string;
	nonce: string;
	/** The header's ext part, if any. */
	ext?: string;
	/** What the client signed as line 7 and line 4, where it differs from the spec. */
	signedExt?: string;
	signedUri?: string;
	/** How the header departs from the spec's form: values in single quotes, or the scheme `Mac`. */
	written?: 'single-quotes' | 'scheme-case';
	/** The verdict and headline every reader must give. */
	verdict: ServiceVerdict;
	headline: string;
}

function cases(now: number): Case[] {
	const ts = String(now);
	return [
		{ name: 'signed right', ts, nonce: 'four-way-1', verdict: 'match', headline: 'match' },
		{
			name: 'ts in milliseconds',
			ts: `${now}123`,
			nonce: 'four-way-2',
			verdict: 'refused',
			headline: 'refused:ts-milliseconds'
		},
		{
			name: 'ext signed as line 7',
			ts,
			nonce: 'four-way-3',
			ext: 'abc',
			signedExt: 'abc',
			verdict: 'refused',
			headline: 'refused:ext-not-signed'
		},
		{
			name: 'ts outside the window when sent',
			ts: String(now - 1000),
			nonce: 'four-way-4',
			verdict: 'refused',
			headline: 'refused:ts-outside-window'
		},
		{
			name: 'query dropped from the request URI',
			ts,
			nonce: 'four-way-5',
			signedUri: '/account/basic-info/v1',
			verdict: 'mismatch',
			headline: 'mismatch:query-dropped'
		},
		{
			name: 'the nonce of the first request again',
			ts,
			nonce: 'four-way-1',
			verdict: 'refused',
			headline: 'refused:nonce-reused'
		},
		{
			name: 'signed right, values in single quotes',
			ts,
			nonce: 'four-way-6',
			written: 'single-quotes',
			verdict: 'refused',
			headline: 'refused:header-format'
		},
		{
			name: 'signed right, scheme written Mac',
			ts,
			nonce: 'four-way-7',
			written: 'scheme-case',
			verdict: 'refused',
			headline: 'refused:header-format'
		}
	];
}

/** The Authorization header of a case for `origin` (scheme, host and port as called). */
function authorization(item: Case, host: string, port: string): string {
	const base = [
		item.ts,
		item.nonce,
		'GET',
		item.signedUri ?? PATH,
		host,
		port,
		item.signedExt ?? ''
	].join('\n');
	const mac = createHmac('sha1', ACCOUNT.macKey).update(`${base}\n`, 'utf8').digest('base64');
	const ext = item.ext === undefined ? '' : `,ext="${item.ext}"`;
	const header = `MAC id="${ACCOUNT.kid}",ts="${item.ts}",nonce="${item.nonce}"${ext},mac="${mac}"`;
	if (item.written === 'single-quotes') return header.replaceAll('"', "'");
	return item.written === 'scheme-case' ? `Mac${header.slice(3)}` : header;
}

interface Judged {
	verdict: string;
	headline: string;
}

/** A triage's verdict record as verdict and headline. */
function fromRecord(record: VerdictRecord): Judged {
	const verdict = record.verdict as ServiceVerdict;
	return { verdict, headline: headlineId(verdict, record.refusal, record.mistake) };
}

/**
 * The desk's verdict and headline for its opened request: its diagnosis awaited (outside a page no
 * effect settles it), judged by the desk as the page's verdict panel judges its settled one.
 */
async function deskJudged(desk: VerifyDesk): Promise<Judged> {
	const diagnosis = await desk.diagnosis;
	if (diagnosis === null) throw new Error('the desk has no diagnosis');
	const judgement = desk.judgementOf(diagnosis);
	if (judgement === null) throw new Error('the desk has no request');
	return { verdict: judgement.verdict, headline: judgement.headline };
}

describe('the same verdict and headline from /verify, /triage, the CLI and the sandbox server', () => {
	let sandbox: SandboxProcess;
	let dir: string;
	beforeAll(async () => {
		sandbox = await startSandbox('npm run sandbox', ['--port', '0']);
		dir = await mkdtemp(join(tmpdir(), 'headline-four-way-'));
	});
	afterAll(async () => {
		await stopAll();
		await removeBundleFolder();
		if (dir) await rm(dir, { recursive: true, force: true });
	});

	it('judges each request alike in all four', async () => {
		const now = Math.floor(Date.now() / 1000);
		const all = cases(now);
		const host = '127.0.0.1';
		const port = String(sandbox.port);
		const url = `http://${host}:${port}${PATH}`;
		const time = new Date(now * 1000).toISOString();
		const ndjson = all
			.map((item) =>
				JSON.stringify({
					method: 'GET',
					url,
					authorization: authorization(item, host, port),
					time
				})
			)
			.join('\n');
		const keys = `${ACCOUNT.kid} ${ACCOUNT.macKey}\n`;
		const wanted = all.map(({ verdict, headline }) => ({ verdict, headline }));

		// The sandbox server, in order (the nonce of the first is remembered once it is accepted).
		// No X-Sandbox-Diagnosis is its answer that the request passed: a match.
		const sandboxJudged: Judged[] = [];
		for (const item of all) {
			const answer = await send(sandbox.port, {
				target: PATH,
				host: `${host}:${port}`,
				headers: { Authorization: authorization(item, host, port) }
			});
			const diagnosis = answer.headers['x-sandbox-diagnosis'];
			if (diagnosis === undefined) {
				expect(answer.status, item.name).toBe(200);
				sandboxJudged.push({ verdict: 'match', headline: 'match' });
			} else {
				const field = (name: string) =>
					new RegExp(`(?:^|; )${name}=([^;]*)`).exec(String(diagnosis))?.[1] ?? '';
				sandboxJudged.push({ verdict: field('verdict'), headline: field('headline') });
			}
		}

		// The triage page's engine.
		const records: VerdictRecord[] = [];
		await triageText(ndjson, keys, { onVerdicts: (batch) => void records.push(...batch) });
		const engineJudged = records.map(fromRecord);

		// The command line, as a process: one verdict a line on standard output.
		const log = join(dir, 'requests.ndjson');
		const keyFile = join(dir, 'keys.txt');
		await writeFile(log, ndjson);
		await writeFile(keyFile, keys);
		const cli = await triage([log, '--keys', keyFile, '--ndjson']);
		const cliJudged = cli.stdout
			.trim()
			.split('\n')
			.map((text) => {
				const row = JSON.parse(text) as {
					verdict: string;
					refusal: string | null;
					mistake: string | null;
				};
				const verdict = row.verdict as ServiceVerdict;
				return { verdict, headline: headlineId(verdict, row.refusal as never, row.mistake) };
			});
		// Not every signed request would be accepted: not 0.
		expect(cli.code, cli.stderr).toBe(1);

		// /verify: the same paste, each request opened from its list.
		const desk = new VerifyDesk();
		desk.signedRequest = ndjson;
		desk.macKey = ACCOUNT.macKey;
		expect(desk.requests).toHaveLength(all.length);
		const verifyJudged: Judged[] = [];
		for (const listed of desk.requests ?? []) {
			desk.open(listed.number);
			verifyJudged.push(await deskJudged(desk));
		}

		expect({ sandbox: sandboxJudged }).toEqual({ sandbox: wanted });
		expect({ engine: engineJudged }).toEqual({ engine: wanted });
		expect({ cli: cliJudged }).toEqual({ cli: wanted });
		expect({ verify: verifyJudged }).toEqual({ verify: wanted });
	});

	it('exits 0 only when every signed request would be accepted', async () => {
		const now = Math.floor(Date.now() / 1000);
		const [right, milliseconds] = cases(now);
		const url = `https://open.tapapis.cn${PATH}`;
		const keyFile = join(dir, 'keys-exit.txt');
		await writeFile(keyFile, `${ACCOUNT.kid} ${ACCOUNT.macKey}\n`);
		const run = async (item: Case) => {
			const log = join(dir, `${item.nonce}.ndjson`);
			const line = {
				method: 'GET',
				url,
				authorization: authorization(item, 'open.tapapis.cn', '443')
			};
			await writeFile(log, `${JSON.stringify(line)}\n`);
			return triage([log, '--keys', keyFile, '--summary-only']);
		};
		const accepted = await run(right!);
		expect(accepted.code, accepted.stderr).toBe(0);
		const refused = await run(milliseconds!);
		expect(refused.code, refused.stderr).toBe(1);
		expect(refused.stdout).toContain('| signature right, refused | 1 |');
	});
});
