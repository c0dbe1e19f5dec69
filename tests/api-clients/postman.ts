// Runs Postman's download with newman, Postman's own command-line runner, as a user would: the
// collection with its environment, mac_key given as the environment's variable on the command
// line, and each request's status and X-Sandbox-Diagnosis read from newman's JSON report.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunResult } from './fixture';

const NEWMAN = resolve(import.meta.dirname, '../../node_modules/.bin/newman');
const TIMEOUT_MS = 60_000;

/** What newman's JSON reporter writes of one request's run (the parts read here). */
interface Execution {
	item: { name: string };
	response?: { code: number; header?: { key: string; value: string }[] };
	requestError?: { message?: string };
}

export interface NewmanRun {
	/** Each request newman sent, in the collection's order. */
	results: RunResult[];
	/** The requests the collection holds that newman did not send (skipped by the script). */
	unsent: string[];
	/** newman's own output (the cli reporter, with the scripts' console lines), stdout and stderr. */
	output: string;
	exitCode: number | null;
}

async function only(dir: string, suffix: string): Promise<string> {
	const names = (await readdir(dir)).filter((name) => name.endsWith(suffix));
	if (names.length !== 1)
		throw new Error(`expected one *${suffix} in ${dir}, found ${names.length}`);
	return join(dir, names[0] ?? '');
}

function newman(args: string[], cwd: string): Promise<{ output: string; exitCode: number | null }> {
	return new Promise((done, fail) => {
		const child = spawn(NEWMAN, args, {
			cwd,
			env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: TIMEOUT_MS
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.on('error', fail);
		child.on('close', (exitCode) => done({ output, exitCode }));
	});
}

/** newman over the collection and environment in `dir`, with the full report. */
export async function runNewman(dir: string, options: { macKey: string }): Promise<NewmanRun> {
	const collection = await only(dir, '.postman_collection.json');
	const environment = await only(dir, '.postman_environment.json');
	const reportDir = await mkdtemp(join(tmpdir(), 'newman-report-'));
	const report = join(reportDir, 'report.json');
	try {
		const { output, exitCode } = await newman(
			[
				'run',
				collection,
				'-e',
				environment,
				'--env-var',
				`mac_key=${options.macKey}`,
				'--reporters',
				'cli,json',
				'--reporter-json-export',
				report,
				'--timeout-request',
				'10000',
				'--disable-unicode',
				'--color',
				'off'
			],
			dir
		);
		let parsed: { run: { executions: Execution[] }; collection: { item: { name: string }[] } };
		try {
			parsed = JSON.parse(await readFile(report, 'utf8'));
		} catch (error) {
			throw new Error(`newman wrote no report (exit ${exitCode}):\n${output}`, { cause: error });
		}
		const results: RunResult[] = [];
		for (const execution of parsed.run.executions) {
			if (!execution.response) continue;
			const header = execution.response.header?.find(
				({ key }) => key.toLowerCase() === 'x-sandbox-diagnosis'
			);
			results.push({
				operation: execution.item.name,
				status: execution.response.code,
				diagnosis: header?.value ?? null
			});
		}
		const sent = new Set(results.map(({ operation }) => operation));
		const unsent = parsed.collection.item.map(({ name }) => name).filter((n) => !sent.has(n));
		return { results, unsent, output, exitCode };
	} finally {
		await rm(reportDir, { recursive: true, force: true });
	}
}

/** Each request's status and diagnosis, as newman's report has them; a request not sent is absent. */
export async function runPostman(dir: string, options: { macKey: string }): Promise<RunResult[]> {
	return (await runNewman(dir, options)).results;
}
