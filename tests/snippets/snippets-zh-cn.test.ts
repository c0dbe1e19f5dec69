// The programs a Chinese page shows: Chinese comments, the same code, and they run as the English
// ones do, also where the platform's charset is not UTF-8 (a Chinese Windows reads sources as GBK).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationHeader, baseString, requestTarget, sign } from '$lib/mac';
import { LANGUAGES as ENGLISH, type SnippetLanguage, type SnippetOptions } from '$lib/snippets';
import { inLocale } from '../unit/in-locale';

// The programs as the Chinese page generates them.
const CHINESE: SnippetLanguage[] = ENGLISH.map((lang) => ({
	...lang,
	requires: inLocale('zh-CN', () => lang.requires),
	generate: (options: SnippetOptions) => inLocale('zh-CN', () => lang.generate(options))
}));

const HAN = /\p{Script=Han}/u;
const OPTIONS: SnippetOptions[] = [
	{ url: 'https://open.tapapis.cn/account/profile/v1?client_id=a%20b', kid: 'k' },
	{
		url: 'https://H.Example:8443/p%2Fq/r?b=1&a=%e2%9c%93',
		kid: 'k$1',
		inlineMacKey: 'clé-秘密',
		fixed: { ts: '1700000000', nonce: '+/+/+/+/+/+/+/+/+/+/+w==' },
		space: true
	}
];

/** Whether a line of a program is (part of) a comment or a docstring in its language. */
function isComment(line: string): boolean {
	return /^\s*(?:\/\/|#|\/\*\*|""")/.test(line);
}

describe.each(CHINESE.map((lang, index) => [lang.id, lang, ENGLISH[index]!] as const))(
	'%s program in Chinese',
	(_id, chinese, english) => {
		it('differs from the English program in its comments only, each of them in Chinese', () => {
			expect(chinese.id).toBe(english.id);
			for (const options of OPTIONS) {
				const zh = chinese.generate(options).split('\n');
				const en = english.generate(options).split('\n');
				expect(zh).toHaveLength(en.length);
				const changed = zh.flatMap((line, i) => (line === en[i] ? [] : [[line, en[i]!] as const]));
				expect(changed.length).toBeGreaterThan(3);
				for (const [zhLine, enLine] of changed) {
					expect(isComment(zhLine), zhLine).toBe(true);
					expect(isComment(enLine), enLine).toBe(true);
					expect(zhLine, enLine).toMatch(HAN);
				}
			}
		});
	}
);

// The toolchains of this machine run the Chinese programs; a missing one skips its language.
const TOOLS: Record<string, string[]> = {
	node: ['node'],
	python: ['python3'],
	java: ['java'],
	go: ['go'],
	php: ['php'],
	shell: ['bash', 'openssl', 'base64', 'curl']
};
const installed = (lang: SnippetLanguage) =>
	lang.id in TOOLS &&
	TOOLS[lang.id]!.every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);

const workDir = mkdtempSync(join(tmpdir(), 'snippets-zh-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs the program as the page says to, in `locale`, with `extra` in the environment. */
function run(lang: SnippetLanguage, code: string, env: Record<string, string>) {
	const dir = mkdtempSync(join(workDir, `${lang.id}-`));
	writeFileSync(join(dir, lang.fileName), code);
	const [command = '', ...args] = lang.command.split(' ');
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^(?:MAC_KEY|DRY_RUN|.*_proxy)$/i.test(name))
	);
	return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
		execFile(
			command,
			args,
			{ cwd: dir, env: { ...clean, ...env }, timeout: 50_000, encoding: 'utf8' },
			(error, stdout, stderr) =>
				resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr })
		);
	});
}

// UTF-8, plain ASCII, and GBK as a Chinese Windows' javac reads a source file (the JVM's
// file.encoding; the other toolchains read UTF-8 sources whatever the locale says).
const PLATFORMS: { name: string; env: Record<string, string> }[] = [
	{ name: 'a UTF-8 locale', env: { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } },
	{ name: 'the C locale', env: { LANG: 'C', LC_ALL: 'C' } },
	{
		name: 'the C locale, Java reading GBK',
		env: { LANG: 'C', LC_ALL: 'C', JAVA_TOOL_OPTIONS: '-Dfile.encoding=GBK' }
	}
];

describe.each(CHINESE.filter(installed).map((lang) => [lang.label, lang] as const))(
	'%s program in Chinese, run',
	(_label, lang) => {
		const c = { url: 'https://Open.TapAPIs.com:8443/x/y?b=1&a=%E2%9C%93', kid: 'kid-1' };
		const fixed = { ts: '1700000000', nonce: 'bm9uY2Utbm9uY2U=' };
		const macKey = 'demo-mac-key-Q9sLx2';

		for (const platform of PLATFORMS) {
			it(`prints the page's header under ${platform.name}`, async () => {
				const { uri, host, port } = requestTarget(c.url);
				const base = baseString({ ...fixed, method: 'GET', uri, host, port });
				const header = authorizationHeader({ id: c.kid, ...fixed, mac: await sign(macKey, base) });
				const result = await run(lang, lang.generate({ ...c, fixed }), {
					...platform.env,
					MAC_KEY: macKey,
					DRY_RUN: '1'
				});
				expect(result.stdout).toBe(`Authorization: ${header}\n`);
				expect(result.code).toBe(0);
			});
		}

		it('stops with a message naming the variable when mac_key is not set', async () => {
			const result = await run(lang, lang.generate({ ...c, macKeyEnv: 'ACCOUNT_MAC_KEY' }), {
				DRY_RUN: '1'
			});
			expect(result.code).not.toBe(0);
			expect(result.stderr).toContain('ACCOUNT_MAC_KEY');
		});
	}
);
