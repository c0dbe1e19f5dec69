// `npm run triage -- FILE --keys KEYFILE [options]`: the page's triage under Node, for logs too
// sensitive (or too big) to open in a browser, and a part of a pipeline: standard input in, one
// verdict a line out, summaries of parts merged. It never overwrites what it reads, never leaves a
// half-written file, and ends every failure with one line and an exit status (see USAGE).
import { createReadStream } from 'node:fs';
import { open, readFile, realpath, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:os';
import { Readable } from 'node:stream';
import { CSV_HEADER, FORMAT_NAMES, csvRow, ndjsonLine, summaryMarkdown } from '$lib/triage/exports';
import { parseKeys, type KeyProblemCode, type Keyring } from '$lib/triage/keys';
import { triage } from '$lib/triage/engine';
import type { PoolPlan } from '$lib/triage/pool/line-chunks';
import { poolFor, triageOnThreads } from './pool';
import { LEDGER_BYTES_PER_PAIR, NonceLedger } from '$lib/triage/tally';
import { encodeLedger, mergeParts, type PartSummary } from './merge';
import { OutFile, identify, refusal, stdinIdentity, type Identity } from './out-file';
import type { TriageSummary } from '$lib/triage/types';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { decodeText } from '$lib/read';
import type { UnreadableCode } from '$lib/read/types';

export const USAGE = `Usage: npm run triage -- FILE --keys KEYFILE [options]
       npm run triage -- --merge PART.json... [--json] [--reveal-kid]

Verifies every MAC-signed request in FILE (a HAR, NDJSON with method, url, authorization and
optional status, time and base_string, or log lines holding a URL and a MAC header) with the keys
in KEYFILE, and groups them by the mistake that explains each mismatch. FILE - is standard input.

  --keys KEYFILE   one "kid mac_key" pair a line, or a single mac_key for every kid
  --out CSVFILE    where the verdicts go (default FILE.verdicts.csv); never FILE or KEYFILE. It is
                   written beside CSVFILE under another name and renamed into place when complete
  --ndjson         one verdict a line, as JSON, to standard output as they are decided; the summary
                   then goes to standard error, and no CSV is written unless --out is given
  --summary-only   the summary alone, no verdicts
  --json           the summary as JSON, with what --merge needs (the kid and nonce pairs, hashed)
  --merge          adds up the --json summaries of the parts of one log, given in the log's order
                   (split by lines: split -n l/N), into the summary of the whole log
  --window SECONDS the server's ts window (default ${TS_WINDOW_SECONDS}; the spec does not state it)
  --reveal-kid     kids in full in the verdicts and the summary (masked by default)
  --threads N      worker threads a log of lines of 1 MiB or more is split across (default: one a
                   core, at least 2, at most 8); 0 reads it on this thread alone
  --help           this text

Standard input has no name to put the verdicts beside: with FILE -, give --out, --ndjson or
--summary-only.

Exit status:
  0        every request read matches and nothing seen says the service would refuse it (or it
           has no key for its kid)
  1        a request mismatches, cannot be read, or has a right signature the service would
           refuse ("signature right, refused": ts in milliseconds, an ext signed as line 7, ts
           outside the window of its logged time, a nonce used again)
  2        a usage error, or input that cannot be read (missing, empty, text with no signed
           request in it, a read that failed, a keys file or a PART.json with problems); one
           line on standard error says which
  130 143  stopped by SIGINT or SIGTERM: no verdicts file is left behind
  141      standard output was closed early (| head): reading stopped there
`;

interface TriageArgs {
	mode: 'triage';
	file: string;
	keys: string;
	json: boolean;
	/** Null: no CSV. */
	out: string | null;
	ndjson: boolean;
	summaryOnly: boolean;
	windowSeconds: number;
	revealKid: boolean;
	/** Worker threads of the pool; 0: none; null: one a core. */
	threads: number | null;
}

interface MergeArgs {
	mode: 'merge';
	parts: string[];
	json: boolean;
	revealKid: boolean;
}

/** The options that take a value. */
const VALUED = new Set(['--keys', '--out', '--window', '--threads']);
/** The options --merge reads; the others are for triaging a file. */
const FOR_MERGE = new Set(['--json', '--reveal-kid', '--merge']);

export function parseArgs(
	argv: readonly string[]
): TriageArgs | MergeArgs | { help: true } | string {
	const files: string[] = [];
	const given = new Map<string, string | true>();
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index] ?? '';
		if (arg === '--help' || arg === '-h') return { help: true };
		if (!arg.startsWith('--')) {
			files.push(arg);
			continue;
		}
		if (VALUED.has(arg)) {
			const next = argv[index + 1];
			if (next === undefined || next.startsWith('--')) return `${arg} needs a value.`;
			index += 1;
			given.set(arg, next);
		} else if (['--json', '--reveal-kid', '--ndjson', '--summary-only', '--merge'].includes(arg))
			given.set(arg, true);
		else return `Unknown option ${arg}.`;
	}
	const json = given.has('--json');
	const revealKid = given.has('--reveal-kid');
	if (given.has('--merge')) {
		const other = [...given.keys()].find((option) => !FOR_MERGE.has(option));
		if (other !== undefined) return `${other} is for triaging a log, not for --merge.`;
		if (files.length === 0) return 'Give the PART.json files to merge.';
		return { mode: 'merge', parts: files, json, revealKid };
	}
	const [file, extra] = files;
	if (file === undefined) return 'Give the FILE to triage.';
	if (extra !== undefined) return `One FILE only: "${file}" and "${extra}" were given.`;
	const keys = given.get('--keys');
	if (typeof keys !== 'string') return 'Give the keys: --keys KEYFILE.';
	const window = given.get('--window') ?? String(TS_WINDOW_SECONDS);
	if (typeof window !== 'string' || !/^\d+$/.test(window))
		return `--window takes whole seconds, not "${window}".`;
	const threads = given.get('--threads');
	if (
		threads !== undefined &&
		(typeof threads !== 'string' || !/^\d$/.test(threads) || Number(threads) > 8)
	)
		return `--threads takes 0 to 8, not "${String(threads)}".`;
	const ndjson = given.has('--ndjson');
	const summaryOnly = given.has('--summary-only');
	const out = given.get('--out');
	if (typeof out === 'string') {
		if (summaryOnly) return '--summary-only writes no verdicts: leave out --out.';
		if (out === '-') return '--out - : for the verdicts on standard output, give --ndjson.';
	}
	if (summaryOnly && ndjson) return '--summary-only writes no verdicts: leave out --ndjson.';
	if (file === '-' && out === undefined && !ndjson && !summaryOnly)
		return 'Standard input has no name to put the verdicts beside: give --out CSVFILE, --ndjson or --summary-only.';
	return {
		mode: 'triage',
		file,
		keys,
		json,
		out: typeof out === 'string' ? out : ndjson || summaryOnly ? null : `${file}.verdicts.csv`,
		ndjson,
		summaryOnly,
		windowSeconds: Number(window),
		revealKid,
		threads: threads === undefined ? null : Number(threads)
	};
}

const KEY_PROBLEMS: Record<KeyProblemCode, string> = {
	fields: 'more than "kid mac_key" on the line',
	conflict: 'this kid was given another mac_key before (the first is kept)',
	'lone-key':
		'a single mac_key is for every kid and must stand alone; beside "kid mac_key" lines, give its kid',
	credential: 'a JSON line that is not an SDK login result with kid and mac_key'
};

export interface Io {
	/** A promise returned is awaited: the verdicts wait while standard output's reader catches up. */
	stdout: (text: string) => unknown;
	stderr: (text: string) => void;
	/** Aborts when standard output's reader has gone (EPIPE): the run then stops, quietly. */
	stdoutClosed?: AbortSignal;
	/** Standard input, for FILE `-`. */
	stdin?: () => ReadableStream<Uint8Array>;
	/** Stop at SIGINT, SIGTERM and SIGHUP, leaving no file behind (the process's own run only). */
	signals?: boolean;
}

/** The process's streams, with their failures caught: a reader that goes away is no crash. */
function processIo(): Io {
	const closed = new AbortController();
	process.stdout.on('error', () => closed.abort());
	process.stderr.on('error', () => undefined);
	return {
		stdout: (text) => {
			if (closed.signal.aborted || process.stdout.write(text)) return;
			return new Promise<void>((resolve) => {
				const done = () => {
					process.stdout.off('drain', done);
					closed.signal.removeEventListener('abort', done);
					resolve();
				};
				process.stdout.on('drain', done);
				closed.signal.addEventListener('abort', done);
			});
		},
		stderr: (text) => void process.stderr.write(text),
		stdoutClosed: closed.signal,
		stdin: () => Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
		signals: true
	};
}

/** Why something failed, in a few words: the system's code (ENOENT), else its message on one line. */
function reason(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === 'string') return code;
	const message = error instanceof Error ? error.message : String(error);
	return message.split('\n', 1)[0]?.trim() ?? '';
}

/**
 * 0 only when every request verified would be accepted: a refused one (signature right) is not, nor
 * one whose header is not in the spec's form, even of a kid with no key.
 */
const exitStatus = (summary: TriageSummary) =>
	summary.groups.mismatch > 0 ||
	summary.groups.refused > 0 ||
	summary.groups.unreadable > 0 ||
	summary.headerFormat > 0
		? 1
		: 0;

export interface MainOptions {
	/**
	 * The bundled worker thread of the pool (src/build/triage-bundle.js): given, a log of lines of
	 * at least POOL_MIN_BYTES is triaged on every core; null, on one thread.
	 */
	poolThread?: URL | null;
}

/** Runs the command; resolves to the exit status. Never rejects, never prints a stack. */
export async function main(
	argv: readonly string[],
	io: Io = processIo(),
	options: MainOptions = {}
): Promise<number> {
	const fail = (message: string) => {
		io.stderr(`triage: ${message}\n`);
		return 2;
	};
	try {
		const args = parseArgs(argv);
		if (typeof args === 'string') return fail(`${args} See npm run triage -- --help.`);
		if ('help' in args) {
			await io.stdout(USAGE);
			return 0;
		}
		return args.mode === 'merge'
			? await merge(args, io, fail)
			: await run(args, io, fail, options.poolThread ?? null);
	} catch (error) {
		return fail(`internal error: ${reason(error)}`);
	}
}

async function merge(args: MergeArgs, io: Io, fail: (message: string) => number): Promise<number> {
	const parts = [];
	for (const name of args.parts) {
		try {
			parts.push({ name, text: await readFile(name, 'utf8') });
		} catch (error) {
			return fail(`Cannot read ${name} (${reason(error)}).`);
		}
	}
	const merged = mergeParts(parts);
	if (typeof merged === 'string') return fail(merged);
	await printSummary(io.stdout, merged.summary, args.json, args.revealKid);
	return exitStatus(merged.summary);
}

async function printSummary(
	print: (text: string) => unknown,
	summary: PartSummary,
	json: boolean,
	revealKid: boolean
): Promise<void> {
	if (json) {
		await print(`${JSON.stringify(summary, null, 2)}\n`);
		return;
	}
	await print(summaryMarkdown(summary, { revealKid }));
	if (summary.verdicts !== null) await print(`\nVerdicts: ${summary.verdicts}\n`);
}

/** A file the reader refused before its first record (stopped at record 0), in one phrase. */
const REFUSED: Partial<Record<UnreadableCode, (found: string | undefined) => string>> = {
	binary: () => 'holds binary data, not text',
	compressed: (found) => `is compressed (${found ?? 'an archive'}): uncompress it first`,
	encoding: (found) => `is in ${found ?? 'an encoding'} that is not read here (UTF-8 or UTF-16 is)`
};

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function run(
	args: TriageArgs,
	io: Io,
	fail: (message: string) => number,
	poolThread: URL | null
): Promise<number> {
	let keysBytes: Uint8Array;
	try {
		keysBytes = await readFile(args.keys);
	} catch (error) {
		return fail(`Cannot read the keys file ${args.keys} (${reason(error)}).`);
	}
	// A keys file is read in the encoding its first bytes tell, as a log is (Notepad writes UTF-16).
	const decoded = decodeText(keysBytes);
	if ('refused' in decoded)
		return fail(
			`The keys file ${args.keys} ${REFUSED[decoded.refused.refused]?.(decoded.refused.found)}.`
		);
	const keysText = decoded.text;
	const { keyring, problems } = parseKeys(keysText);
	if (problems.length > 0) {
		for (const problem of problems)
			io.stderr(`triage: ${args.keys}, line ${problem.line}: ${KEY_PROBLEMS[problem.code]}.\n`);
		return 2;
	}
	if (keyring.kids === 0 && !keyring.everyKid)
		return fail(`The keys file ${args.keys} holds no keys.`);

	const stdin = args.file === '-';
	const name = stdin ? 'standard input' : args.file;
	if (stdin && io.stdin === undefined) return fail('Standard input cannot be read here.');
	// Opened first, so that a file that cannot be read says why (ENOENT, EACCES) before anything runs.
	let file: FileHandle | null = null;
	if (!stdin) {
		try {
			file = await open(args.file, 'r');
		} catch (error) {
			return fail(`Cannot read ${args.file} (${reason(error)}).`);
		}
	}
	try {
		const stats = await file?.stat();
		if (stats?.isDirectory() === true) return fail(`Cannot read ${args.file} (a directory).`);
		const input: Identity | null =
			stats === undefined
				? stdinIdentity()
				: { real: await realpath(args.file).catch(() => null), dev: stats.dev, ino: stats.ino };
		const size = stats?.isFile() === true ? stats.size : null;
		// A log of lines big enough is split across worker threads (pool/pool.ts); its start says. The
		// threads write the verdicts in one form: CSV and NDJSON both asked for, one thread does.
		const pool =
			file === null || poolThread === null || args.threads === 0 || (args.ndjson && args.out)
				? null
				: await poolFor(file, size, poolThread);
		const stream =
			file === null
				? (io.stdin as () => ReadableStream<Uint8Array>)
				: () => {
						const opened = file as FileHandle;
						// The stream owns the file from here and closes it; a mebibyte at a time (fewer reads
						// than 64 KiB blocks).
						file = null;
						const blocks = createReadStream('', { fd: opened, highWaterMark: READ_BLOCK });
						return Readable.toWeb(blocks) as ReadableStream<Uint8Array>;
					};
		return await triageInto(args, io, fail, {
			name,
			identity: input,
			size,
			stream,
			keyring,
			keysText,
			pool
		});
	} finally {
		await file?.close();
	}
}

/** Bytes the command reads from a file at a time. */
const READ_BLOCK = 1 << 20;

interface Input {
	/** For messages: FILE, or "standard input". */
	name: string;
	identity: Identity | null;
	size: number | null;
	stream: () => ReadableStream<Uint8Array>;
	keyring: Keyring;
	/** The keys as given, for the pool's threads (each parses them). */
	keysText: string;
	/** Given: the file is triaged by a pool of threads, read as this plan says. */
	pool: { plan: PoolPlan; thread: URL } | null;
}

async function triageInto(
	args: TriageArgs,
	io: Io,
	fail: (message: string) => number,
	{ name, identity, size, stream, keyring, keysText, pool }: Input
): Promise<number> {
	// Refused before anything is written: the verdicts never replace the log or the keys.
	let csv: OutFile | null = null;
	if (args.out !== null) {
		const why = await refusal(args.out, [
			{ what: `the log being triaged (${name})`, identity },
			{ what: 'the keys file', identity: await identify(args.keys) }
		]);
		if (why !== null) return fail(why);
		try {
			csv = await OutFile.open(args.out);
		} catch (error) {
			return fail(`Cannot write the verdicts to ${args.out} (${reason(error)}).`);
		}
	}

	const stop = new AbortController();
	let stoppedBy: (typeof SIGNALS)[number] | null = null;
	const onSignal = (signal: (typeof SIGNALS)[number]) => {
		// A second signal does not wait: the temporary file goes with the process (see out-file.ts).
		if (stoppedBy !== null) process.exit(128 + constants.signals[signal]);
		stoppedBy = signal;
		stop.abort();
	};
	if (io.signals === true) for (const signal of SIGNALS) process.on(signal, onSignal);
	const readerGone = () => stop.abort();
	io.stdoutClosed?.addEventListener('abort', readerGone);
	if (io.stdoutClosed?.aborted === true) stop.abort();
	// Where the summary goes: standard output, unless that is the verdicts' place.
	const say = args.ndjson ? io.stderr : io.stdout;
	const exportOptions = { revealKid: args.revealKid };
	const nonces = new NonceLedger(size === null ? 0 : size / LEDGER_BYTES_PER_PAIR);
	try {
		await csv?.write(CSV_HEADER);
		const summary =
			pool === null
				? await triage(stream(), keyring, {
						signal: stop.signal,
						windowSeconds: args.windowSeconds,
						totalBytes: size,
						nonces,
						onVerdicts: async (records) => {
							if (csv !== null) {
								await csv.write(records.map((record) => csvRow(record, exportOptions)).join(''));
								if (csv.error !== null) stop.abort();
							}
							if (args.ndjson)
								await io.stdout(
									records.map((record) => ndjsonLine(record, exportOptions)).join('')
								);
						}
					})
				: await triageOnThreads(pool, stream, {
						keysText,
						output: args.out !== null ? 'csv' : args.ndjson ? 'ndjson' : 'none',
						threads: args.threads,
						windowSeconds: args.windowSeconds,
						revealKid: args.revealKid,
						size,
						nonces,
						signal: stop.signal,
						// The CSV when there is one, else the NDJSON (both at once: the file gets CSV).
						write: async (text) => {
							if (csv !== null) {
								await csv.write(text);
								if (csv.error !== null) stop.abort();
							} else if (args.ndjson) await io.stdout(text);
						}
					});
		if (io.stdoutClosed?.aborted === true) return 141;
		if (stoppedBy !== null) {
			fail(`stopped by ${stoppedBy}${csv === null ? '' : `; ${args.out} was not written`}.`);
			return 128 + constants.signals[stoppedBy as (typeof SIGNALS)[number]];
		}
		if (csv !== null && csv.error !== null)
			return fail(`Cannot write the verdicts to ${args.out} (${reason(csv.error)}).`);
		const result: PartSummary = {
			...summary,
			verdicts: args.out,
			nonceLedger: args.json ? encodeLedger(nonces) : { pairs: 0, fingerprints: '' }
		};
		const refused = summary.stopped?.number === 0 ? REFUSED[summary.stopped.code] : undefined;
		if (refused !== undefined)
			return fail(`${name} ${refused(summary.stopped?.found)}: there is nothing to triage.`);
		if (summary.empty || (summary.format === null && summary.requests === 0)) {
			// An empty part of a split log still gives --merge its (empty) summary.
			if (args.json) await say(`${JSON.stringify({ ...result, verdicts: null }, null, 2)}\n`);
			return fail(
				summary.bytesRead === 0
					? `${name} is empty: there is nothing to triage.`
					: `${name} holds only white space (${summary.bytesRead} bytes): there is nothing to triage.`
			);
		}
		if (summary.requests === 0 && summary.stopped === null) {
			// Text, but no request in it: the wrong file, or one decoded wrong. Never a quiet exit 0.
			if (args.json) await say(`${JSON.stringify({ ...result, verdicts: null }, null, 2)}\n`);
			return fail(
				`${name} holds no signed request: ${summary.bytesRead} bytes read as ${summary.format === null ? 'text' : FORMAT_NAMES[summary.format]}, ${summary.skipped} lines or entries, none with an Authorization: MAC header. Check that it is the log of the calls, saved as text (UTF-8 or UTF-16).`
			);
		}
		try {
			await csv?.commit();
		} catch (error) {
			return fail(`Cannot write the verdicts to ${args.out} (${reason(error)}).`);
		}
		await printSummary(say, result, args.json, args.revealKid);
		if (summary.unreadable.some(({ code }) => code === 'read-failed'))
			return fail(
				`reading ${name} failed after ${summary.bytesRead} bytes; the requests before that are counted.`
			);
		return exitStatus(summary);
	} finally {
		io.stdoutClosed?.removeEventListener('abort', readerGone);
		if (io.signals === true) for (const signal of SIGNALS) process.off(signal, onSignal);
		// Nothing once the file is in place; otherwise the temporary file goes.
		await csv?.discard();
	}
}
