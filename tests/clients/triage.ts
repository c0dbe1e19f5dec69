// The zoo's requests as a support engineer receives them: an NDJSON log of what went on the wire,
// read by the triage command line (`node src/node/triage/run.js`), whose verdicts CSV says, request
// by request, match or the catalogued mistake that reproduces the mismatch.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseString, parseAuthorization, requestTarget } from '../../src/lib/mac';
import type { Account } from './matrix';
import { parseCsv } from '../unit/parse-csv';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One line of the log: what the client sent and what the sandbox answered. */
export interface LogLine {
	method: string;
	/**
	 * `https://` + the Host header + the request-target exactly as it went on the wire. The NDJSON
	 * reader takes a log's URL as written (curl's and raw HTTP's bytes, not a browser's re-encoding):
	 * it keeps the path and query as they are and only percent-encodes what cannot be on the wire as
	 * it is (a space, a control or non-ASCII character), as UTF-8.
	 */
	url: string;
	authorization: string;
	status: number;
	/** When the client read its clock, in Unix seconds: the clock check compares ts with it. */
	time: number;
}

export interface Verdict {
	/** match, mismatch, no-key or unreadable. */
	verdict: string;
	/** For a mismatch: the catalogue id of the most likely mistake ("a+b" for a pair), or "unexplained". */
	mistake: string;
	/** For a right signature the service would refuse: why (service-answer.ts's ids). */
	refusal: string;
	tsOutsideWindow: string;
	nonceFirstUsedAt: string;
	unreadable: string;
	/** The likely client's id, or ids joined by "|" where clients share a shape, or "unknown". */
	likelyClient: string;
	/** high, medium or low; empty for unknown. */
	likelyClientConfidence: string;
}

export interface TriageRun {
	exitCode: number;
	summary: Record<string, unknown>;
	/** One per log line, in order. */
	verdicts: Verdict[];
	logPath: string;
	csvPath: string;
}

/** The log's URL for what a client sent. */
export function loggedUrl(host: string, target: string, https = true): string {
	return `${https ? 'https' : 'http'}://${host}${target}`;
}

/**
 * The base string the spec asks for, for a logged request: its header's ts and nonce, the method,
 * and the request URI, host and port of its URL as the triage reads it.
 */
export function specBaseString(line: Pick<LogLine, 'method' | 'url' | 'authorization'>): string {
	const header = parseAuthorization(line.authorization);
	const target = requestTarget(line.url, { uri: 'as-written' });
	return baseString({
		ts: header.ts,
		nonce: header.nonce,
		method: line.method.toUpperCase(),
		uri: target.uri,
		host: target.host,
		port: target.port,
		ext: header.ext ?? ''
	});
}

/**
 * Writes the log and the keys file into `dir` and runs the triage command line on them, with the
 * server's window of 300 s against the logged times (so the clock check depends on nothing else).
 */
export async function runTriage(
	dir: string,
	lines: readonly LogLine[],
	accounts: readonly Account[]
): Promise<TriageRun> {
	const logPath = join(dir, 'zoo.ndjson');
	const keysPath = join(dir, 'keys.txt');
	const csvPath = join(dir, 'zoo.verdicts.csv');
	await writeFile(logPath, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
	await writeFile(
		keysPath,
		accounts.map((account) => `${account.kid} ${account.macKey}`).join('\n') + '\n'
	);
	const args = [
		join(ROOT, 'src/node/triage/run.js'),
		logPath,
		'--keys',
		keysPath,
		'--json',
		'--out',
		csvPath,
		'--window',
		'300',
		'--reveal-kid'
	];
	const { code, stdout, stderr } = await new Promise<{
		code: number;
		stdout: string;
		stderr: string;
	}>((resolve, reject) => {
		const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error('the triage took longer than 120 s'));
		}, 120_000);
		child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
		child.on('error', reject);
		child.on('close', (exitCode) => {
			clearTimeout(timer);
			resolve({
				code: exitCode ?? -1,
				stdout: Buffer.concat(out).toString('utf8'),
				stderr: Buffer.concat(err).toString('utf8')
			});
		});
	});
	// 0: everything would be accepted; 1: something mismatches, is refused or is unreadable; 2: the
	// command was wrong.
	if (code !== 0 && code !== 1) throw new Error(`the triage exited ${code}: ${stderr}`);
	const [header, ...rows] = parseCsv(await readFile(csvPath, 'utf8'));
	const column = (name: string) => {
		const index = header?.indexOf(name) ?? -1;
		if (index < 0) throw new Error(`the verdicts CSV has no ${name} column`);
		return index;
	};
	const cells = {
		number: column('number'),
		verdict: column('verdict'),
		mistake: column('mistake'),
		refusal: column('refusal'),
		outside: column('ts_outside_window'),
		nonce: column('nonce_first_used_at'),
		unreadable: column('unreadable'),
		client: column('likely_client'),
		confidence: column('likely_client_confidence')
	};
	const verdicts: Verdict[] = lines.map(() => ({
		verdict: 'missing',
		mistake: '',
		refusal: '',
		tsOutsideWindow: '',
		nonceFirstUsedAt: '',
		unreadable: '',
		likelyClient: '',
		likelyClientConfidence: ''
	}));
	for (const row of rows) {
		const index = Number(row[cells.number]) - 1;
		if (!(index >= 0 && index < verdicts.length)) continue;
		verdicts[index] = {
			verdict: row[cells.verdict] ?? '',
			mistake: row[cells.mistake] ?? '',
			refusal: row[cells.refusal] ?? '',
			tsOutsideWindow: row[cells.outside] ?? '',
			nonceFirstUsedAt: row[cells.nonce] ?? '',
			unreadable: row[cells.unreadable] ?? '',
			likelyClient: row[cells.client] ?? '',
			likelyClientConfidence: row[cells.confidence] ?? ''
		};
	}
	return {
		exitCode: code,
		summary: JSON.parse(stdout) as Record<string, unknown>,
		verdicts,
		logPath,
		csvPath
	};
}
