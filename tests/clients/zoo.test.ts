// The client zoo (issue 22, part 1): the vendor's doc samples and its Unity SDK, each rewritten with
// its own habits (programs/), run with its own toolchain, sign the matrix of requests (matrix.ts);
// each request goes to the sandbox service over raw HTTP on loopback and into an NDJSON log that the
// triage command line reads. Every request must come back match, or mismatch named with the
// catalogued mistake the client makes: "unexplained" fails.
//
// A client whose toolchain is missing is skipped with a line naming it, except under CI=true, where
// it fails (.ci/run installs every toolchain). The report (per client, and the base strings of every
// request not judged as expected) and a sample for /verify are written to $ZOO_OUT, by default
// <tmp>/mac-token-zoo.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAuthorization } from '../../src/lib/mac';
import { CLIENTS, missingCommands } from './clients';
import { CLIENT_IDS, zooRequests, type ClientId, type ZooRequest } from './matrix';
import { oneLine, tally, type VerifyCase } from './report';
import { isLoopbackAddress, sendRaw } from './sandbox';
import { runZoo, type Outcome, type ZooRun } from './zoo';

const REQUIRED = process.env.CI === 'true';
const OUT = process.env.ZOO_OUT ?? join(tmpdir(), 'mac-token-zoo');
const REQUESTS = zooRequests();

const MISSING = new Map(CLIENT_IDS.map((client) => [client, missingCommands(client)]));
for (const [client, missing] of MISSING) {
	if (missing.length === 0) continue;
	const what = `${CLIENTS[client].name} (${CLIENTS[client].toolchain}): ${missing.join(', ')} not found`;
	console.log(
		REQUIRED ? `client zoo: ${what}; CI=true, so its requests fail` : `client zoo: skipped ${what}`
	);
}
const RUNNABLE = CLIENT_IDS.filter((client) => MISSING.get(client)?.length === 0);

/** The header each client writes: its separator, its ts and its nonce. */
const HEADER_SHAPES: Record<ClientId, RegExp> = {
	'docs-shell': /^MAC id="[^"]+",ts="\d+",nonce="8IBTHwOdqNKAWeKl7plt8g==",mac="[\w+/]{27}="$/,
	'docs-node-current':
		/^MAC id="[^"]+", ts="\d{10}", nonce="[\w+/]{21}[AQgw]==", mac="[\w+/]{27}="$/,
	'docs-node-old': /^MAC id="[^"]+",ts="\d+",nonce="[\w+/]{21}[AQgw]==",mac="[\w+/]{27}="$/,
	'docs-java': /^MAC id="[^"]+",ts="\d{10}",nonce="[\w+/]{21}[AQgw]==",mac="[\w+/]{27}="$/,
	'docs-php': /^MAC id="[^"]+",ts="\d+",nonce="== XinDong_Lee-JiEun ==",mac="[\w+/]{27}="$/,
	'docs-python3': /^MAC id="[^"]+",ts="\d+",nonce="[A-Za-z]{16}",mac="[\w+/]{27}="$/,
	'docs-go': /^MAC id="[^"]+",ts="\d+",nonce="8IBTHwOdqNKAWeKl7plt66==",mac="[\w+/]{27}="$/,
	'unity-sdk': /^MAC id="[^"]+",ts="\d+",nonce="\d+",mac="(?:[\w+/]{27}=|[\w+/]{43}=)"$/
};

/** The ts each client writes for its clock readings: floor of the second, the older Node sample's ceil. */
function expectedTs(request: ZooRequest): string {
	const readings = (request.input.now_ms ?? '').split(',').map(Number);
	const last = readings[readings.length - 1] ?? 0;
	if (request.client === 'docs-node-old') return String(Math.ceil(last / 1000));
	return String(Math.floor((readings[0] ?? 0) / 1000));
}

/**
 * The clients whose sample ships a fixed nonce: named with high confidence on every request. The
 * others write forms other code writes too: unknown, unless a mistake only their code makes names
 * them (src/lib/diagnosis/likely-client.ts; the calibration is tests/unit/likely-client-calibration).
 */
const FIXED_NONCE: ReadonlySet<ClientId> = new Set(['docs-shell', 'docs-php', 'docs-go']);

let run: ZooRun | null = null;

beforeAll(async () => {
	if (RUNNABLE.length === 0) return;
	run = await runZoo(REQUESTS, RUNNABLE, OUT);
	const lines = [`client zoo: ${run.outcomes.length} requests; report ${run.files.report}`];
	for (const [client, row] of tally(run.outcomes))
		lines.push(
			`  ${CLIENTS[client].name}: ${row.match} match, ${row.explained} explained, ${row.unexplained} unexplained, ${row['explained-otherwise'] + row['mismatch-unexpected'] + row['match-unexpected'] + row['not-judged']} otherwise`
		);
	console.log(lines.join('\n'));
});

function outcomeOf(request: ZooRequest): Outcome {
	const outcome = run?.outcomes.find((candidate) => candidate.request === request);
	if (!outcome) throw new Error(`no outcome for ${request.id}`);
	return outcome;
}

/** `it` for one client: skipped (or failing under CI) when its toolchain is missing. */
function itWith(client: ClientId, name: string, test: () => void) {
	const missing = MISSING.get(client) ?? [];
	if (missing.length === 0) it(name, test);
	else if (!REQUIRED) it.skip(`${name} (skipped: ${missing.join(', ')} not found)`, test);
	else
		it(name, () => {
			throw new Error(
				`${CLIENTS[client].name} needs ${missing.join(', ')}: .ci/run installs ${CLIENTS[client].toolchain}`
			);
		});
}

/**
 * Whether a request earlier in the zoo's log (the matrix's order, requests the client refused to
 * sign left out, as the log leaves them out) sent this one's kid and nonce, read from the headers.
 */
function nonceUsedBefore(request: (typeof REQUESTS)[number]): boolean {
	const pair = (one: (typeof REQUESTS)[number]): string | null => {
		const sent = run?.outcomes.find((candidate) => candidate.request === one)?.sent;
		if (sent === undefined || sent.refused !== undefined) return null;
		const header = parseAuthorization(sent.authorization);
		return `${header.id}\n${header.nonce}`;
	};
	const own = pair(request);
	return REQUESTS.slice(0, REQUESTS.indexOf(request)).some((earlier) => pair(earlier) === own);
}

for (const client of CLIENT_IDS) {
	describe(`${CLIENTS[client].name}, run with ${CLIENTS[client].toolchain}`, () => {
		const requests = REQUESTS.filter((request) => request.client === client);

		itWith(client, 'writes the header in its own shape, with its own ts', () => {
			for (const request of requests) {
				const { sent } = outcomeOf(request);
				expect(sent.client, request.id).toBe(client);
				expect(sent.authorization, request.id).toMatch(HEADER_SHAPES[client]);
				const header = parseAuthorization(sent.authorization);
				expect(Number(header.ts), request.id).toBe(Number(expectedTs(request)));
				expect(header.id, request.id).toBe(request.account.kid);
			}
		});

		for (const request of requests) {
			itWith(
				client,
				`${request.name}: ${request.expect === 'match' ? 'match' : `names ${[request.expect].flat().join(' and ')}`}`,
				() => {
					const outcome = outcomeOf(request);
					const context = [
						`${request.id}: sent ${outcome.sent.method} ${outcome.sent.target} (Host ${outcome.sent.host})`,
						`sandbox: ${outcome.answer ? `${outcome.answer.status} ${outcome.answer.error ?? ''}` : `not sent: ${outcome.sent.refused}`}`,
						`signed: ${oneLine(outcome.sent.base_string)}`,
						`spec:   ${oneLine(outcome.specBaseString)}`
					].join('\n');
					expect(outcome.sent.refused, context).toBeUndefined();
					const verdict = outcome.verdict;
					const named =
						verdict?.verdict === 'mismatch' ? verdict.mistake.split('+').sort().join('+') : '';
					// A sample with a fixed nonce sends it again: a right signature is then refused for
					// its nonce (the sandbox refuses it; whether the service does, the spec does not say).
					const again =
						outcome.expectedIds.length === 0 && nonceUsedBefore(request) ? 'nonce-reused' : '';
					expect(
						{ verdict: verdict?.verdict, mistake: named, refusal: verdict?.refusal },
						context
					).toEqual({
						verdict:
							outcome.expectedIds.length > 0 ? 'mismatch' : again === '' ? 'match' : 'refused',
						mistake: outcome.expectedIds.join('+'),
						refusal: again
					});
					// The clock check has the client's own reading to compare with: never outside the window.
					expect(verdict?.tsOutsideWindow, context).toBe('false');
				}
			);
		}

		itWith(client, 'is named as the likely client or unknown, never another one', () => {
			const named = requests.map((request) => {
				const verdict = outcomeOf(request).verdict;
				return `${request.id}: ${verdict?.likelyClient} (${verdict?.likelyClientConfidence})`;
			});
			const wrong = named.filter((line) => {
				const [, who = '', confidence = ''] = /: (\S+) \((\w*)\)$/.exec(line) ?? [];
				// A client is named alone, with a confidence; anything less is unknown.
				return who !== 'unknown' && (who !== client || confidence === '');
			});
			expect(wrong).toEqual([]);
			if (FIXED_NONCE.has(client)) {
				const confident = named.filter((line) => line.endsWith(`: ${client} (high)`));
				expect(confident).toEqual(named);
			}
		});
	});
}

describe('the sandbox service and the triage', () => {
	it('sends to loopback only', () => {
		for (const address of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', '0:0:0:0:0:0:0:1'])
			expect(isLoopbackAddress(address), address).toBe(true);
		for (const address of ['10.0.0.1', '128.0.0.1', '::2', '::ffff:8.8.8.8', 'localhost'])
			expect(isLoopbackAddress(address), address).toBe(false);
		expect(() =>
			sendRaw('http://10.0.0.1:80', {
				method: 'GET',
				target: '/',
				host: 'open.tapapis.cn',
				authorization: 'MAC id="a",ts="1",nonce="n",mac="m"',
				https: true
			})
		).toThrow(/loopback only/);
	});

	it('agree on the mac of every request the sandbox verified', () => {
		if (RUNNABLE.length === 0) return expect(RUNNABLE).toEqual([]);
		// Checks the sandbox makes after the mac: a nonce used again, the client_id, the scope, 200.
		const AFTER_MAC = /mac does not match|nonce was already used|not the application|did not grant/;
		const verified = (run?.outcomes ?? []).filter(
			(outcome) =>
				outcome.answer !== null &&
				(outcome.answer.status === 200 || AFTER_MAC.test(outcome.answer.description ?? ''))
		);
		expect(verified.length).toBeGreaterThan(0);
		const disagreements = verified
			.filter(
				(outcome) =>
					/mac does not match/.test(outcome.answer?.description ?? '') !==
					(outcome.verdict?.verdict === 'mismatch')
			)
			.map(
				(outcome) =>
					`${outcome.request.id}: ${outcome.answer?.description}, ${outcome.verdict?.verdict}`
			);
		expect(disagreements).toEqual([]);
	});

	it('writes a sample of signed requests with their keys for /verify', async () => {
		if (RUNNABLE.length === 0) return expect(RUNNABLE).toEqual([]);
		const file = run?.files.verifySample ?? '';
		const sample = JSON.parse(await readFile(file, 'utf8')) as VerifyCase[];
		expect(new Set(sample.map((entry) => entry.client))).toEqual(new Set(RUNNABLE));
		expect(sample.some((entry) => entry.expected === 'match')).toBe(true);
		expect(sample.some((entry) => entry.expected !== 'match')).toBe(true);
		for (const entry of sample) {
			expect(entry.url, entry.id).toMatch(/^https:\/\/open\.tapapis\.(cn|com)\//);
			expect(parseAuthorization(entry.authorization).id, entry.id).toBe(entry.kid);
			expect(entry.macKey, entry.id).not.toBe('');
		}
	});
});
