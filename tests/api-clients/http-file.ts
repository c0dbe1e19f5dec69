// Runs a downloaded .http file with httpyac's own CLI (`httpyac send <file> --all --json`), the
// mac_key put where a user puts it: MAC_KEY= in the .env file beside the .http file.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
	DOTENV_FILE_NAME,
	HTTP_FILE_NAME,
	MAC_KEY_VARIABLE
} from '../../src/lib/api-clients/http-file';
import type { RunResult } from './fixture';

const HTTPYAC = resolve(import.meta.dirname, '../../node_modules/.bin/httpyac');
const TIMEOUT_MS = 60_000;

/** A request of the run; `error` is httpyac's report of a request that was not sent (a script's throw). */
export interface HttpFileRunResult extends RunResult {
	error: string | null;
}

/** What one request looks like in httpyac's --json report (the fields read here). */
interface JsonRequest {
	name?: string;
	response?: { statusCode?: number; headers?: Record<string, string | string[] | undefined> };
	testResults?: { status?: string; message?: string }[];
}

export interface HttpyacRun {
	results: HttpFileRunResult[];
	/** httpyac's exit code: 0 when every request was sent and answered, 10 after an error. */
	exitCode: number | null;
	stderr: string;
}

/** MAC_KEY= in the .env template set to `macKey`; the template's comments kept. */
function withMacKey(dotenv: string, macKey: string): string {
	const line = new RegExp(`^${MAC_KEY_VARIABLE}=.*$`, 'm');
	const value = `${MAC_KEY_VARIABLE}=${macKey}`;
	return line.test(dotenv) ? dotenv.replace(line, () => value) : `${dotenv}${value}\n`;
}

function run(dir: string): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
	return new Promise((done, fail) => {
		// httpyac resolves the file against its cwd (globby refuses a path outside it): run in dir.
		const child = spawn(
			HTTPYAC,
			['send', HTTP_FILE_NAME, '--all', '--json', '--no-color', '--timeout', '20000'],
			{
				cwd: dir,
				// No MAC_KEY from the test's own environment: the .env file is the only source.
				env: { ...process.env, [MAC_KEY_VARIABLE]: '' },
				timeout: TIMEOUT_MS,
				stdio: ['ignore', 'pipe', 'pipe']
			}
		);
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		child.on('error', fail);
		child.on('close', (exitCode) => done({ stdout, stderr, exitCode }));
	});
}

function header(
	headers: Record<string, string | string[] | undefined> | undefined,
	name: string
): string | null {
	const value = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
	return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

/** The run with httpyac's exit code and stderr, for a test that looks at more than the results. */
export async function runHttpyac(dir: string, options: { macKey: string }): Promise<HttpyacRun> {
	// The .env a user writes beside the file, as its header says (or one already there, its key set).
	const dotenv = join(dir, DOTENV_FILE_NAME);
	const before = existsSync(dotenv) ? readFileSync(dotenv, 'utf8') : '';
	writeFileSync(dotenv, withMacKey(before, options.macKey));
	const { stdout, stderr, exitCode } = await run(dir);
	const start = stdout.indexOf('{');
	if (start < 0) throw new Error(`httpyac wrote no JSON report (exit ${exitCode}): ${stderr}`);
	const report = JSON.parse(stdout.slice(start)) as { requests?: JsonRequest[] };
	const results = (report.requests ?? []).map((request): HttpFileRunResult => {
		const failed = request.testResults?.find((test) => test.status === 'ERROR');
		return {
			operation: request.name ?? '',
			status: request.response?.statusCode ?? 0,
			diagnosis: header(request.response?.headers, 'x-sandbox-diagnosis'),
			error: failed?.message ?? null
		};
	});
	return { results, exitCode, stderr };
}

/** Each request's status and X-Sandbox-Diagnosis as httpyac's JSON report gives them. */
export async function runHttpFile(
	dir: string,
	options: { macKey: string }
): Promise<HttpFileRunResult[]> {
	return (await runHttpyac(dir, options)).results;
}
