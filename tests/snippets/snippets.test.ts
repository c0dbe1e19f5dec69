import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	attempt,
	authorizationHeader,
	baseString,
	parseAuthorization,
	requestTarget,
	sign
} from '$lib/mac';
import {
	csharpString,
	javaString,
	LANGUAGES,
	phpString,
	type LanguageId,
	type SnippetLanguage,
	type SnippetOptions
} from '$lib/snippets';

// The programs are run with the toolchains of this machine; a missing one skips its language.
const TOOLS: Record<Exclude<LanguageId, 'csharp'>, string[]> = {
	node: ['node'],
	python: ['python3'],
	java: ['java', 'javac'],
	go: ['go'],
	php: ['php'],
	shell: ['bash', 'openssl', 'base64', 'curl']
};

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** How a saved program runs here: `build` first when there is one (mcs), then `run`. */
interface Runner {
	build?: string;
	run: string;
}

/**
 * C# runs with Mono when mcs and mono are here (the command in the program's second comment line),
 * else with `dotnet run Program.cs`, the command on the page.
 */
function csharpRunner(): Runner | string {
	const mono = monoRunner();
	if (typeof mono !== 'string') return mono;
	const dotnet = dotnetRunner();
	return typeof dotnet === 'string' ? `${mono}, and ${dotnet}` : dotnet;
}

function monoRunner(): Runner | string {
	const absent = ['mcs', 'mono'].filter((tool) => !has(tool));
	if (absent.length > 0) return `${absent.join(', ')} not found`;
	// Debian's mono-mcs does not pull in System.Net.Http (libmono-system-net-http4.0-cil).
	const dir = mkdtempSync(join(tmpdir(), 'snippets-mcs-'));
	try {
		const probe = 'class Probe { static void Main() { new System.Net.Http.HttpClient(); } }';
		writeFileSync(join(dir, 'Probe.cs'), probe);
		const built = spawnSync('mcs', ['-r:System.Net.Http', 'Probe.cs'], {
			cwd: dir,
			encoding: 'utf8'
		});
		if (built.status !== 0) return `mcs cannot use System.Net.Http: ${built.stdout.split('\n')[0]}`;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	return { build: 'mcs -r:System.Net.Http -out:Program.exe Program.cs', run: 'mono Program.exe' };
}

/** `dotnet run Program.cs` (a file-based app) needs the .NET 10 SDK. */
function dotnetRunner(): Runner | string {
	if (!has('dotnet')) return 'dotnet not found';
	const version = spawnSync('dotnet', ['--version'], { encoding: 'utf8' }).stdout;
	if (Number.parseInt(version, 10) < 10) return `dotnet ${version.trim()} is older than 10`;
	return { run: 'dotnet run Program.cs' };
}

/** How each language's program runs here, or why it cannot. */
function runner(lang: SnippetLanguage): Runner | string {
	const { id } = lang;
	if (id === 'csharp') return csharpRunner();
	const absent = TOOLS[id].filter((tool) => !has(tool));
	return absent.length > 0 ? `${absent.join(', ')} not found` : { run: lang.command };
}

const RUNNERS = new Map(LANGUAGES.map((lang) => [lang.id, runner(lang)]));
const MISSING = new Map(
	[...RUNNERS].map(([id, how]) => [id, typeof how === 'string' ? how : null])
);

/** `it` for a language, skipped with the reason in its name when the toolchain is absent. */
function itRuns(lang: SnippetLanguage, name: string, test: () => Promise<void>) {
	const missing = MISSING.get(lang.id);
	it.skipIf(missing)(
		`${lang.label}: ${name}${missing ? ` (skipped: ${missing})` : ''}`,
		test,
		60_000
	);
}

const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy', 'no_proxy'];

/** The environment the programs run in: no proxy, a UTF-8 locale (see the Java comment), no keys. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C.UTF-8' };
	for (const name of [...PROXY_VARIABLES, 'MAC_KEY', 'DRY_RUN']) {
		delete env[name];
		delete env[name.toUpperCase()];
	}
	return { ...env, ...extra };
}

interface RunResult {
	code: number;
	stdout: string;
	stderr: string;
}

const workDir = mkdtempSync(join(tmpdir(), 'snippets-'));
let runs = 0;

function exec(command: string, dir: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
	const [file = '', ...args] = command.split(' ');
	return new Promise((resolve) => {
		execFile(
			file,
			args,
			{ cwd: dir, env, timeout: 50_000, encoding: 'utf8' },
			(error, stdout, stderr) => {
				const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
				resolve({ code: status, stdout, stderr });
			}
		);
	});
}

/**
 * Saves the program as its language's file and runs it as the page (or, for Mono, the program's
 * comment) says. A build that fails or has anything to say (a warning) is the result instead.
 */
async function runProgram(
	lang: SnippetLanguage,
	code: string,
	env: Record<string, string>
): Promise<RunResult> {
	const how = RUNNERS.get(lang.id);
	if (how === undefined || typeof how === 'string') throw new Error(`${lang.id}: ${how}`);
	const dir = mkdtempSync(join(workDir, `${lang.id}-${++runs}-`));
	writeFileSync(join(dir, lang.fileName), code);
	if (how.build) {
		const built = await exec(how.build, dir, childEnv({}));
		if (built.code !== 0 || built.stdout || built.stderr) {
			return { ...built, stdout: `${how.build}:\n${built.stdout}`, code: built.code || -1 };
		}
	}
	return exec(how.run, dir, childEnv(env));
}

interface Case {
	name: string;
	url: string;
	kid: string;
	macKey: string;
	ts: string;
	nonce: string;
	space: boolean;
	/**
	 * The request URI .NET's and Mono's Uri make of url, when not url's own: PathAndQuery, which
	 * HttpClient sends and the C# program therefore signs, upper-cases the %-escapes of non-ASCII
	 * bytes (dotnet/runtime#79198), so the page shows this header for the URL written this way.
	 */
	dotnetUri?: string;
}

const CASES: Case[] = [
	{
		name: 'domestic host, comma style',
		url: 'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001',
		kid: 'demo-kid-profile-4f1c',
		macKey: 'demo-mac-key-profile-Q9sLx2',
		ts: '1717171717',
		nonce: 'q1w2e3r4t5y6u7i8o9p0aA==',
		space: false
	},
	{
		name: 'overseas host, comma-space style, non-ASCII key, percent-encoded query',
		url: 'https://open.tapapis.com/account/basic-info/v1?client_id=a%20b&x=%E2%9C%93',
		kid: 'kid-overseas',
		macKey: 'clé-秘密',
		ts: '0123456789',
		nonce: 'AAAAAAAAAAAAAAAAAAAAAA==',
		space: true
	},
	{
		name: 'explicit port, mixed-case host, escapes in the path, key with quotes, \\, $ and a tab',
		url: 'https://H.Example:8443/p%2Fq/r?b=1&a=%e2%9c%93&c=x+y',
		kid: 'k$1',
		macKey: `a'b"c\\d$e\`f $(x) %s {y}\tz`,
		ts: '1700000000',
		nonce: '+/+/+/+/+/+/+/+/+/+/+w==',
		space: false,
		dotnetUri: '/p%2Fq/r?b=1&a=%E2%9C%93&c=x+y'
	},
	{
		name: "the draft's example: http, so port 80",
		url: 'http://example.com/resource/1?b=1&a=2',
		kid: 'h480djs93hd8',
		macKey: '489dks293j39',
		ts: '1336363200',
		nonce: 'dj83hs9s',
		space: false
	}
];

/** What the page shows for the same values: the protocol core is the reference. */
async function pageHeader(c: Case, lang?: SnippetLanguage): Promise<string> {
	const target = requestTarget(c.url);
	const { host, port } = target;
	const uri = (lang?.id === 'csharp' && c.dotnetUri) || target.uri;
	const base = baseString({ ts: c.ts, nonce: c.nonce, method: 'GET', uri, host, port });
	const mac = await sign(c.macKey, base);
	return authorizationHeader({ id: c.kid, ts: c.ts, nonce: c.nonce, mac }, { space: c.space });
}

function fixedOptions(c: Case): SnippetOptions {
	return { url: c.url, kid: c.kid, fixed: { ts: c.ts, nonce: c.nonce }, space: c.space };
}

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

it('the reference agrees with the worked example, so the comparisons below mean something', async () => {
	const draft = CASES[3]!;
	expect(await pageHeader(draft)).toBe(
		'MAC id="h480djs93hd8",ts="1336363200",nonce="dj83hs9s",mac="6T3zZzy2Emppni6bzL7kdRxUWL4="'
	);
});

describe.each(LANGUAGES.map((lang) => [lang.id, lang] as const))('%s program', (_id, lang) => {
	for (const c of CASES) {
		itRuns(lang, `prints the page's header in fixed mode: ${c.name}`, async () => {
			const expected = `Authorization: ${await pageHeader(c, lang)}\n`;
			const [fromEnv, inlined] = await Promise.all([
				runProgram(lang, lang.generate(fixedOptions(c)), { DRY_RUN: '1', MAC_KEY: c.macKey }),
				// No MAC_KEY in the environment: the inlined key alone must do.
				runProgram(lang, lang.generate({ ...fixedOptions(c), inlineMacKey: c.macKey }), {
					DRY_RUN: '1'
				})
			]);
			expect(fromEnv).toEqual({ code: 0, stdout: expected, stderr: '' });
			expect(inlined).toEqual({ code: 0, stdout: expected, stderr: '' });
		});
	}

	itRuns(lang, 'stops with a message naming the variable when mac_key is not set', async () => {
		const code = lang.generate({
			url: CASES[0]!.url,
			kid: 'k',
			macKeyEnv: 'ACCOUNT_MAC_KEY'
		});
		// MAC_KEY is set but is not the variable this program was made for.
		const result = await runProgram(lang, code, { DRY_RUN: '1', MAC_KEY: 'wrong variable' });
		expect(result.code).not.toBe(0);
		expect(result.stderr).toContain('ACCOUNT_MAC_KEY');
		expect(result.stdout).not.toContain('Authorization');
	});
});

describe('signing and sending a request to a server that checks it', () => {
	const macKey = 'clé-live-秘密';
	const kid = 'live-kid';
	const received: { authorization: string; uri: string }[] = [];
	let server: Server;
	let url = '';

	/** The server signs what it received, with its own host and port, as the service does. */
	async function accepts(authorization: string, uri: string, port: number): Promise<boolean> {
		const parsed = attempt(() => parseAuthorization(authorization));
		if (!parsed.ok) return false;
		const { id, ts, nonce, mac } = parsed.value;
		const base = baseString({ ts, nonce, method: 'GET', uri, host: '127.0.0.1', port });
		return id === kid && (await sign(macKey, base)) === mac;
	}

	beforeAll(async () => {
		server = createServer((request, response) => {
			const authorization = request.headers.authorization ?? '';
			const uri = request.url ?? '';
			received.push({ authorization, uri });
			const { port } = server.address() as AddressInfo;
			// Always answer, so that a failed check fails the test at once instead of by timeout.
			void accepts(authorization, uri, port)
				.catch(() => false)
				.then((ok) => {
					response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
					response.end(ok ? '{"openid":"o-123"}' : '{"error":"invalid_signature"}');
				});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		url = `http://127.0.0.1:${port}/account/profile/v1?client_id=a%20b&x=%E2%9C%93`;
	});

	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	for (const lang of LANGUAGES) {
		itRuns(lang, 'makes a fresh ts and nonce, and the server accepts the request', async () => {
			const before = received.length;
			const result = await runProgram(lang, lang.generate({ url, kid }), { MAC_KEY: macKey });

			expect(received.length).toBe(before + 1);
			const sent = received[before]!;
			expect(sent.uri).toBe('/account/profile/v1?client_id=a%20b&x=%E2%9C%93');
			// The header printed is the header sent, and the server accepted it.
			expect(result.stdout.split('\n')[0]).toBe(`Authorization: ${sent.authorization}`);
			expect(result.stdout).toMatch(/\b200\b/);
			expect(result.stdout).toContain('{"openid":"o-123"}');
			expect(result.code).toBe(0);

			const { ts, nonce } = parseAuthorization(sent.authorization);
			expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(120);
			expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
			expect(Buffer.from(nonce, 'base64').toString('base64')).toBe(nonce);
		});
	}
});

describe('mac_key in the code', () => {
	const macKey = 'secret-Q9sLx2-$\'"\\-clé';
	const options: SnippetOptions = {
		url: CASES[0]!.url,
		kid: 'k',
		fixed: { ts: '1700000000', nonce: 'bm9uY2U=' }
	};

	it.each(LANGUAGES.map((lang) => [lang.label, lang] as const))(
		'%s: absent unless inlined; then present and the variable is not read',
		(_label, lang) => {
			const fromEnv = lang.generate(options);
			expect(fromEnv).not.toContain('secret-Q9sLx2');
			expect(fromEnv).toContain('MAC_KEY');

			const inlined = lang.generate({ ...options, inlineMacKey: macKey });
			expect(inlined).toContain('secret-Q9sLx2');
			expect(inlined).not.toContain('MAC_KEY');
		}
	);

	it('escapes the key for string literals that these tests cannot run', () => {
		// C#, by its rules too where neither Mono nor .NET runs it: \x would swallow following hex digits.
		expect(csharpString('a"b\\c\td€')).toBe('"a\\"b\\\\c\\td€"');
		expect(csharpString('\u0001F')).toBe('"\\u0001F"');
		// Java: ASCII only, so the source launcher's charset cannot change the key.
		expect(javaString('clé-秘\n')).toBe('"cl\\u00E9-\\u79D8\\n"');
		// PHP: `$` stays literal in single quotes; a control character needs double quotes and \$.
		expect(phpString("a$b'c")).toBe("'a$b\\'c'");
		expect(phpString('a$b\tc')).toBe('"a\\$b\\tc"');
	});
});
