// What the API clients' runners are tested against: the sandbox server with three accounts, one of
// them with a client_id every client re-encodes on the wire (a space, `'`, non-ASCII), so that a
// script that signs the text typed instead of what is sent gets 401 instead of 200.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ClientRequestForm, DownloadFile } from '../../src/lib/api-clients/types';
import { startSandboxServer, type SandboxServer } from '../../src/node/sandbox-server/server';
import { readAccounts } from '../../src/node/sandbox-server/accounts-file';

export { ACCOUNTS } from './accounts';
import { ACCOUNTS } from './accounts';

export type Account = (typeof ACCOUNTS)[number];

/** The sandbox server with ACCOUNTS, on a free loopback port. */
export async function startClientSandbox(): Promise<SandboxServer> {
	const tokens = readAccounts(JSON.stringify(ACCOUNTS), 'accounts.json');
	if (typeof tokens === 'string') throw new Error(tokens);
	return startSandboxServer({ host: '127.0.0.1', port: 0, tokens });
}

/** What one request of a runner's run got. */
export interface RunResult {
	/** The request's name in the collection (the operation: 'basic-info' or 'profile'). */
	operation: string;
	status: number;
	/** X-Sandbox-Diagnosis, when the sandbox sent one. */
	diagnosis: string | null;
}

/** The form as the sign page would hand it to a generator for `account`, its base URL `baseUrl`. */
export function formFor(
	account: { kid: string; client_id: string },
	baseUrl: string,
	overrides: Partial<ClientRequestForm> = {}
): ClientRequestForm {
	return {
		region: 'domestic',
		baseUrl,
		operation: 'profile',
		kid: account.kid,
		clientId: account.client_id,
		...overrides
	};
}

const written: string[] = [];

/** A download's files written to a fresh folder, as a user saves or unzips it; its path. */
export async function writeDownload(files: readonly DownloadFile[]): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), 'api-client-download-'));
	written.push(dir);
	for (const file of files) {
		await mkdir(dirname(join(dir, file.path)), { recursive: true });
		await writeFile(join(dir, file.path), file.text, 'utf8');
	}
	return dir;
}

/** Removes every folder writeDownload made. */
export async function removeDownloads(): Promise<void> {
	await Promise.all(written.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
