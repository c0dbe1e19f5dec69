// The Bruno collection of the download, run by Bruno's own CLI against the sandbox server: what its
// collection script signs is what Bruno sends, for every account, in both of Bruno's script sandboxes.
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRUNO_FOLDER, brunoFiles } from '../../src/lib/api-clients/bruno';
import { OPERATIONS } from '../../src/lib/account-api/operations';
import type { SandboxServer } from '../../src/node/sandbox-server/server';
import { ACCOUNTS, formFor, removeDownloads, startClientSandbox, writeDownload } from './fixture';
import { runBruno, runBrunoWithOutput, type BrunoRunResult } from './bruno';

const [PROFILE, BASIC, ENCODED] = ACCOUNTS;
const REFUSAL = 'MAC signing refused:';

/** Bruno's own parsers of .bru files (@usebruno/lang, which ships no types: the parts read here). */
interface BruLang {
	bruToJsonV2(text: string): {
		meta: { name: string; type: string; seq: string };
		http: { method: string; url: string };
		params: { name: string; value: string; type: string }[];
		settings: Record<string, unknown>;
	};
	collectionBruToJson(text: string): { auth: { mode: string }; script: { req: string } };
	bruToEnvJsonV2(text: string): {
		variables: { name: string; value: string; secret: boolean; description?: string }[];
	};
}
const { bruToJsonV2, bruToEnvJsonV2, collectionBruToJson } = createRequire(import.meta.url)(
	'@usebruno/lang'
) as BruLang;
let server: SandboxServer;

beforeAll(async () => {
	server = await startClientSandbox();
});

afterAll(async () => {
	await server?.close();
	await removeDownloads();
});

const form = (account: { kid: string; client_id: string }) => formFor(account, server.url);
const written = writeDownload;

function byOperation(results: BrunoRunResult[]): Record<string, BrunoRunResult> {
	return Object.fromEntries(results.map((result) => [result.operation, result]));
}

describe('the files', () => {
	const files = brunoFiles({
		region: 'overseas',
		baseUrl: 'https://open.tapapis.com/',
		operation: 'basic-info',
		kid: ENCODED.kid,
		clientId: ENCODED.client_id
	});
	const text = (path: string) =>
		files.find((file) => file.path === `${BRUNO_FOLDER}/${path}`)?.text;

	it('are a collection folder: bruno.json, the signing script, both requests (the form’s first), the environment', () => {
		expect(files.map((file) => file.path)).toEqual([
			`${BRUNO_FOLDER}/bruno.json`,
			`${BRUNO_FOLDER}/collection.bru`,
			`${BRUNO_FOLDER}/basic-info.bru`,
			`${BRUNO_FOLDER}/profile.bru`,
			`${BRUNO_FOLDER}/environments/overseas.bru`
		]);
		expect(JSON.parse(text('bruno.json') ?? '')).toMatchObject({
			version: '1',
			type: 'collection'
		});
	});

	it('read back as Bruno reads them', () => {
		const basic = bruToJsonV2(text('basic-info.bru') ?? '');
		expect(basic.http).toMatchObject({
			method: 'get',
			url: `{{base_url}}${OPERATIONS['basic-info'].path}?client_id={{client_id}}`
		});
		expect(basic.params).toEqual([
			expect.objectContaining({ name: 'client_id', value: '{{client_id}}', type: 'query' })
		]);
		expect(basic.settings).toMatchObject({ encodeUrl: false });
		expect(basic.meta).toEqual({ name: 'basic-info', type: 'http', seq: '1' });
		expect(bruToJsonV2(text('profile.bru') ?? '').http.url).toContain(OPERATIONS.profile.path);

		const collection = collectionBruToJson(text('collection.bru') ?? '');
		expect(collection.script.req).toContain("require('crypto-js')");
		expect(collection.script.req).toContain('req.setHeader(');
		expect(collection.auth).toEqual({ mode: 'none' });

		const environment = bruToEnvJsonV2(text('environments/overseas.bru') ?? '');
		const vars = Object.fromEntries(
			environment.variables.map((variable) => [variable.name, variable])
		);
		expect(vars.base_url).toMatchObject({ value: 'https://open.tapapis.com', secret: false });
		expect(vars.kid).toMatchObject({ value: ENCODED.kid, secret: false });
		expect(vars.client_id).toMatchObject({ value: ENCODED.client_id, secret: false });
		expect(vars.mac_key).toMatchObject({ value: '', secret: true });
		expect(vars.mac_key?.description).toMatch(/secret variable mac_key/);
	});

	it('hold the form’s kid and client_id and no account’s mac_key', () => {
		const all = files.map((file) => file.text).join('\n');
		expect(text('environments/overseas.bru')).toContain(`kid: ${ENCODED.kid}`);
		expect(text('environments/overseas.bru')).toContain(`client_id: ${ENCODED.client_id}`);
		for (const account of ACCOUNTS) expect(all).not.toContain(account.mac_key);
	});
});

describe('bru run against the sandbox', () => {
	it('profile account: both operations 200', async () => {
		const dir = await written(brunoFiles(form(PROFILE)));
		const results = await runBruno(dir, { macKey: PROFILE.mac_key });
		expect(results.map((result) => result.operation)).toEqual(['profile', 'basic-info']);
		expect(results.map((result) => result.status)).toEqual([200, 200]);
	});

	it('basic_info account: basic-info 200, profile 403 (the service refuses the scope)', async () => {
		const dir = await written(brunoFiles(form(BASIC)));
		const results = byOperation(await runBruno(dir, { macKey: BASIC.mac_key }));
		expect(results['basic-info']?.status).toBe(200);
		expect(results.profile?.status).toBe(403);
	});

	it('a client_id Bruno re-encodes: 200, the query signed as it arrives', async () => {
		server.journal.clear();
		const dir = await written(brunoFiles(form(ENCODED)));
		const results = await runBruno(dir, { macKey: ENCODED.mac_key });
		expect(results.map((result) => result.status)).toEqual([200, 200]);
		const urls = server.journal.entries().map((entry) => entry.url);
		expect(urls).toEqual([
			`${server.url}${OPERATIONS.profile.path}?client_id=app%20%27%C3%A9%201`,
			`${server.url}${OPERATIONS['basic-info'].path}?client_id=app%20%27%C3%A9%201`
		]);
	});

	it('the same in Bruno’s developer sandbox (Node vm)', async () => {
		const dir = await written(brunoFiles(form(ENCODED)));
		const results = await runBruno(dir, { macKey: ENCODED.mac_key, sandbox: 'developer' });
		expect(results.map((result) => result.status)).toEqual([200, 200]);
	});

	it('a wrong mac_key: 401, the sandbox says the signature does not match', async () => {
		const dir = await written(brunoFiles(form(PROFILE)));
		const results = await runBruno(dir, { macKey: `${PROFILE.mac_key}-wrong` });
		expect(results).toHaveLength(2);
		for (const result of results) {
			expect(result.status).toBe(401);
			expect(result.diagnosis).toMatch(/^reason=mac-mismatch/);
		}
	});

	it('an empty mac_key: the script refuses to sign, says so, and nothing is sent', async () => {
		server.journal.clear();
		const dir = await written(brunoFiles(form(PROFILE)));
		const run = await runBrunoWithOutput(dir, { macKey: '' });
		expect(run.results).toHaveLength(2);
		for (const result of run.results) {
			expect(result.status).toBe(0);
			expect(result.error).toMatch(new RegExp(`^${REFUSAL} mac_key empty\\.`));
		}
		expect(run.output).toContain(
			`${REFUSAL} mac_key empty. Put your mac_key in the secret variable`
		);
		expect(server.journal.entries()).toEqual([]);
	});

	it('an empty kid: the script refuses to sign', async () => {
		server.journal.clear();
		const dir = await written(brunoFiles(form({ kid: '', client_id: PROFILE.client_id })));
		const run = await runBrunoWithOutput(dir, { macKey: PROFILE.mac_key });
		for (const result of run.results)
			expect(result.error).toMatch(/^MAC signing refused: kid empty\./);
		expect(server.journal.entries()).toEqual([]);
	});

	it('leaves no mac_key in the collection’s files after a run', async () => {
		const dir = await written(brunoFiles(form(PROFILE)));
		expect((await runBruno(dir, { macKey: PROFILE.mac_key })).map((r) => r.status)).toEqual([
			200, 200
		]);
		const paths = (await readdir(dir, { recursive: true })).map((path) => join(dir, path));
		for (const path of paths) {
			if ((await stat(path)).isFile()) {
				expect(await readFile(path, 'utf8')).not.toContain(PROFILE.mac_key);
			}
		}
	});
});
