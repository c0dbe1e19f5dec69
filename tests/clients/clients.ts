// How each client of the zoo is found, built and run: its own toolchain, one process for all its
// requests (NDJSON in, one JSON line out per request), compiled once where it compiles.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientId, ZooRequest } from './matrix';

const PROGRAMS = fileURLToPath(new URL('./programs/', import.meta.url));

/** Debian's python3, where Debian's packages install (a pyenv shim may come first on PATH). */
const PYTHON = '/usr/bin/python3';

export interface ClientInfo {
	id: ClientId;
	/** As the vendor names the sample. */
	name: string;
	toolchain: string;
	/** Each command the client needs, with the arguments that make it print its version. */
	commands: [command: string, ...args: string[]][];
}

export const CLIENTS: Record<ClientId, ClientInfo> = {
	'docs-shell': {
		id: 'docs-shell',
		name: 'docs shell sample',
		toolchain: 'bash, openssl, base64, curl (and jq to read the request)',
		commands: [
			['bash', '--version'],
			['openssl', 'version'],
			['base64', '--version'],
			['curl', '--version'],
			['jq', '--version']
		]
	},
	'docs-node-current': {
		id: 'docs-node-current',
		name: 'docs Node.js sample (current)',
		toolchain: 'node',
		commands: [[process.execPath, '--version']]
	},
	'docs-node-old': {
		id: 'docs-node-old',
		name: 'docs Node.js sample (older)',
		toolchain: 'node',
		commands: [[process.execPath, '--version']]
	},
	'docs-java': {
		id: 'docs-java',
		name: 'docs Java sample',
		toolchain: 'javac and java (JDK 17)',
		commands: [
			['javac', '-version'],
			['java', '-version']
		]
	},
	'docs-php': {
		id: 'docs-php',
		name: 'docs PHP sample',
		toolchain: 'php-cli',
		commands: [['php', '--version']]
	},
	'docs-python3': {
		id: 'docs-python3',
		name: 'docs Python 3 sample',
		toolchain: PYTHON,
		commands: [[PYTHON, '--version']]
	},
	'docs-go': {
		id: 'docs-go',
		name: 'docs Go sample',
		toolchain: 'go (golang-go)',
		commands: [['go', 'version']]
	},
	'unity-sdk': {
		id: 'unity-sdk',
		name: 'Unity SDK (C#)',
		toolchain: 'Mono: mcs and mono',
		commands: [
			['mcs', '--version'],
			['mono', '--version']
		]
	}
};

/** The commands of a client that cannot run here; empty when it can. */
export function missingCommands(client: ClientId): string[] {
	return CLIENTS[client].commands
		.filter(([command, ...args]) => {
			const probe = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
			return probe.error !== undefined || probe.status !== 0;
		})
		.map(([command]) => command);
}

/** What a client's program says it sent for one request. */
export interface ClientOutput {
	client: string;
	method: string;
	/** The request-target bytes it puts on the wire. */
	target: string;
	/** Its Host header. */
	host: string;
	authorization: string;
	/** The base string it signed. */
	base_string: string;
	/** Set when the client's own HTTP stack would not send the request at all. */
	refused?: string;
	/** Java: the platform charset it ran with. */
	charset?: string;
}

export interface Command {
	command: string;
	args: string[];
}

/** Compiles what compiles (Java, Go, C#) into a fresh temporary folder; returns how to run each. */
export async function build(clients: readonly ClientId[]): Promise<Map<ClientId, Command>> {
	const dir = await mkdtemp(join(tmpdir(), 'zoo-build-'));
	const compile = (command: string, args: string[]) => run(command, args, '', 120_000);
	const program = (file: string) => join(PROGRAMS, file);
	const builders: Record<ClientId, () => Promise<Command>> = {
		'docs-shell': async () => ({ command: 'bash', args: [program('docs-shell.sh')] }),
		'docs-node-current': async () => ({
			command: process.execPath,
			args: [program('docs-node-current.mjs')]
		}),
		'docs-node-old': async () => ({
			command: process.execPath,
			args: [program('docs-node-old.mjs')]
		}),
		'docs-java': async () => {
			const out = join(dir, 'java');
			await compile('javac', ['-encoding', 'UTF-8', '-d', out, program('DocsJava.java')]);
			return { command: 'java', args: ['-cp', out, 'DocsJava'] };
		},
		'docs-php': async () => ({ command: 'php', args: [program('docs-php.php')] }),
		'docs-python3': async () => ({ command: PYTHON, args: [program('docs-python3.py')] }),
		'docs-go': async () => {
			const out = join(dir, 'docs-go');
			await compile('go', ['build', '-o', out, program('docs_go.go')]);
			return { command: out, args: [] };
		},
		'unity-sdk': async () => {
			const out = join(dir, 'unity-sdk.exe');
			await compile('mcs', ['-langversion:7', `-out:${out}`, program('UnitySdk.cs')]);
			return { command: 'mono', args: [out] };
		}
	};
	const built = await Promise.all(
		clients.map(async (client) => [client, await builders[client]()] as const)
	);
	return new Map(built);
}

/** The environment every program runs in: UTF-8 text, and no clock of the zoo's but the request's. */
function environment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C.UTF-8', PYTHONIOENCODING: 'utf-8' };
	delete env.ZOO_NOW_MS;
	return env;
}

function run(command: string, args: string[], stdin: string, timeoutMs: number): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${command} took longer than ${timeoutMs} ms`));
		}, timeoutMs);
		child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			const stderr = Buffer.concat(err).toString('utf8');
			if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
			else resolve(Buffer.concat(out).toString('utf8'));
		});
		child.stdin.end(stdin, 'utf8');
	});
}

/**
 * Signs a client's requests with its program, one process for them all (Java: one JVM for each
 * platform charset), and returns what it sent for each, in order.
 */
export async function signAll(
	command: Command,
	requests: readonly ZooRequest[]
): Promise<ClientOutput[]> {
	const groups = new Map<string, ZooRequest[]>();
	for (const request of requests) {
		const key = request.client === 'docs-java' ? request.charset : '';
		groups.set(key, [...(groups.get(key) ?? []), request]);
	}
	const outputs = new Map<ZooRequest, ClientOutput>();
	for (const [charset, group] of groups) {
		const args = charset === '' ? command.args : [`-Dfile.encoding=${charset}`, ...command.args];
		const stdin = group.map((request) => JSON.stringify(request.input)).join('\n') + '\n';
		const lines = (await run(command.command, args, stdin, 60_000))
			.split('\n')
			.filter((line) => line.trim() !== '');
		if (lines.length !== group.length)
			throw new Error(
				`${command.command} answered ${lines.length} lines for ${group.length} requests`
			);
		group.forEach((request, index) =>
			outputs.set(request, JSON.parse(lines[index] ?? '') as ClientOutput)
		);
	}
	return requests.map((request) => {
		const output = outputs.get(request);
		if (!output) throw new Error(`no output for ${request.id}`);
		return output;
	});
}
