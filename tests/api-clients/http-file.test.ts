// The .http download run by httpyac's own CLI against the sandbox server: the {{@request}} script
// signs what httpyac sends (after its variable substitution and its URL encoding), so each operation
// the account's scopes allow answers 200, the re-encoded client_id too; a wrong mac_key is a mac
// mismatch; an empty one is refused by the script before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFiles, HTTP_FILE_NAME } from '../../src/lib/api-clients/http-file';
import type { ClientRequestForm } from '../../src/lib/api-clients/types';
import type { Operation } from '../../src/lib/account-api/operations';
import type { SandboxServer } from '../../src/node/sandbox-server/server';
import {
	ACCOUNTS,
	formFor,
	removeDownloads,
	startClientSandbox,
	writeDownload,
	type Account
} from './fixture';
import { runHttpyac } from './http-file';

let server: SandboxServer;

beforeAll(async () => {
	server = await startClientSandbox();
});

afterAll(async () => {
	await server?.close();
	await removeDownloads();
});

const form = (account: Account, operation: Operation = 'profile') =>
	formFor(account, server.url, { operation });
/** The download written to a fresh folder, as a user saves it. */
const download = (request: ClientRequestForm) => writeDownload(httpFiles(request));

function byOperation(results: { operation: string; status: number }[]): Record<string, number> {
	return Object.fromEntries(results.map((result) => [result.operation, result.status]));
}

const [PROFILE, BASIC, ENCODED] = ACCOUNTS;

describe('the .http file (httpyac)', () => {
	it('holds both operations, the form’s first, its kid and client_id, and no mac_key', () => {
		for (const account of ACCOUNTS) {
			for (const operation of ['basic-info', 'profile'] as const) {
				const files = httpFiles(form(account, operation));
				expect(files.map((file) => file.path)).toEqual([HTTP_FILE_NAME]);
				const http = files[0]?.text ?? '';
				expect(http).toContain(`@kid = ${account.kid}`);
				expect(http).toContain(`@client_id = ${account.client_id}`);
				expect(http).toContain(`@base_url = ${server.url}`);
				const names = [...http.matchAll(/^# @name (\S+)$/gm)].map((match) => match[1]);
				expect(names).toEqual(
					operation === 'profile' ? ['profile', 'basic-info'] : ['basic-info', 'profile']
				);
				expect(http).toMatch(/VS Code REST Client and the JetBrains HTTP Client cannot run/);
				// Where the mac_key goes, said in the file: a .env beside it (none is downloaded).
				expect(http).toMatch(/MAC_KEY=/);
				for (const file of files)
					for (const other of ACCOUNTS) expect(file.text).not.toContain(other.mac_key);
			}
		}
	});

	it('signs both operations for the account with public_profile: 200 and 200', async () => {
		const { results, exitCode } = await runHttpyac(await download(form(PROFILE)), {
			macKey: PROFILE.mac_key
		});
		expect(byOperation(results)).toEqual({ profile: 200, 'basic-info': 200 });
		expect(results.every((result) => result.diagnosis === null)).toBe(true);
		expect(exitCode).toBe(0);
	});

	it('signs for the basic_info account: basic-info 200, the profile 403 forbidden', async () => {
		const { results } = await runHttpyac(await download(form(BASIC, 'basic-info')), {
			macKey: BASIC.mac_key
		});
		expect(byOperation(results)).toEqual({ 'basic-info': 200, profile: 403 });
		expect(results.find((result) => result.operation === 'profile')?.diagnosis).toMatch(
			/^reason=scope-not-granted/
		);
	});

	it("signs the query httpyac re-encodes (a space, ', non-ASCII) as it goes out: 200", async () => {
		const { results } = await runHttpyac(await download(form(ENCODED)), {
			macKey: ENCODED.mac_key
		});
		expect(byOperation(results)).toEqual({ profile: 200, 'basic-info': 200 });
		const arrived = (await (await fetch(`${server.url}/__sandbox/journal`)).json()) as {
			entries: { url: string; status: number }[];
		};
		const encoded = encodeURIComponent(ENCODED.client_id).replace(/'/g, '%27');
		expect(arrived.entries.filter((entry) => entry.url.endsWith(`?client_id=${encoded}`))).toEqual(
			expect.arrayContaining([expect.objectContaining({ status: 200 })])
		);
	});

	it('answers a wrong mac_key with 401 and a mac mismatch', async () => {
		const { results } = await runHttpyac(await download(form(PROFILE)), {
			macKey: `${PROFILE.mac_key}-wrong`
		});
		expect(results.map((result) => result.status)).toEqual([401, 401]);
		for (const result of results) expect(result.diagnosis).toMatch(/^reason=mac-mismatch/);
	});

	it('refuses to sign with an empty mac_key: nothing is sent, httpyac reports the message', async () => {
		const before = await journalLength();
		const { results, exitCode } = await runHttpyac(await download(form(PROFILE)), { macKey: '' });
		expect(results).toHaveLength(2);
		for (const result of results) {
			expect(result.status).toBe(0);
			expect(result.error).toMatch(/^MAC token not signed, mac_key is empty/);
			expect(result.error).toContain('MAC_KEY=<your mac_key> in the .env file');
		}
		expect(exitCode).not.toBe(0);
		expect(await journalLength()).toBe(before);
	});

	it('keeps a value httpyac would change as the form has it: a leading ", braces, spaces', async () => {
		const clientId = ' "x {{y}} z" ';
		const dir = await download({ ...form(PROFILE, 'basic-info'), clientId });
		expect(httpFiles({ ...form(PROFILE), clientId })[0]?.text).toContain(
			'@client_id = {{" \\"x %7B%7By%7D%7D z\\" "}}'
		);
		await runHttpyac(dir, { macKey: PROFILE.mac_key });
		const journal = (await (await fetch(`${server.url}/__sandbox/journal`)).json()) as {
			entries: { url: string; diagnosis: string | null }[];
		};
		const sent = journal.entries.filter((entry) =>
			entry.url.endsWith(`?client_id=${encodeURIComponent(clientId)}`)
		);
		expect(sent).toHaveLength(2);
		for (const entry of sent) expect(entry.diagnosis ?? '').not.toMatch(/^reason=mac-mismatch/);
	});

	it('refuses to sign with an empty kid', async () => {
		const { results } = await runHttpyac(await download({ ...form(PROFILE), kid: '' }), {
			macKey: PROFILE.mac_key
		});
		expect(results.map((result) => result.error)).toEqual([
			expect.stringMatching(/^MAC token not signed, kid is empty/),
			expect.stringMatching(/^MAC token not signed, kid is empty/)
		]);
	});
});

async function journalLength(): Promise<number> {
	const journal = (await (await fetch(`${server.url}/__sandbox/journal`)).json()) as {
		entries: unknown[];
	};
	return journal.entries.length;
}
