// Signs requests with the outsiders (signers written apart from the vendor's samples and SDK, in
// other languages and libraries) and writes them as tests/unit/fixtures/outsider-requests.json,
// the likely-client calibration's requests from outside the zoo. Run once where the runtimes are
// (node tests/clients/outsiders/generate.mjs); the output is committed. Each outsider signs with
// its own toolchain; `variant` is what it does on purpose ('ok', or the catalogue id of a mistake;
// 'ts-milliseconds' signs right, in milliseconds). The calibration diagnoses each request for the
// mistakes it actually shows. Then `npx prettier --write` the output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '../../unit/fixtures/outsider-requests.json');
const build = mkdtempSync(join(tmpdir(), 'outsiders-'));

execFileSync('go', ['build', '-o', join(build, 'sign-go'), join(here, 'sign.go')]);
execFileSync('mcs', [
	'-r:System.Net.Http',
	`-out:${join(build, 'Sign.exe')}`,
	join(here, 'Sign.cs')
]);

/**
 * Each outsider: the command that signs, and its variants, each signed in its styles a and b (and
 * the `ported` ones in style c).
 */
const SIGNERS = {
	'go-net-http': {
		command: [join(build, 'sign-go')],
		variants: ['ok', 'query-sorted', 'hmac-sha256']
	},
	'python-requests': {
		command: ['python3', join(here, 'sign.py')],
		variants: ['ok', 'hmac-sha256', 'digest-hex', 'query-dropped']
	},
	'ruby-net-http': {
		command: ['ruby', join(here, 'sign.rb')],
		variants: ['ok', 'hmac-sha256', 'host-legacy', 'query-dropped'],
		// Style c: a port of the docs' PHP sample that kept its fixed nonce (and its `,`).
		ported: ['ok', 'hmac-sha256', 'host-legacy']
	},
	'php-streams': {
		command: ['php', join(here, 'sign.php')],
		variants: ['ok', 'hmac-sha256', 'ts-milliseconds']
	},
	'csharp-httpclient': {
		command: ['mono', join(build, 'Sign.exe')],
		variants: ['ok', 'hmac-sha256', 'key-ascii']
	},
	'java-httpclient': {
		command: ['java', join(here, 'Sign.java')],
		variants: ['ok', 'hmac-sha256', 'query-decoded']
	},
	'openssl-curl-shell': {
		command: ['sh', join(here, 'sign.sh')],
		variants: ['ok', 'digest-hex', 'hmac-sha256']
	},
	'node-fetch': {
		command: ['node', join(here, 'sign-fetch.mjs')],
		variants: ['ok', 'hmac-sha256', 'ts-milliseconds']
	}
};

const URLS = [
	'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001',
	'https://open.tapapis.com/account/basic-info/v1?client_id=demo-client-0001&state=a%20b'
];
const KID = 'demo-kid-outsider-7c3d';
const KEY = 'demo-mac-key-outsider-51e0';
/** A key with a character outside ASCII, for the variants that encode the key otherwise. */
const NON_ASCII_KEY = 'demo-mac-key-é-51e0';

const requests = [];
let seconds = 1_780_100_000;
for (const [signer, { command, variants, ported = [] }] of Object.entries(SIGNERS))
	for (const [style, cases] of [
		['a', variants],
		['b', variants],
		['c', ported]
	])
		for (const variant of cases)
			for (const url of URLS) {
				// The legacy host is the domestic deployment's: only where the domestic host is called.
				if (variant === 'host-legacy' && !url.includes('.cn/')) continue;
				const key = variant === 'key-ascii' ? NON_ASCII_KEY : KEY;
				const [program, ...args] = command;
				const authorization = execFileSync(program, [
					...args,
					KID,
					key,
					url,
					String(seconds++),
					variant,
					style
				])
					.toString()
					.trim();
				requests.push({
					id: `${signer}/${style}/${variant}/${new URL(url).host}`,
					signer,
					url,
					authorization,
					variant
				});
			}
writeFileSync(out, `${JSON.stringify(requests, null, '\t')}\n`);
console.log(`${requests.length} requests written to ${out}`);
