// `npm run triage` as a real process (node src/node/triage/run.js, as package.json runs it), for
// the tests of the command line: its output, its status, and its standard input as a stream to
// feed.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RUN = resolve(ROOT, 'src/node/triage/run.js');
/** Node's flags in package.json's `triage` script (`--single-threaded-gc`): the tests run with them. */
const SCRIPT_FLAGS = (
	JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
		scripts: { triage: string };
	}
).scripts.triage
	.split(' ')
	.filter((word) => word.startsWith('--'));

export interface Ran {
	/** The exit status; null when a signal ended the process. */
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface Started {
	child: ChildProcessByStdio<Writable, Readable, Readable>;
	/** Settles when the process has ended and its output is read. */
	done: Promise<Ran>;
}

/** Starts the triage with `args`; its standard input is left open for the test to write or end. */
export function start(
	args: readonly string[],
	options: { nodeOptions?: readonly string[]; env?: NodeJS.ProcessEnv; cwd?: string } = {}
): Started {
	const flags = [...SCRIPT_FLAGS, ...(options.nodeOptions ?? [])];
	const child = spawn(process.execPath, [...flags, RUN, ...args], {
		stdio: ['pipe', 'pipe', 'pipe'],
		cwd: options.cwd,
		env: options.env ?? process.env
	});
	// A process that stops reading (as it should, at times) closes its input: not the test's error.
	child.stdin.on('error', () => undefined);
	const done = new Promise<Ran>((resolveRan, reject) => {
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (code, signal) => resolveRan({ code, signal, stdout, stderr }));
	});
	return { child, done };
}

/** Runs the triage to its end, `input` (if any) on its standard input. */
export function triage(args: readonly string[], input: string | Buffer = ''): Promise<Ran> {
	const { child, done } = start(args);
	child.stdin.end(input);
	return done;
}

/**
 * Runs `script` in sh, as a person types it: "$0" is node, "$1" run.js, "$2"… `args`. Standard
 * input is empty unless the script redirects it.
 */
export function inShell(
	script: string,
	args: readonly string[] = [],
	options: { cwd?: string } = {}
): Promise<Ran> {
	const child = spawn('sh', ['-c', script, process.execPath, RUN, ...args], {
		stdio: ['ignore', 'pipe', 'pipe'],
		cwd: options.cwd
	});
	return new Promise<Ran>((resolveRan, reject) => {
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (code, signal) => resolveRan({ code, signal, stdout, stderr }));
	});
}
