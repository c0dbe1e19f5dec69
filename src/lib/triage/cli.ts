// `npm run triage -- FILE --keys KEYFILE [--json]`: the page's triage under Node, for logs too
// sensitive to open in a browser. The summary goes to stdout, the verdicts to FILE.verdicts.csv.
// Exit status: 0 when everything read matches, 1 when anything mismatches or is unreadable, 2 when
// the command itself is wrong (arguments, a file that cannot be read, a keys file with problems).
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { CSV_HEADER, csvRow, summaryMarkdown } from './exports';
import { parseKeys, type KeyProblemCode } from './keys';
import { triage } from './engine';
import type { HmacEngine } from './types';

export const USAGE = `Usage: npm run triage -- FILE --keys KEYFILE [options]

Verifies every MAC-signed request in FILE (a HAR, NDJSON with method, url, authorization and
optional status, time and base_string, or log lines holding a URL and a MAC header) with the keys
in KEYFILE, and groups them by the mistake that explains each mismatch.

  --keys KEYFILE   one "kid mac_key" pair a line, or a single mac_key for every kid
  --json           print the summary as JSON instead of text
  --out CSVFILE    where the verdicts go (default FILE.verdicts.csv)
  --window SECONDS the server's ts window (default 300; the spec does not state it)
  --reveal-kid     kids in full in the CSV and the summary (masked by default)
  --hmac ENGINE    own (default), noble or subtle
  --help           this text

Exit status: 0 all verified requests match, 1 a request mismatches or is unreadable, 2 usage error.
`;

interface Args {
	file: string;
	keys: string;
	json: boolean;
	out: string;
	windowSeconds: number;
	revealKid: boolean;
	hmac: HmacEngine;
}

export function parseArgs(argv: readonly string[]): Args | { help: true } | string {
	let file: string | undefined;
	let keys: string | undefined;
	let out: string | undefined;
	let json = false;
	let revealKid = false;
	let windowSeconds = 300;
	let hmac: HmacEngine = 'own';
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index] ?? '';
		const value = () => {
			const next = argv[index + 1];
			if (next === undefined || next.startsWith('--')) return null;
			index += 1;
			return next;
		};
		if (arg === '--help' || arg === '-h') return { help: true };
		else if (arg === '--json') json = true;
		else if (arg === '--reveal-kid') revealKid = true;
		else if (arg === '--keys' || arg === '--out' || arg === '--window' || arg === '--hmac') {
			const given = value();
			if (given === null) return `${arg} needs a value.`;
			if (arg === '--keys') keys = given;
			else if (arg === '--out') out = given;
			else if (arg === '--window') {
				if (!/^\d+$/.test(given)) return `--window takes whole seconds, not "${given}".`;
				windowSeconds = Number(given);
			} else if (given === 'own' || given === 'noble' || given === 'subtle') hmac = given;
			else return `--hmac is own, noble or subtle, not "${given}".`;
		} else if (arg.startsWith('--')) return `Unknown option ${arg}.`;
		else if (file === undefined) file = arg;
		else return `One FILE only: "${file}" and "${arg}" were given.`;
	}
	if (file === undefined) return 'Give the FILE to triage.';
	if (keys === undefined) return 'Give the keys: --keys KEYFILE.';
	return { file, keys, json, out: out ?? `${file}.verdicts.csv`, windowSeconds, revealKid, hmac };
}

const KEY_PROBLEMS: Record<KeyProblemCode, string> = {
	fields: 'more than "kid mac_key" on the line',
	conflict: 'this kid was given another mac_key before (the first is kept)',
	'lone-key':
		'a single mac_key is for every kid and must stand alone; beside "kid mac_key" lines, give its kid',
	credential: 'a JSON line that is not an SDK login result with kid and mac_key'
};

export interface Io {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}

const processIo: Io = {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text)
};

function reason(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** Runs the command; resolves to the exit status. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
	const args = parseArgs(argv);
	if (typeof args === 'string') {
		io.stderr(`${args}\n\n${USAGE}`);
		return 2;
	}
	if ('help' in args) {
		io.stdout(USAGE);
		return 0;
	}
	let keysText: string;
	try {
		keysText = await readFile(args.keys, 'utf8');
	} catch (error) {
		io.stderr(`Cannot read the keys file ${args.keys} (${reason(error)}).\n`);
		return 2;
	}
	const { keyring, problems } = parseKeys(keysText);
	if (problems.length > 0) {
		for (const problem of problems)
			io.stderr(`${args.keys}, line ${problem.line}: ${KEY_PROBLEMS[problem.code]}.\n`);
		return 2;
	}
	if (keyring.kids === 0 && !keyring.everyKid) {
		io.stderr(`The keys file ${args.keys} holds no keys.\n`);
		return 2;
	}
	let size: number;
	try {
		const info = await stat(args.file);
		if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'not a file' });
		size = info.size;
	} catch (error) {
		io.stderr(`Cannot read ${args.file} (${reason(error)}).\n`);
		return 2;
	}
	const csv = createWriteStream(args.out);
	const opened = await Promise.race([
		once(csv, 'open').then(() => null),
		once(csv, 'error').then(([error]: unknown[]) => error)
	]);
	if (opened !== null) {
		io.stderr(`Cannot write the verdicts to ${args.out} (${reason(opened)}).\n`);
		return 2;
	}
	const write = async (text: string) => {
		if (!csv.write(text)) await once(csv, 'drain');
	};
	await write(CSV_HEADER);
	const input = Readable.toWeb(createReadStream(args.file)) as ReadableStream<Uint8Array>;
	const summary = await triage(input, keyring, {
		windowSeconds: args.windowSeconds,
		hmac: args.hmac,
		totalBytes: size,
		onVerdicts: (records) =>
			write(records.map((record) => csvRow(record, { revealKid: args.revealKid })).join(''))
	});
	csv.end();
	await once(csv, 'finish');
	if (args.json) io.stdout(`${JSON.stringify({ ...summary, verdicts: args.out }, null, 2)}\n`);
	else {
		io.stdout(summaryMarkdown(summary, { revealKid: args.revealKid }));
		io.stdout(`\nVerdicts: ${args.out}\n`);
	}
	return summary.groups.mismatch > 0 || summary.groups.unreadable > 0 ? 1 : 0;
}
