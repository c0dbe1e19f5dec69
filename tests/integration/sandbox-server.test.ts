// The sandbox server as integrators' CI runs it, both ways: `npm run sandbox -- …` (which bundles the
// server first) and the shipped sandbox-server.mjs run with plain node from an empty folder. Each
// option is checked over raw HTTP on loopback against real processes; requests are signed with the
// real clock, and nothing is timed but from below (a latency is at least what was asked for).
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskKid } from '$lib/diagnosis/mask-kid';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { FILE_NAME } from '../../src/build/sandbox-server-bundle.js';
import { seededRandom } from '../../src/node/sandbox-server/seeded-random.js';
import { demoTokens } from '$lib/sandbox/state';
import { alive, type RawAnswer } from './relay-processes';
import {
	bundleFolder,
	LAUNCHES,
	openEvents,
	removeBundleFolder,
	ROOT,
	runSandbox,
	send,
	signRequest,
	startSandbox,
	stopAll,
	stopSandbox,
	type SandboxProcess,
	type Signed
} from './sandbox-processes';
import { triage } from './triage-process';

/** The demo account with both scopes, and the one with basic_info only. */
const PROFILE = DEMO_ACCOUNTS[0]!;
const BASIC = DEMO_ACCOUNTS[1]!;
const WRONG_KEY = 'not-the-mac-key-Xy7Q';
const BASIC_INFO = `/account/basic-info/v1?client_id=${PROFILE.clientId}`;
const PROFILE_INFO = `/account/profile/v1?client_id=${PROFILE.clientId}`;
const ALLOWED_ORIGIN = 'http://localhost:5173';

interface Envelope {
	data: Record<string, unknown>;
	now: number;
	success: boolean;
}

interface Answer extends RawAnswer {
	json: Envelope;
	signed: Signed | null;
	diagnosis: string | undefined;
}

interface Call {
	/** Path and query as sent. */
	path?: string;
	kid?: string;
	macKey?: string;
	ts?: string;
	nonce?: string;
	/** The Host header; 127.0.0.1:PORT by default. */
	host?: string;
	/** The URL signed; `http://<host><path>` by default. */
	signedUrl?: string;
	headers?: Record<string, string>;
	/** No Authorization header at all. */
	unsigned?: boolean;
	/** A header signed before, sent again as it is. */
	authorization?: string;
}

/** Signs a GET (as PROFILE, of basic-info, as called at 127.0.0.1:PORT unless told) and sends it. */
async function call(sandbox: SandboxProcess, options: Call = {}): Promise<Answer> {
	const path = options.path ?? BASIC_INFO;
	const host = options.host ?? `127.0.0.1:${sandbox.port}`;
	const signed =
		options.unsigned || options.authorization !== undefined
			? null
			: await signRequest(
					options.signedUrl ?? `http://${host}${path}`,
					{ kid: options.kid ?? PROFILE.kid, macKey: options.macKey ?? PROFILE.macKey },
					{ ts: options.ts, nonce: options.nonce }
				);
	const authorization = options.authorization ?? signed?.authorization;
	const answer = await send(sandbox.port, {
		target: path,
		host,
		headers: {
			...(authorization === undefined ? {} : { Authorization: authorization }),
			...options.headers
		}
	});
	let json: Envelope;
	try {
		json = JSON.parse(answer.body) as Envelope;
	} catch {
		throw new Error(`not JSON (${answer.status}): ${answer.body}`);
	}
	return { ...answer, json, signed, diagnosis: answer.headers['x-sandbox-diagnosis'] };
}

/** `now` of a body: whole Unix seconds, of this machine's day (not milliseconds). */
function expectUnixSeconds(now: unknown): void {
	expect(Number.isInteger(now)).toBe(true);
	expect(Math.abs((now as number) - Date.now() / 1000)).toBeLessThan(3600);
}

/** An error answer of the service: its status, and the error in the wrapped body. */
function expectError(answer: Answer, status: number, code: string): void {
	expect(answer.status, answer.body).toBe(status);
	expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
	expect(Object.keys(answer.json).sort()).toEqual(['data', 'now', 'success']);
	expect(answer.json).toMatchObject({ data: { code: 0, error: code }, success: false });
	expect(answer.json.data.error_description).toEqual(expect.any(String));
	expect(answer.json.data.msg).toEqual(expect.any(String));
	expectUnixSeconds(answer.json.now);
}

/** A success answer of the service: 200, and exactly `data` in the wrapped body. */
function expectData(answer: Answer, data: Record<string, unknown>): void {
	expect(answer.status, answer.body).toBe(200);
	expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
	expect(Object.keys(answer.json).sort()).toEqual(['data', 'now', 'success']);
	expect(answer.json.success).toBe(true);
	expect(answer.json.data).toEqual(data);
	expectUnixSeconds(answer.json.now);
}

/** The headers and body of an answer, to search for what must never be in it. */
const wholeText = (answer: RawAnswer) => JSON.stringify(answer.headers) + answer.body;

const sandboxHeaders = (answer: RawAnswer) =>
	Object.keys(answer.headers).filter((name) => name.startsWith('x-sandbox-'));

/** A port free a moment ago. */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((done) => server.close(() => done()));
	return port;
}

let dir = '';

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'sandbox-server-test-'));
});

afterAll(async () => {
	await stopAll();
	await removeBundleFolder();
	if (dir !== '') await rm(dir, { recursive: true, force: true });
});

it('npm run sandbox is start.js under node', async () => {
	const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	expect(pkg.scripts.sandbox).toBe('node src/node/sandbox-server/start.js');
});

// `npm run sandbox` bundles before it listens: seconds each on a busy 2-core machine, waited out.
for (const launch of LAUNCHES) {
	describe(launch, () => {
		/** Started with `--port 0` and nothing else, for the tests of the defaults. */
		let server: SandboxProcess;

		beforeAll(async () => {
			server = await startSandbox(launch, ['--port', '0']);
		});

		afterAll(async () => {
			if (server) await stopSandbox(server);
		});

		describe('starting', () => {
			it('writes exactly "listening http://127.0.0.1:PORT" first, on a free port with --port 0', async () => {
				expect(server.firstLine).toMatch(/^listening http:\/\/127\.0\.0\.1:\d{1,5}$/);
				expect(server.stdout().split('\n')[0]).toBe(`listening http://127.0.0.1:${server.port}`);
				expect(server.port).toBeGreaterThan(0);
				expect(server.port).not.toBe(8787);
				const journal = await send(server.port, {
					target: '/__sandbox/journal',
					host: `127.0.0.1:${server.port}`
				});
				expect(journal.status).toBe(200);
				if (launch === 'node sandbox-server.mjs')
					expect(await readdir(await bundleFolder())).toEqual([FILE_NAME]);
			});

			it('listens on the port --port names', async () => {
				const port = await freePort();
				const sandbox = await startSandbox(launch, ['--port', String(port)]);
				try {
					expect(sandbox.firstLine).toBe(`listening http://127.0.0.1:${port}`);
					expectData(await call(sandbox, { path: BASIC_INFO }), {
						openid: expect.any(String),
						unionid: expect.any(String)
					});
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('prints the usage for --help and exits 0', async () => {
				const ran = await runSandbox(launch, ['--help']);
				expect(ran.code, ran.stderr).toBe(0);
				expect(ran.stdout).toMatch(/^Usage: node sandbox-server\.mjs \[options\]\n/);
				// Every option the server reads, the accounts format with an example, a command.
				const options = await readFile(join(ROOT, 'src/node/sandbox-server/options.ts'), 'utf8');
				const read = [...options.matchAll(/flag === '(--[a-z-]+)'/g)].map((match) => match[1]!);
				expect(read.length).toBeGreaterThan(10);
				for (const option of read) expect(ran.stdout).toMatch(new RegExp(`^ {2}${option}\\b`, 'm'));
				const format = ran.stdout.slice(ran.stdout.indexOf('Accounts file (--accounts)'));
				for (const field of ['kid', 'mac_key', 'client_id', 'scopes', 'state', 'openid', 'name'])
					expect(format).toMatch(new RegExp(`^ {2}(?:[a-z_]+, )*${field}\\b`, 'm'));
				expect(ran.stdout).toMatch(/^Example, accounts\.json:$/m);
				expect(ran.stdout).toMatch(/^ {2}node sandbox-server\.mjs --port \d+ --accounts /m);
				// Someone with only the downloaded file has no README and no npm scripts.
				expect(ran.stdout).not.toMatch(/README|npm run/);
				expect(ran.stdout).not.toContain('listening http://127.0.0.1:8787\n');
				expect(ran.stderr).toBe('');
			});

			it('serves the accounts of the example --help gives', async () => {
				const help = (await runSandbox(launch, ['--help'])).stdout;
				const example = help.slice(help.indexOf('Example, accounts.json:\n')).split('\n');
				const json = example.slice(1, example.indexOf('  ]') + 1).join('\n');
				const file = join(dir, `help-accounts-${launch.split(' ')[0]}.json`);
				await writeFile(file, json);
				const accounts = JSON.parse(json) as { kid: string; mac_key: string; client_id: string }[];
				const sandbox = await startSandbox(launch, ['--port', '0', '--accounts', file]);
				try {
					const [active, revoked] = accounts;
					const path = `/account/basic-info/v1?client_id=${active!.client_id}`;
					const ok = await call(sandbox, { path, kid: active!.kid, macKey: active!.mac_key });
					expect(ok.status, ok.body).toBe(200);
					const refused = await call(sandbox, {
						path,
						kid: revoked!.kid,
						macKey: revoked!.mac_key
					});
					expectError(refused, 401, 'access_denied');
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('exits 2 on an unknown option or a bad value, saying which', async () => {
				const unknown = await runSandbox(launch, ['--port', '0', '--no-such-option']);
				expect(unknown.code).toBe(2);
				expect(unknown.stdout).toBe('');
				expect(unknown.stderr).toContain('Unknown option --no-such-option');
				const badValue = await runSandbox(launch, ['--port', 'eighty']);
				expect(badValue.code).toBe(2);
				expect(badValue.stderr).toContain('--port');
				// The way to the options that works with the downloaded file alone.
				expect(badValue.stderr).toContain('--help lists the options');
				expect(unknown.stderr + badValue.stderr).not.toMatch(/README|npm run/);
			});
		});

		describe('answering as the service does', () => {
			it('answers both operations in the body envelope', async () => {
				const identity = demoTokens()[0]!.identity;
				expectData(await call(server, { path: BASIC_INFO }), {
					openid: identity.openid,
					unionid: identity.unionid
				});
				const profile = await call(server, { path: PROFILE_INFO });
				expectData(profile, {
					name: identity.name,
					avatar: expect.any(String),
					openid: identity.openid,
					unionid: identity.unionid
				});
				expect(profile.diagnosis).toBeUndefined();
			});

			it('answers each error of the spec with its status', async () => {
				// server_error (500) is asked for with --fault, below.
				expectError(await call(server, { unsigned: true }), 400, 'invalid_request');
				const old = String(Math.floor(Date.now() / 1000) - 3600);
				expectError(await call(server, { ts: old }), 400, 'invalid_time');
				expectError(
					await call(server, { path: '/account/basic-info/v1?client_id=someone-else' }),
					401,
					'invalid_client'
				);
				expectError(await call(server, { macKey: WRONG_KEY }), 401, 'access_denied');
				expectError(
					await call(server, { path: PROFILE_INFO, kid: BASIC.kid, macKey: BASIC.macKey }),
					403,
					'forbidden'
				);
				expectError(
					await call(server, { path: `/account/nothing/v1?client_id=${PROFILE.clientId}` }),
					404,
					'not_found'
				);
			});

			it('accepts the host it is called by, with the port and scheme the client signed', async () => {
				const host = 'open.tapapis.cn';
				// Plain HTTP: port 80.
				const plain = await call(server, { host, signedUrl: `http://${host}${BASIC_INFO}` });
				expect(plain.status, plain.body).toBe(200);
				// Behind a TLS proxy: https and port 443.
				const https = await call(server, {
					host,
					signedUrl: `https://${host}${BASIC_INFO}`,
					headers: { 'X-Forwarded-Proto': 'https' }
				});
				expect(https.status, https.body).toBe(200);
				// Called directly: the host without its port, the port signed.
				for (const name of ['127.0.0.1', 'localhost']) {
					const direct = await call(server, { host: `${name}:${server.port}` });
					expect(direct.status, direct.body).toBe(200);
					expect(direct.signed?.baseString).toContain(`\n${name}\n${server.port}\n`);
				}
				// Signed for https but called over plain HTTP: the port differs, the mac does not match.
				const mixed = await call(server, { host, signedUrl: `https://${host}${BASIC_INFO}` });
				expectError(mixed, 401, 'access_denied');
				expect(mixed.headers['x-sandbox-base-string']).toContain(`\\n${host}\\n80\\n`);
			});

			it('refuses a nonce used again with invalid_request', async () => {
				const first = await call(server);
				expect(first.status, first.body).toBe(200);
				const again = await call(server, { authorization: first.signed!.authorization });
				expectError(again, 400, 'invalid_request');
				expect(again.diagnosis).toBe('reason=nonce-reused');
			});

			it('accepts a ts 10 s old within the default window of 300 s', async () => {
				const ts = String(Math.floor(Date.now() / 1000) - 10);
				const answer = await call(server, { ts });
				expect(answer.status, answer.body).toBe(200);
			});
		});

		describe('--accounts', () => {
			const accounts = [
				{
					kid: 'ci-kid-active-000001',
					mac_key: 'ci-mac-key-active-7Hq2',
					client_id: 'ci-client-0042',
					scopes: ['basic_info', 'public_profile'],
					state: 'active',
					openid: 'ci-openid-grace',
					unionid: 'ci-unionid-grace',
					name: 'Grace CI',
					avatar: 'https://avatars.example/grace.png'
				},
				{
					kid: 'ci-kid-revoked-000002',
					mac_key: 'ci-mac-key-revoked-9Lp4',
					client_id: 'ci-client-0042',
					scopes: ['basic_info'],
					state: 'revoked',
					openid: 'ci-openid-ray',
					unionid: 'ci-unionid-ray',
					name: 'Ray',
					avatar: ''
				}
			];
			const [active, revoked] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
			const query = `?client_id=${active.client_id}`;

			it('serves the accounts of the file, and only those', async () => {
				const file = join(dir, `accounts-${launch.split(' ')[0]}.json`);
				await writeFile(file, JSON.stringify(accounts));
				const sandbox = await startSandbox(launch, ['--port', '0', '--accounts', file]);
				try {
					const as = { kid: active.kid, macKey: active.mac_key };
					expectData(await call(sandbox, { ...as, path: `/account/profile/v1${query}` }), {
						name: active.name,
						avatar: active.avatar,
						openid: active.openid,
						unionid: active.unionid
					});
					expectData(await call(sandbox, { ...as, path: `/account/basic-info/v1${query}` }), {
						openid: active.openid,
						unionid: active.unionid
					});
					const refused = await call(sandbox, {
						kid: revoked.kid,
						macKey: revoked.mac_key,
						path: `/account/basic-info/v1${query}`
					});
					expectError(refused, 401, 'access_denied');
					expect(refused.diagnosis).toBe('reason=revoked');
					// The demo accounts are not served beside the file's.
					const unknown = await call(sandbox, { path: BASIC_INFO });
					expectError(unknown, 401, 'access_denied');
					expect(unknown.diagnosis).toBe('reason=unknown-kid');
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('exits 2 on a malformed file, naming the file, the account and the field', async () => {
				const file = join(dir, 'accounts.json');
				const keyless: Record<string, unknown> = { ...active, kid: 'ci-kid-third-000003' };
				delete keyless.mac_key;
				await writeFile(
					file,
					JSON.stringify([active, { ...revoked, kid: 'ci-kid-second-000002' }, keyless])
				);
				const ran = await runSandbox(launch, ['--port', '0', '--accounts', file]);
				expect(ran.code).toBe(2);
				expect(ran.stdout).toBe('');
				expect(ran.stderr).toBe(`${file}: account 3: mac_key is missing\n`);
				expect(ran.stderr).not.toContain(active.mac_key);
			});
		});

		describe('faults, latency and the window', () => {
			it('--fault server_error:first=2 fails the first 2 requests of each kid with 500', async () => {
				const sandbox = await startSandbox(launch, [
					'--port',
					'0',
					'--fault',
					'server_error:first=2'
				]);
				try {
					for (let i = 0; i < 2; i++) {
						const failed = await call(sandbox);
						expectError(failed, 500, 'server_error');
						expect(failed.diagnosis).toBe('reason=fault; fault=server_error:first=2');
					}
					const third = await call(sandbox);
					expect(third.status, third.body).toBe(200);
					// Counted per kid: the other account's first request fails too.
					const other = { kid: BASIC.kid, macKey: BASIC.macKey };
					expectError(await call(sandbox, other), 500, 'server_error');
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('--fault forbidden:kid=K refuses every request of K alone', async () => {
				const sandbox = await startSandbox(launch, [
					'--port',
					'0',
					'--fault',
					`forbidden:kid=${BASIC.kid}`
				]);
				try {
					const basic = { kid: BASIC.kid, macKey: BASIC.macKey };
					for (let i = 0; i < 2; i++) {
						const refused = await call(sandbox, basic);
						expectError(refused, 403, 'forbidden');
						expect(refused.diagnosis).toBe(`reason=fault; fault=forbidden:kid=${BASIC.kid}`);
					}
					const answer = await call(sandbox);
					expect(answer.status, answer.body).toBe(200);
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('--fault invalid_time:rate=0.5 --seed 7 fails the same requests in every run', async () => {
				const REQUESTS = 16;
				const run = async () => {
					const sandbox = await startSandbox(launch, [
						'--port',
						'0',
						'--fault',
						'invalid_time:rate=0.5',
						'--seed',
						'7'
					]);
					try {
						const statuses: number[] = [];
						for (let i = 0; i < REQUESTS; i++) {
							const answer = await call(sandbox);
							if (answer.status !== 200) {
								expectError(answer, 400, 'invalid_time');
								expect(answer.diagnosis).toBe('reason=fault; fault=invalid_time:rate=0.5');
							}
							statuses.push(answer.status);
						}
						return statuses;
					} finally {
						await stopSandbox(sandbox);
					}
				};
				const first = await run();
				const second = await run();
				expect(second).toEqual(first);
				expect(first).toContain(200);
				expect(first).toContain(400);
				// The seed given, not another: one draw of the seeded generator per request.
				const random = seededRandom(7);
				expect(first).toEqual(Array.from({ length: REQUESTS }, () => (random() < 0.5 ? 400 : 200)));
			});

			it('--latency 300 answers no sooner than 300 ms', async () => {
				const sandbox = await startSandbox(launch, ['--port', '0', '--latency', '300']);
				try {
					for (const options of [{}, { macKey: WRONG_KEY }]) {
						const started = performance.now();
						const answer = await call(sandbox, options);
						const elapsed = performance.now() - started;
						expect([200, 401]).toContain(answer.status);
						expect(elapsed).toBeGreaterThanOrEqual(300);
					}
				} finally {
					await stopSandbox(sandbox);
				}
			});

			it('--window 5 refuses a ts 10 s old with invalid_time', async () => {
				const sandbox = await startSandbox(launch, ['--port', '0', '--window', '5']);
				try {
					const ts = String(Math.floor(Date.now() / 1000) - 10);
					const refused = await call(sandbox, { ts });
					expectError(refused, 400, 'invalid_time');
					expect(refused.diagnosis).toBe('reason=ts-outside-window');
					expect(refused.json.data.error_description).toContain('±5 s');
				} finally {
					await stopSandbox(sandbox);
				}
			});
		});

		describe('diagnosis headers', () => {
			it('says why a wrong mac_key failed and shows the base string, never a key', async () => {
				const answer = await call(server, { macKey: WRONG_KEY });
				expectError(answer, 401, 'access_denied');
				expect(answer.diagnosis).toMatch(/^reason=mac-mismatch; mistake=/);
				const signed = answer.signed!.baseString;
				expect(signed.split('\n')).toHaveLength(8);
				expect(answer.headers['x-sandbox-base-string']).toBe(signed.replaceAll('\n', '\\n'));
				expect(answer.json.data.sandbox_base_string).toBe(signed);
				for (const key of [PROFILE.macKey, WRONG_KEY]) expect(wholeText(answer)).not.toContain(key);
				// A request that passes carries no diagnosis.
				const passed = await call(server);
				expect(passed.status).toBe(200);
				expect(sandboxHeaders(passed)).toEqual([]);
			});

			it('says which host was signed and which address called when they differ', async () => {
				const called = `127.0.0.1:${server.port}`;
				// The production URL signed (its host and port 443), the sandbox's own address called.
				const production = await call(server, {
					signedUrl: `https://open.tapapis.cn${BASIC_INFO}`
				});
				expectError(production, 401, 'access_denied');
				expect(production.diagnosis).toContain(
					`; signed=open.tapapis.cn; called=${called}; hint="signed open.tapapis.cn but called ${called}: sign the host you call"`
				);
				expect(production.diagnosis).not.toMatch(/deployment"/);
				// Only the host wrong: the same sentence.
				const hostOnly = await call(server, {
					signedUrl: `http://open.tapapis.com:${server.port}${BASIC_INFO}`
				});
				expect(hostOnly.diagnosis).toMatch(/^reason=mac-mismatch; mistake=host-other-deployment; /);
				expect(hostOnly.diagnosis).toContain(
					`hint="signed open.tapapis.com but called ${called}: sign the host you call"`
				);
				// A wrong key says nothing of hosts.
				const wrongKey = await call(server, { macKey: WRONG_KEY });
				expect(wrongKey.diagnosis).not.toContain('signed=');
			});

			it('--strict sends no X-Sandbox-* header and no base string', async () => {
				const sandbox = await startSandbox(launch, ['--port', '0', '--strict']);
				try {
					const mismatch = await call(sandbox, { macKey: WRONG_KEY });
					expectError(mismatch, 401, 'access_denied');
					expect(sandboxHeaders(mismatch)).toEqual([]);
					expect(mismatch.body).not.toContain('sandbox_base_string');
					expect(wholeText(mismatch)).not.toContain(PROFILE.macKey);
					const unknown = await call(sandbox, { kid: 'no-such-kid-0000', macKey: WRONG_KEY });
					expectError(unknown, 401, 'access_denied');
					expect(sandboxHeaders(unknown)).toEqual([]);
					const fine = await call(sandbox);
					expect(fine.status, fine.body).toBe(200);
					expect(sandboxHeaders(fine)).toEqual([]);
				} finally {
					await stopSandbox(sandbox);
				}
			});
		});

		describe('journal and events', () => {
			const journal = (method = 'GET', headers: Record<string, string> = {}) =>
				send(server.port, {
					method,
					target: '/__sandbox/journal',
					host: `127.0.0.1:${server.port}`,
					headers
				});

			it('keeps each request, the kid masked and no key; DELETE clears it', async () => {
				await call(server);
				const before = JSON.parse((await journal()).body) as { entries: unknown[] };
				expect(before.entries.length).toBeGreaterThan(0);
				const cleared = await journal('DELETE');
				expect(cleared.status).toBe(204);
				expect(cleared.body).toBe('');
				const empty = await journal();
				expect(empty.status).toBe(200);
				expect(JSON.parse(empty.body)).toEqual({ entries: [] });

				const ok = await call(server);
				const wrong = await call(server, { macKey: WRONG_KEY });
				const answer = await journal();
				expect(answer.status).toBe(200);
				expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
				for (const key of [PROFILE.macKey, WRONG_KEY]) expect(answer.body).not.toContain(key);
				expect(answer.body).not.toContain(PROFILE.kid);
				const { entries } = JSON.parse(answer.body) as { entries: Record<string, unknown>[] };
				expect(entries).toHaveLength(2);
				const [first, second] = entries as [Record<string, unknown>, Record<string, unknown>];
				expect(Object.keys(first).sort()).toEqual(
					[
						'seq',
						'time',
						'method',
						'url',
						'kid',
						'status',
						'verdict',
						'diagnosis',
						'baseString',
						'authorization'
					].sort()
				);
				expect(maskKid(PROFILE.kid)).toBe('demo...1c');
				const url = `http://127.0.0.1:${server.port}${BASIC_INFO}`;
				expect(first).toEqual({
					seq: expect.any(Number),
					time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
					method: 'GET',
					url,
					kid: 'demo...1c',
					status: 200,
					verdict: 'ok',
					diagnosis: null,
					baseString: ok.signed!.baseString,
					authorization: ok.signed!.authorization.replace(PROFILE.kid, 'demo...1c')
				});
				expect(second).toMatchObject({
					seq: (first.seq as number) + 1,
					url,
					kid: 'demo...1c',
					status: 401,
					verdict: 'mac-mismatch',
					baseString: wrong.signed!.baseString,
					authorization: wrong.signed!.authorization.replace(PROFILE.kid, 'demo...1c')
				});
				expect(second.diagnosis).toBe(wrong.diagnosis);
				expect(second.diagnosis).toMatch(/^reason=mac-mismatch; mistake=/);
			});

			it('streams each new entry as a Server-Sent Event', async () => {
				const stream = await openEvents(server.port);
				try {
					expect(stream.status).toBe(200);
					expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
					const answer = await call(server, { path: PROFILE_INFO });
					expect(answer.status, answer.body).toBe(200);
					const event = await stream.next();
					expect(event.event).toBe('entry');
					const entry = JSON.parse(event.data) as Record<string, unknown>;
					expect(entry).toMatchObject({
						method: 'GET',
						url: `http://127.0.0.1:${server.port}${PROFILE_INFO}`,
						kid: 'demo...1c',
						status: 200,
						verdict: 'ok',
						baseString: answer.signed!.baseString
					});
					expect(event.id).toBe(String(entry.seq));
					expect(event.data).not.toContain(PROFILE.macKey);
				} finally {
					stream.close();
				}
				expect(alive(server)).toBe(true);
			});

			it('lets the allowed pages read it (CORS, private network) and no other', async () => {
				const preflight = (origin: string, port = server.port) =>
					send(port, {
						method: 'OPTIONS',
						target: '/__sandbox/events',
						host: `127.0.0.1:${port}`,
						headers: {
							Origin: origin,
							'Access-Control-Request-Method': 'GET',
							'Access-Control-Request-Private-Network': 'true'
						}
					});
				const allowed = await preflight(ALLOWED_ORIGIN);
				expect(allowed.status).toBe(204);
				expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
				expect(allowed.headers['access-control-allow-private-network']).toBe('true');
				expect(allowed.headers['access-control-allow-methods']).toContain('GET');
				const evil = await preflight('https://evil.example');
				expect(evil.status).toBeGreaterThanOrEqual(400);
				expect(evil.headers['access-control-allow-origin']).toBeUndefined();
				expect(evil.headers['access-control-allow-private-network']).toBeUndefined();
				// The journal itself: read by the allowed page, not by another.
				const read = await journal('GET', { Origin: ALLOWED_ORIGIN });
				expect(read.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
				const readByEvil = await journal('GET', { Origin: 'https://evil.example' });
				expect(readByEvil.headers['access-control-allow-origin']).toBeUndefined();
			});

			it('--allow-origin replaces the allowed pages', async () => {
				const origin = 'https://ci.example.test';
				const sandbox = await startSandbox(launch, ['--port', '0', '--allow-origin', origin]);
				try {
					const preflight = (from: string) =>
						send(sandbox.port, {
							method: 'OPTIONS',
							target: '/__sandbox/events',
							host: `127.0.0.1:${sandbox.port}`,
							headers: { Origin: from, 'Access-Control-Request-Method': 'GET' }
						});
					const allowed = await preflight(origin);
					expect(allowed.status).toBe(204);
					expect(allowed.headers['access-control-allow-origin']).toBe(origin);
					const former = await preflight(ALLOWED_ORIGIN);
					expect(former.headers['access-control-allow-origin']).toBeUndefined();
				} finally {
					await stopSandbox(sandbox);
				}
			});
		});

		describe('--record and the signals', () => {
			const keysFile = async () => {
				const file = join(dir, 'keys.txt');
				await writeFile(file, `${PROFILE.kid} ${PROFILE.macKey}\n`);
				return file;
			};
			const readLines = async (file: string) =>
				(await readFile(file, 'utf8'))
					.split('\n')
					.filter((line) => line !== '')
					.map((line) => JSON.parse(line) as Record<string, unknown>);

			it('records every request, kids masked, and ends on SIGTERM with the file whole', async () => {
				const file = join(dir, `record-${launch.split(' ')[0]}.ndjson`);
				const sandbox = await startSandbox(launch, ['--port', '0', '--record', file]);
				const answers = [
					await call(sandbox),
					await call(sandbox, { macKey: WRONG_KEY }),
					await call(sandbox, { unsigned: true }),
					await call(sandbox, { path: `/account/nothing/v1?client_id=${PROFILE.clientId}` })
				];
				expect(answers.map((answer) => answer.status)).toEqual([200, 401, 400, 404]);
				const ended = await stopSandbox(sandbox, 'SIGTERM');
				expect(ended).toEqual({ code: 0, signal: null });
				expect(alive(sandbox)).toBe(false);

				const text = await readFile(file, 'utf8');
				for (const secret of [PROFILE.macKey, WRONG_KEY, PROFILE.kid])
					expect(text).not.toContain(secret);
				const lines = await readLines(file);
				expect(lines).toHaveLength(answers.length);
				for (const [index, line] of lines.entries()) {
					expect(Object.keys(line).sort()).toEqual([
						'authorization',
						'method',
						'status',
						'time',
						'url'
					]);
					const answer = answers[index]!;
					expect(line.method).toBe('GET');
					expect(line.status).toBe(answer.status);
					expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
					expect(line.authorization).toBe(
						answer.signed?.authorization.replace(PROFILE.kid, 'demo...1c') ?? null
					);
				}
				expect(lines[0]!.url).toBe(`http://127.0.0.1:${sandbox.port}${BASIC_INFO}`);

				const read = await triage([file, '--keys', await keysFile(), '--summary-only']);
				expect(read.stderr).toBe('');
				expect(read.stdout).toContain(`# Triage of ${answers.length} signed requests`);
				// The kids are masked, and the key file's kid is found by its mask: every signed
				// request is checked against its key (the wrong key's is the mismatch).
				expect(read.stdout).toContain('| no key for kid | 0 |');
				expect(read.stdout).toContain('| match | 2 |');
				expect(read.stdout).toContain('| mismatch | 1 |');
				expect(read.stdout).toContain('| unreadable | 1 |');
				expect(read.stdout).toContain('| demo...1c | 3 | 1 | 0 |');
				expect(read.stdout).not.toContain(PROFILE.macKey);
			});

			it('ends on SIGINT too; --record-kids keeps the kids for the triage', async () => {
				const file = join(dir, `record-kids-${launch.split(' ')[0]}.ndjson`);
				const sandbox = await startSandbox(launch, [
					'--port',
					'0',
					'--record',
					file,
					'--record-kids'
				]);
				const ok = await call(sandbox);
				const wrong = await call(sandbox, { macKey: WRONG_KEY });
				expect([ok.status, wrong.status]).toEqual([200, 401]);
				const ended = await stopSandbox(sandbox, 'SIGINT');
				expect(ended).toEqual({ code: 0, signal: null });
				expect(alive(sandbox)).toBe(false);

				const lines = await readLines(file);
				expect(lines.map((line) => line.authorization)).toEqual([
					ok.signed!.authorization,
					wrong.signed!.authorization
				]);
				const text = await readFile(file, 'utf8');
				for (const key of [PROFILE.macKey, WRONG_KEY]) expect(text).not.toContain(key);

				const read = await triage([file, '--keys', await keysFile(), '--summary-only']);
				expect(read.stderr).toBe('');
				expect(read.code).toBe(1);
				expect(read.stdout).toContain('# Triage of 2 signed requests');
				expect(read.stdout).toContain('| match | 1 |');
				expect(read.stdout).toContain('| mismatch | 1 |');
			});
		});
	});
}
