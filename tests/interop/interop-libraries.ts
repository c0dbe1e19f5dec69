// MAC-token libraries written by other people, driven through the scripts in tests/interop/, and
// the real processes (the sandbox service, rack-oauth2's verifier) that their headers and ours face.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';

export type LibraryId = 'oauthlib' | 'oauth2-gem' | 'rack-oauth2';

export interface Library {
	id: LibraryId;
	/** The name people know it by. */
	name: string;
	language: 'Python' | 'Ruby';
	/** The Debian packages `.ci/run` installs it from. */
	debianPackages: string;
	/** Debian's interpreter: Debian's library packages install for it, not for a pyenv or rbenv one. */
	interpreter: string;
	/** The driver under tests/interop/. */
	script: string;
	/** A server under tests/interop/ that verifies with the library, where it has a verifier. */
	verifier?: string;
	/** The Authorization header exactly as the library writes it: separator, part order, nonce. */
	headerShape: RegExp;
}

const MAC = '[A-Za-z0-9+/]{27}=';

export const LIBRARIES: readonly Library[] = [
	{
		id: 'oauthlib',
		name: 'oauthlib',
		language: 'Python',
		debianPackages: 'python3-oauthlib',
		interpreter: '/usr/bin/python3',
		script: 'tests/interop/oauthlib_sign.py',
		// The nonce is a random 64-bit number in decimal followed by the ts.
		headerShape: new RegExp(`^MAC id="[^"]+", ts="\\d{10}", nonce="\\d{11,30}", mac="${MAC}"$`)
	},
	{
		id: 'oauth2-gem',
		name: 'oauth2 (gem)',
		language: 'Ruby',
		debianPackages: 'ruby-oauth2',
		interpreter: '/usr/bin/ruby',
		script: 'tests/interop/oauth2_gem_sign.rb',
		// The nonce is an MD5 in hex.
		headerShape: new RegExp(`^MAC id="[^"]+", ts="\\d{10}", nonce="[0-9a-f]{32}", mac="${MAC}"$`)
	},
	{
		id: 'rack-oauth2',
		name: 'rack-oauth2',
		language: 'Ruby',
		debianPackages: 'ruby-rack-oauth2 ruby-webrick',
		interpreter: '/usr/bin/ruby',
		script: 'tests/interop/rack_oauth2_sign.rb',
		verifier: 'tests/interop/rack_oauth2_verifier.rb',
		// nonce before ts; the nonce is "<seconds since the token object was made>:<32 hex digits>".
		headerShape: new RegExp(
			`^MAC id="[^"]+", nonce="\\d+:[0-9a-f]{32}", ts="\\d{10}", mac="${MAC}"$`
		)
	}
];

/** What a driver's `--version` prints, or why the library cannot run here. */
export type Availability = { version: string } | { missing: string };

/** Whether the library's driver (and its verifier, if any) can run here: each prints the version. */
export function availability(library: Library): Availability {
	const found = scriptAvailability(library, library.script);
	if ('missing' in found || !library.verifier) return found;
	const verifier = scriptAvailability(library, library.verifier);
	return 'missing' in verifier ? verifier : found;
}

function scriptAvailability(library: Library, script: string): Availability {
	const result = spawnSync(library.interpreter, [script, '--version'], {
		encoding: 'utf8',
		timeout: 30_000
	});
	if (result.error) {
		return {
			missing: `${library.interpreter} not found (Debian: apt-get install ${library.debianPackages})`
		};
	}
	if (result.status !== 0) {
		const reason = result.stderr.trim().split('\n')[0] ?? `exit ${result.status}`;
		return {
			missing: `${script} cannot run (${reason}); Debian: apt-get install ${library.debianPackages}`
		};
	}
	return { version: result.stdout.trim() };
}

export interface SignRequest {
	kid: string;
	key: string;
	method: string;
	url: string;
}

/** One run of a library's driver: one Authorization header per request, in order. */
export async function signWith(library: Library, requests: SignRequest[]): Promise<string[]> {
	const { code, stdout, stderr } = await run(
		library.interpreter,
		[library.script],
		JSON.stringify({ requests })
	);
	if (code !== 0) throw new Error(`${library.script} exited with ${code}:\n${stderr}`);
	const { headers } = JSON.parse(stdout) as { headers: string[] };
	if (headers.length !== requests.length)
		throw new Error(`${library.script} answered ${headers.length} of ${requests.length}`);
	return headers;
}

function run(
	command: string,
	args: string[],
	input: string
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.once('error', reject);
		child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
		child.stdin.end(input);
	});
}

export interface RunningServer {
	url: string;
	stop: () => void;
}

/**
 * Starts a server process that prints "listening on http://127.0.0.1:PORT" when ready, writing
 * `input` (if any) to its standard input first.
 */
export function startServer(
	command: string,
	args: string[],
	input?: string
): Promise<RunningServer> {
	const child: ChildProcess = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
	child.stdin?.end(input ?? '');
	return new Promise((resolve, reject) => {
		let output = '';
		const timer = setTimeout(() => {
			child.kill();
			reject(new Error(`no "listening" line within 30 s:\n${output}`));
		}, 30_000);
		const read = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match?.[1]) {
				clearTimeout(timer);
				resolve({ url: match[1], stop: () => child.kill() });
			}
		};
		child.stdout?.on('data', read);
		child.stderr?.on('data', read);
		child.once('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`exited with ${code}:\n${output}`));
		});
	});
}

export interface Answer {
	status: number;
	body: string;
	headers: Record<string, string | string[] | undefined>;
}

/**
 * GET `uri` from a server on loopback as if it were `host` over https: the request line carries
 * `uri`, Host carries `host`, and X-Forwarded-Proto says https, as a TLS-terminating proxy sends it.
 */
export function getAs(
	server: string,
	host: string,
	uri: string,
	authorization: string
): Promise<Answer> {
	const { hostname, port } = new URL(server);
	return new Promise((resolve, reject) => {
		const outgoing = httpRequest(
			{
				host: hostname,
				port,
				method: 'GET',
				path: uri,
				headers: { host, 'x-forwarded-proto': 'https', authorization },
				timeout: 10_000
			},
			(incoming) => {
				let body = '';
				incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
				incoming.on('end', () =>
					resolve({ status: incoming.statusCode ?? 0, body, headers: incoming.headers })
				);
			}
		);
		outgoing.once('timeout', () => outgoing.destroy(new Error('no answer within 10 s')));
		outgoing.once('error', reject);
		outgoing.end();
	});
}
