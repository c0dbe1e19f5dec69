// `npm run sandbox` and the built sandbox-server.mjs start here: the options, the accounts file,
// the server, and an end on SIGTERM or SIGINT that writes what it holds first.
import { readFileSync } from 'node:fs';
import type { SandboxToken } from '$lib/sandbox/state';
import { readAccounts } from './accounts-file';
import { parseSandboxArgs } from './options';
import { startSandboxServer } from './server';

/** Exit status of a usage error or an accounts file that cannot be read. */
const USAGE_ERROR = 2;

export async function main(argv: readonly string[]): Promise<number | null> {
	const args = parseSandboxArgs(argv);
	if ('help' in args) {
		process.stdout.write(args.help);
		return 0;
	}
	if ('error' in args) {
		process.stderr.write(`${args.error}\n--help lists the options.\n`);
		return USAGE_ERROR;
	}
	let tokens: SandboxToken[] | undefined;
	if (args.accountsFile !== null) {
		let text: string;
		try {
			text = readFileSync(args.accountsFile, 'utf8');
		} catch (error) {
			process.stderr.write(
				`${args.accountsFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`
			);
			return USAGE_ERROR;
		}
		const read = readAccounts(text, args.accountsFile);
		if (typeof read === 'string') {
			process.stderr.write(`${read}\n`);
			return USAGE_ERROR;
		}
		tokens = read;
	}
	let server;
	try {
		server = await startSandboxServer({ ...args, tokens });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		process.stderr.write(
			`cannot listen on ${args.host}:${args.port}: ${code === 'EADDRINUSE' ? 'the port is taken (--port 0 picks a free one)' : (error as Error).message}\n`
		);
		return USAGE_ERROR;
	}
	// Exactly this first line: scripts wait for it and read the address from it.
	process.stdout.write(`listening ${server.url}\n`);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		// The record is written through line by line; closing ends the streams and the connections.
		const forced = setTimeout(() => process.exit(0), 1500);
		forced.unref();
		server.close().then(
			() => process.exit(0),
			() => process.exit(0)
		);
	};
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
	return null;
}
