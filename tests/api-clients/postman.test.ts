// Postman's download run by newman against the sandbox server: each account's operations answer as
// its scopes allow, the re-encoded client_id included; a wrong mac_key is a mac mismatch; an empty
// one is refused by the script before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../src/node/sandbox-server/server';
import type { ClientRequestForm } from '../../src/lib/api-clients/types';
import { postmanFiles } from '../../src/lib/api-clients/postman';
import {
	ACCOUNTS,
	formFor,
	removeDownloads,
	startClientSandbox,
	writeDownload,
	type Account
} from './fixture';
import { runNewman, runPostman } from './postman';

const RUN_TIMEOUT = 90_000;

let server: SandboxServer;

beforeAll(async () => {
	server = await startClientSandbox();
});

afterAll(async () => {
	await server.close();
	await removeDownloads();
});

const form = (account: Account, overrides: Partial<ClientRequestForm> = {}) =>
	formFor(account, server.url, overrides);
const saved = writeDownload;

/** newman's cli reporter wraps a console line at its width: the text without the wrapping. */
function unwrapped(output: string): string {
	return output.replace(/\n[ \t]*\| ?/g, '');
}

const [profileAccount, basicAccount, encodedAccount] = ACCOUNTS;

describe('postmanFiles', () => {
	it('writes a collection and an environment with kid, client_id and an empty secret mac_key', () => {
		const files = postmanFiles(form(encodedAccount, { baseUrl: `${server.url}/` }));
		expect(files.map(({ path }) => path)).toEqual([
			'account-service-domestic.postman_collection.json',
			'account-service-domestic.postman_environment.json'
		]);
		const [collection, environment] = files.map(({ text }) => JSON.parse(text));
		expect(collection.info.schema).toContain('/v2.1.0/');
		expect(collection.item.map(({ name }: { name: string }) => name)).toEqual([
			'profile',
			'basic-info'
		]);
		expect(collection.item[0].request.url.raw).toMatch(
			/^\{\{base_url\}\}\/.+\?client_id=\{\{client_id\}\}$/
		);
		expect(environment.values).toEqual([
			{ key: 'base_url', value: server.url, type: 'default', enabled: true },
			{ key: 'kid', value: encodedAccount.kid, type: 'default', enabled: true },
			{ key: 'client_id', value: encodedAccount.client_id, type: 'default', enabled: true },
			expect.objectContaining({ key: 'mac_key', value: '', type: 'secret' })
		]);
		const environmentText = files[1]?.text ?? '';
		expect(environmentText).toContain(encodedAccount.kid);
		expect(environmentText).toContain(JSON.stringify(encodedAccount.client_id));
		for (const file of files) expect(file.text).toContain('secret variable mac_key');
	});

	it('puts the form operation first', () => {
		const [collection] = postmanFiles(form(basicAccount, { operation: 'basic-info' }));
		const names = JSON.parse(collection?.text ?? '{}').item.map(
			({ name }: { name: string }) => name
		);
		expect(names).toEqual(['basic-info', 'profile']);
	});

	it('holds no mac_key of any account', () => {
		for (const account of ACCOUNTS) {
			for (const file of postmanFiles(form(account))) {
				for (const other of ACCOUNTS) expect(file.text).not.toContain(other.mac_key);
			}
		}
	});
});

describe('newman runs the download', () => {
	it(
		'answers both operations for the account with public_profile',
		async () => {
			const dir = await saved(postmanFiles(form(profileAccount)));
			const results = await runPostman(dir, { macKey: profileAccount.mac_key });
			expect(results).toEqual([
				{ operation: 'profile', status: 200, diagnosis: null },
				{ operation: 'basic-info', status: 200, diagnosis: null }
			]);
		},
		RUN_TIMEOUT
	);

	it(
		'answers basic-info for the basic_info account, the profile being forbidden by the service',
		async () => {
			const dir = await saved(postmanFiles(form(basicAccount, { operation: 'basic-info' })));
			const results = await runPostman(dir, { macKey: basicAccount.mac_key });
			expect(results[0]).toEqual({ operation: 'basic-info', status: 200, diagnosis: null });
			expect(results[1]).toMatchObject({ operation: 'profile', status: 403 });
			expect(results[1]?.diagnosis ?? '').not.toMatch(/^reason=mac-mismatch/);
		},
		RUN_TIMEOUT
	);

	it(
		'signs the query as it goes on the wire when the client re-encodes it (space, quote, é)',
		async () => {
			const dir = await saved(postmanFiles(form(encodedAccount)));
			server.journal.clear();
			const results = await runPostman(dir, { macKey: encodedAccount.mac_key });
			expect(results).toEqual([
				{ operation: 'profile', status: 200, diagnosis: null },
				{ operation: 'basic-info', status: 200, diagnosis: null }
			]);
			// What arrived: the one encoding the script rewrote the query into and signed.
			expect(server.journal.entries().map(({ url }) => new URL(url).search)).toEqual([
				'?client_id=app%20%27%C3%A9%201',
				'?client_id=app%20%27%C3%A9%201'
			]);
		},
		RUN_TIMEOUT
	);

	it(
		'gets 401 with a mac mismatch for a wrong mac_key',
		async () => {
			const dir = await saved(postmanFiles(form(profileAccount)));
			const results = await runPostman(dir, { macKey: basicAccount.mac_key });
			expect(results.map(({ operation, status }) => [operation, status])).toEqual([
				['profile', 401],
				['basic-info', 401]
			]);
			for (const { diagnosis } of results) expect(diagnosis).toMatch(/^reason=mac-mismatch/);
		},
		RUN_TIMEOUT
	);

	it(
		'refuses to sign with an empty mac_key: a console message, and nothing sent',
		async () => {
			const dir = await saved(postmanFiles(form(profileAccount)));
			server.journal.clear();
			const run = await runNewman(dir, { macKey: '' });
			expect(run.results).toEqual([]);
			expect(run.unsent).toEqual(['profile', 'basic-info']);
			expect(unwrapped(run.output)).toContain('MAC signature refused: mac_key is empty.');
			expect(server.journal.entries()).toEqual([]);
		},
		RUN_TIMEOUT
	);

	it(
		'refuses to sign with an empty kid',
		async () => {
			const dir = await saved(postmanFiles(form(profileAccount, { kid: '' })));
			const run = await runNewman(dir, { macKey: profileAccount.mac_key });
			expect(run.results).toEqual([]);
			expect(unwrapped(run.output)).toContain('MAC signature refused: kid is empty.');
		},
		RUN_TIMEOUT
	);
});
