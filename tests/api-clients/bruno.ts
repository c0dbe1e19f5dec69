// Runs a downloaded Bruno collection with Bruno's own CLI (@usebruno/cli, `bru run`) and reads each
// request's status and X-Sandbox-Diagnosis from the CLI's JSON report.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunResult } from './fixture';

const BRU = resolve(import.meta.dirname, '../../node_modules/.bin/bru');
const TIMEOUT_MS = 60_000;

/** One request of the run, with what Bruno said when it did not send it. */
export interface BrunoRunResult extends RunResult {
	/** The pre-request script's error (the request was not sent), else null. */
	error: string | null;
}

export interface BrunoRun {
	results: BrunoRunResult[];
	/** What the CLI printed (stdout and stderr): the scripts' console goes there. */
	output: string;
	exitCode: number | null;
}

interface ReportEntry {
	test?: { filename?: string };
	response?: { status?: number | string; headers?: Record<string, unknown> | null };
	error?: string | null;
}

interface ReportIteration {
	results?: ReportEntry[];
}

/** The collection folder of a download: dir itself, or its one subfolder holding bruno.json. */
function collectionDir(dir: string): string {
	if (existsSync(join(dir, 'bruno.json'))) return dir;
	const inner = readdirSync(dir, { withFileTypes: true }).filter(
		(entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'bruno.json'))
	);
	if (inner.length !== 1 || !inner[0]) throw new Error(`no Bruno collection in ${dir}`);
	return join(dir, inner[0].name);
}

/** The one environment of the download (environments/<region>.bru), by name. */
function environmentName(collection: string): string {
	const names = readdirSync(join(collection, 'environments')).filter((name) =>
		name.endsWith('.bru')
	);
	if (names.length !== 1 || !names[0]) throw new Error(`expected one environment in ${collection}`);
	return names[0].slice(0, -'.bru'.length);
}

function header(headers: Record<string, unknown> | null | undefined, name: string): string | null {
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() !== name) continue;
		return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return null;
}

function readReport(path: string): BrunoRunResult[] {
	const report = JSON.parse(readFileSync(path, 'utf8')) as ReportIteration[] | ReportIteration;
	const iterations = Array.isArray(report) ? report : [report];
	return iterations.flatMap((iteration) =>
		(iteration.results ?? []).map((entry) => {
			const status = entry.response?.status;
			return {
				operation: (entry.test?.filename ?? '').replace(/\.bru$/, ''),
				status: typeof status === 'number' ? status : 0,
				diagnosis: header(entry.response?.headers, 'x-sandbox-diagnosis'),
				error: entry.error ?? null
			};
		})
	);
}

export interface BrunoOptions {
	macKey: string;
	/** The CLI's script sandbox: "safe" (QuickJS, the default) unless told. */
	sandbox?: 'safe' | 'developer';
}

/**
 * `bru run --env <region> --env-var mac_key=<key>` in the collection folder, as a user runs it
 * with the mac_key given on the command line (Bruno's way to fill a secret variable in the CLI).
 */
export async function runBrunoWithOutput(dir: string, options: BrunoOptions): Promise<BrunoRun> {
	const collection = collectionDir(dir);
	const reportDir = mkdtempSync(join(tmpdir(), 'bruno-report-'));
	const reportPath = join(reportDir, 'report.json');
	const args = [
		'run',
		'--env',
		environmentName(collection),
		'--env-var',
		`mac_key=${options.macKey}`,
		'--output',
		reportPath,
		'--format',
		'json',
		...(options.sandbox ? ['--sandbox', options.sandbox] : [])
	];
	try {
		const { output, exitCode } = await new Promise<{ output: string; exitCode: number | null }>(
			(done, fail) => {
				const child = spawn(BRU, args, {
					cwd: collection,
					env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
					stdio: ['ignore', 'pipe', 'pipe'],
					timeout: TIMEOUT_MS
				});
				let text = '';
				child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
				child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
				child.on('error', fail);
				child.on('close', (code) => done({ output: text, exitCode: code }));
			}
		);
		if (!existsSync(reportPath)) {
			throw new Error(`bru run wrote no report (exit ${exitCode}):\n${output}`);
		}
		return { results: readReport(reportPath), output, exitCode };
	} finally {
		rmSync(reportDir, { recursive: true, force: true });
	}
}

/** Each request's status and X-Sandbox-Diagnosis, from Bruno's JSON report. */
export async function runBruno(dir: string, options: BrunoOptions): Promise<BrunoRunResult[]> {
	return (await runBrunoWithOutput(dir, options)).results;
}
