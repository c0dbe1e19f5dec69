// The "documentation" rows of docs/signing-variants.md: languages and platforms with no toolchain in
// CI (Kotlin, Swift, Rust, Lua on OpenResty, Windows line ends, axios). Each request is built the way
// the row's documentation says its API behaves, signed here with node:crypto (not the core), and
// must come back as the doc says.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis';
import { judge } from '$lib/diagnosis/service-answer';
import { parseAuthorization } from '$lib/mac';

const KEY = 'demo-mac-key-profile-Q9sLx2';
const TS = '1780000000';
const NONCE = 'zoo-nonce-0002';
const NONCE64 = 'q+8/Zz3kAAECAwQFBgcICQ==';
const HOST = 'open.tapapis.cn';
const URI = '/account/profile/v1?client_id=demo-client-0001&q=a%20b';
const URL_SENT = `https://${HOST}${URI}`;

interface Signed {
	/** The seven lines as the documented API gives them; `join` lays them out. */
	lines?: Partial<Record<'ts' | 'nonce' | 'method' | 'uri' | 'host' | 'port', string>>;
	join?: (lines: string[]) => string;
	/** The header's ts and nonce, when they differ from the base string's. */
	headerTs?: string;
	headerNonce?: string;
	/** An ext part in the header, signed as line 7 (the spec's line 7 is empty). */
	ext?: string;
	encode?: (digest: Buffer) => string;
}

const terminated = (lines: string[]) => lines.map((line) => `${line}\n`).join('');

function request(signed: Signed): string {
	const l = {
		ts: TS,
		nonce: NONCE,
		method: 'GET',
		uri: URI,
		host: HOST,
		port: '443',
		...signed.lines
	};
	const base = (signed.join ?? terminated)([
		l.ts,
		l.nonce,
		l.method,
		l.uri,
		l.host,
		l.port,
		signed.ext ?? ''
	]);
	const digest = createHmac('sha1', KEY).update(base, 'utf8').digest();
	const mac = (signed.encode ?? ((d) => d.toString('base64')))(digest);
	const ext = signed.ext === undefined ? '' : `,ext="${signed.ext}"`;
	return `MAC id="demo-kid-profile-4f1c",ts="${signed.headerTs ?? l.ts}",nonce="${signed.headerNonce ?? l.nonce}"${ext},mac="${mac}"`;
}

const hex = (d: Buffer) => d.toString('hex');
const crlf = (lines: string[]) => lines.map((line) => `${line}\r\n`).join('');
const joined = (lines: string[]) => lines.join('\n');

/** [row, what the doc says, expected: a mistake id, `none`, `refused:<refusal>` or `not-named`, request]. */
const ROWS: [string, string, string, Signed][] = [
	[
		'kotlin joinToString("\\n")',
		'separator between elements only',
		'ext-line-dropped',
		{ join: joined }
	],
	[
		'kotlin Base64.UrlSafe.encode(mac)',
		'URL-safe alphabet, padded',
		'digest-base64url',
		{ encode: (d) => d.toString('base64url') + '=' }
	],
	['kotlin "…".toByteArray() for the key', 'UTF-8 by default', 'none', {}],
	[
		'kotlin System.currentTimeMillis() signed, / 1000 sent',
		'milliseconds since 1970',
		'not-named',
		{ lines: { ts: `${TS}400` }, headerTs: TS }
	],
	[
		'swift CryptoKit HMAC<Insecure.SHA1>, Data(mac).base64EncodedString()',
		'standard Base64, padded',
		'none',
		{}
	],
	[
		'swift mac.map { String(format: "%02x", $0) }.joined()',
		'lower-case hex',
		'digest-hex',
		{ encode: hex }
	],
	[
		'swift lines.joined(separator: "\\n")',
		'separator between elements only',
		'ext-line-dropped',
		{ join: joined }
	],
	['rust hex::encode(mac)', 'lower-case hex', 'digest-hex', { encode: hex }],
	[
		'rust base64 URL_SAFE_NO_PAD.encode(mac)',
		'URL-safe alphabet, no padding',
		'digest-base64url',
		{ encode: (d) => d.toString('base64url') }
	],
	[
		'rust base64 STANDARD_NO_PAD.encode(mac)',
		'standard alphabet, no padding',
		'digest-unpadded',
		{ encode: (d) => d.toString('base64').replaceAll('=', '') }
	],
	[
		'rust SystemTime … .as_millis() in header and base string',
		'milliseconds since 1970',
		'refused:ts-milliseconds',
		{ lines: { ts: `${TS}400` } }
	],
	['lua ngx.encode_base64(ngx.hmac_sha1(key, s))', 'raw digest, standard Base64', 'none', {}],
	[
		'lua resty.string.to_hex(ngx.hmac_sha1(key, s))',
		'lower-case hex',
		'digest-hex',
		{ encode: hex }
	],
	[
		'lua ngx.var.uri',
		'the path without the arguments',
		'query-dropped',
		{ lines: { uri: '/account/profile/v1' } }
	],
	[
		'lua table.concat(lines, "\\n")',
		'separator between elements only',
		'ext-line-dropped',
		{ join: joined }
	],
	[
		'lua ngx.escape_uri(nonce)',
		'percent-encodes + / =',
		'nonce-url-encoded',
		{ lines: { nonce: encodeURIComponent(NONCE64) }, headerNonce: NONCE64 }
	],
	[
		'any, after the IETF draft: ext="…" in the header, signed as line 7',
		'ext is part of the normalized request string',
		'refused:ext-not-signed',
		{ ext: 'app-data' }
	],
	['csharp Environment.NewLine on Windows', '"\\r\\n" on Windows', 'crlf', { join: crlf }],
	['php PHP_EOL on Windows', '"\\r\\n" on Windows', 'crlf', { join: crlf }],
	['python os.linesep on Windows', '"\\r\\n" on Windows', 'crlf', { join: crlf }],
	[
		'node axios config.method in a request interceptor',
		'lower case: "get"',
		'method-lower-case',
		{ lines: { method: 'get' } }
	]
];

describe('signing variants, as the documentation describes them', () => {
	it.each(ROWS)('%s (%s): %s', async (_, _doc, expected, signed) => {
		const authorization = parseAuthorization(request(signed));
		const diagnosis = await diagnose({
			authorization,
			method: 'GET',
			url: URL_SENT,
			uriForm: 'as-written',
			macKey: KEY
		});
		if (expected === 'none') expect(diagnosis.verdict).toBe('match');
		else if (expected === 'not-named') expect(diagnosis.verdict).toBe('unexplained');
		else if (expected.startsWith('refused:')) {
			const judged = judge(diagnosis, {
				ts: authorization.ts,
				ext: authorization.ext,
				outsideWindow: null,
				nonceFirstUsedAt: null
			});
			expect(judged.verdict).toBe('refused');
			expect(judged.refusal).toBe(expected.slice('refused:'.length));
		} else {
			expect(diagnosis.verdict).toBe('explained');
			expect(diagnosis.explanations[0]?.id).toBe(expected);
		}
	});
});
