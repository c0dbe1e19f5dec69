import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import { MAX_CONNECTIONS } from '../http/serve';
import { DEFAULT_ALLOWED_ORIGINS } from '$lib/http/origins';
import { ACCOUNTS_FILE_EXAMPLE, DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { parseFault, type FaultRule } from './faults';

export const DEFAULT_PORT = 8787;

export const USAGE = `Usage: node sandbox-server.mjs [options]

The account service of the spec, as a test double: it verifies every signature as the service does,
answers in the service's body envelope with the HTTP statuses of the older documentation (the spec
names none), and says why a request failed.

Options:
  --port N               port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS         address to listen on (default 127.0.0.1, loopback only)
  --accounts FILE        the accounts to serve, a JSON file (format below); default: the demo
                         accounts below
  --fault CODE:first=N   the first N requests of each account get the error CODE
  --fault CODE:rate=P    each request gets CODE with probability P (0 to 1)
  --fault CODE:kid=K     every request of kid K gets CODE (--fault is repeatable; the first
                         that applies wins; CODE is an error of spec §7: invalid_request,
                         invalid_time, invalid_client, access_denied, forbidden, not_found,
                         server_error)
  --seed N               seed of every random choice (default 1): the same requests, the same faults
  --latency MS           wait MS milliseconds before each answer of the service
  --window S             accepted clock difference for ts, in seconds either way (default
                         ${TS_WINDOW_SECONDS}; an assumption: the spec does not say what the service accepts)
  --strict               answer exactly as the service would: no X-Sandbox-* header, no base string
  --record FILE          append each request to FILE as one NDJSON line (kids masked), for the
                         site's triage page
  --record-kids          write the kids in --record unmasked
  --allow-origin ORIGIN  pages allowed to read the journal and events (repeatable; replaces the
                         default: ${DEFAULT_ALLOWED_ORIGINS.join(', ')})
  --journal-size N       requests the journal keeps (default 1000; the oldest go first)
  --max-nonces N         nonces remembered within the window (default 1000000; past it the
                         oldest is forgotten first)
  --max-connections N    client connections served at once; more are answered 503 (default ${MAX_CONNECTIONS})
  --help, -h             this text

Demo accounts (served without --accounts):
${DEMO_ACCOUNTS.map(
	(account) =>
		`  kid ${account.kid}, mac_key ${account.macKey},\n    client_id ${account.clientId}, scopes ${account.scopes.join(' ')}`
).join('\n')}

Accounts file (--accounts): a JSON array with one object per account.
  kid, mac_key, client_id   strings, required (kid unique in the file)
  scopes                    array of basic_info and/or public_profile, required
  state                     "active" (default) or "revoked": a revoked token gets access_denied
  openid, unionid           strings; when left out, made up from the kid (openid with client_id)
  name, avatar              strings of the detailed profile; empty when left out
Example, accounts.json:
${ACCOUNTS_FILE_EXAMPLE.replace(/^/gm, '  ')}

Example:
  node sandbox-server.mjs --port 8787 --accounts accounts.json --fault server_error:first=1
  The first line it writes is "listening http://127.0.0.1:8787"; sign requests for the host and
  port you call (127.0.0.1 and 8787 here). Ctrl-C or SIGTERM ends it.

Endpoints besides the service's: GET /__sandbox/journal (DELETE clears it) and
GET /__sandbox/events (each new journal entry as Server-Sent Events).
A request that fails verification is answered with X-Sandbox-Diagnosis (why it failed) and
X-Sandbox-Base-String (the base string the sandbox built), unless --strict.
Exit status: 2 for a usage error or an accounts file that cannot be read.
`;

export interface SandboxServerArgs {
	port: number;
	host: string;
	accountsFile: string | null;
	faults: FaultRule[];
	seed: number;
	latencyMs: number;
	windowSeconds: number | undefined;
	strict: boolean;
	record: string | null;
	recordKids: boolean;
	allowOrigins: string[];
	journalSize: number;
	maxNonces: number;
	maxConnections: number;
}

export function defaultArgs(): SandboxServerArgs {
	return {
		port: DEFAULT_PORT,
		host: '127.0.0.1',
		accountsFile: null,
		faults: [],
		seed: 1,
		latencyMs: 0,
		windowSeconds: undefined,
		strict: false,
		record: null,
		recordKids: false,
		allowOrigins: [...DEFAULT_ALLOWED_ORIGINS],
		journalSize: 1000,
		maxNonces: 1_000_000,
		maxConnections: MAX_CONNECTIONS
	};
}

/** The options, `{ help }` for --help, or `{ error }` naming the option that is wrong. */
export function parseSandboxArgs(
	argv: readonly string[]
): SandboxServerArgs | { help: string } | { error: string } {
	const args = defaultArgs();
	let origins: string[] | null = null;
	const whole = (flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
		const value = Number(text);
		if (!/^\d+$/.test(text) || value < min || value > max)
			throw new Error(
				`${flag} takes a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`
			);
		return value;
	};
	try {
		for (let i = 0; i < argv.length; i++) {
			const flag = argv[i] ?? '';
			const value = (): string => {
				const next = argv[++i];
				if (next === undefined) throw new Error(`${flag} needs a value`);
				return next;
			};
			if (flag === '--help' || flag === '-h') return { help: USAGE };
			else if (flag === '--port') args.port = whole(flag, value(), 0, 65535);
			else if (flag === '--host') args.host = value();
			else if (flag === '--accounts') args.accountsFile = value();
			else if (flag === '--fault') {
				const rule = parseFault(value());
				if (typeof rule === 'string') throw new Error(rule);
				args.faults.push(rule);
			} else if (flag === '--seed') args.seed = whole(flag, value(), 0, 2 ** 32 - 1);
			else if (flag === '--latency') args.latencyMs = whole(flag, value(), 0, 60_000);
			else if (flag === '--window') args.windowSeconds = whole(flag, value(), 0, 31_536_000);
			else if (flag === '--strict') args.strict = true;
			else if (flag === '--record') args.record = value();
			else if (flag === '--record-kids') args.recordKids = true;
			else if (flag === '--allow-origin') (origins ??= []).push(value());
			else if (flag === '--journal-size') args.journalSize = whole(flag, value(), 1, 1_000_000);
			else if (flag === '--max-nonces') args.maxNonces = whole(flag, value(), 1);
			else if (flag === '--max-connections') args.maxConnections = whole(flag, value(), 1);
			else throw new Error(`Unknown option ${flag}`);
		}
	} catch (error) {
		return { error: (error as Error).message };
	}
	if (origins) args.allowOrigins = origins;
	return args;
}
