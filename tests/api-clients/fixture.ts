// What the API clients' runners are tested against: the sandbox server with three accounts, one of
// them with a client_id every client re-encodes on the wire (a space, `'`, non-ASCII), so that a
// script that signs the text typed instead of what is sent gets 401 instead of 200.
import { startSandboxServer, type SandboxServer } from '../../src/lib/sandbox/server/server';
import { readAccounts } from '../../src/lib/sandbox/server/accounts-file';

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
