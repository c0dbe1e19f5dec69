// The core's errors in the page's language: the English table of messages/core says exactly what
// the core says, for every code and every shape of its parameters; the Chinese one says all of it
// in Chinese.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	MAC_ERROR_MESSAGES,
	MacInputError,
	attempt,
	parseCredential,
	type MacErrorCode,
	type MacErrorDetail,
	type ValueKind
} from '$lib/mac';
import { MAC_ERROR_TEXTS, macDetailText, macErrorText } from '$lib/i18n/mac-error-text';
import { urlNoteText } from '$lib/playground/first-use/url-note';
import { BASE_STRING_RULES, browserRewrites, urlRewrites } from '$lib/mac';

import { inLocale } from './in-locale';

// The same text modules as a Chinese page renders them.
const chinese = {
	macDetailText: (detail: MacErrorDetail) => inLocale('zh-CN', () => macDetailText(detail)),
	macErrorText: (error: MacInputError) => inLocale('zh-CN', () => macErrorText(error))
};
const chinesePlayground = {
	urlNoteText: (note: Parameters<typeof urlNoteText>[0]) =>
		inLocale('zh-CN', () => urlNoteText(note))
};

const ROOT = join(import.meta.dirname, '..', '..');
const KINDS: ValueKind[] = [
	'null',
	'array',
	'object',
	'string',
	'number',
	'bigint',
	'boolean',
	'symbol',
	'undefined',
	'function'
];

/** Parameters of every shape each code is thrown with. */
const SAMPLES: { [C in MacErrorCode]: MacErrorDetail<C>['params'][] } = {
	missing: [{ field: 'bytes' }],
	not_text: KINDS.map((kind) => ({ field: 'text', kind })),
	not_bytes: KINDS.map((kind) => ({ field: 'bytes', kind })),
	not_object: KINDS.map((kind) => ({ field: 'input', kind })),
	empty: [{ field: 'nonce' }],
	not_base64: [{ field: 'mac_key' }],
	unsupported_hash: [{ hash: 'MD5' }, { hash: null }],
	empty_key: [{}],
	not_json: [{}],
	not_json_object: [{}],
	credential_not_string: KINDS.map((kind) => ({ field: 'kid', kind })),
	unsupported_algorithm: [{ algorithm: 'rsa', supported: 'hmac-sha-1' }],
	bad_scopes: [{}],
	credential: [
		{
			issues: [
				{ code: 'missing', params: { field: 'kid' } },
				{ code: 'credential_not_string', params: { field: 'mac_key', kind: 'number' } },
				{ code: 'unsupported_algorithm', params: { algorithm: 'x', supported: 'hmac-sha-1' } }
			]
		}
	],
	url_empty: [{}],
	url_no_scheme: [{ url: 'open.tapapis.cn/x' }],
	url_invalid: [{ url: 'https://a b' }],
	url_scheme: [{ protocol: 'ftp:' }],
	url_credentials: [{}],
	url_no_host: [{}],
	bad_time: [{}],
	nonce_kind: [{}],
	header_quote: [{ field: 'kid', char: '"' }],
	header_control: [{ field: 'nonce', codePoint: 'U+000A' }],
	header_non_ascii: [{ field: 'kid', char: 'é' }],
	header_empty: [{}],
	header_no_scheme: [{}],
	header_scheme: [{ scheme: 'Bearer' }],
	header_unreadable: [{ at: 'x' }],
	header_unknown_param: [
		{ name: 'bodyhash', draft0: true },
		{ name: 'foo', draft0: false }
	],
	header_repeated: [{ name: 'ts' }],
	header_missing: [
		{ names: ['ts'], draft0: false },
		{ names: ['ts', 'mac'], draft0: true }
	],
	line_missing: [{ key: 'host' }],
	line_not_text: [{ key: 'uri' }],
	port_not_text: [{}],
	unknown_code: [{ code: 'nope' }],
	no_message: [{ code: 'empty' }],
	params_mismatch: [{ code: 'empty' }],
	untranslated: [{ message: 'Anything written outside the core.' }]
};

function each(render: (detail: MacErrorDetail) => void) {
	for (const code of Object.keys(MAC_ERROR_MESSAGES) as MacErrorCode[])
		for (const params of SAMPLES[code]) render({ code, params } as MacErrorDetail);
}

describe('messages/core in English', () => {
	it("renders every code with every sample exactly as the core's own English", () => {
		let count = 0;
		each((detail) => {
			const core = (MAC_ERROR_MESSAGES[detail.code] as (params: unknown) => string)(detail.params);
			expect(macDetailText(detail), detail.code).toBe(core);
			count++;
		});
		expect(count).toBeGreaterThan(Object.keys(MAC_ERROR_MESSAGES).length);
	});

	it('has a function for every code and uses every core_ message', () => {
		expect(Object.keys(MAC_ERROR_TEXTS).sort()).toEqual(Object.keys(MAC_ERROR_MESSAGES).sort());
		const source = readFileSync(join(ROOT, 'src/lib/i18n/mac-error-text.ts'), 'utf8');
		const keys = Object.keys(
			JSON.parse(readFileSync(join(ROOT, 'messages/core/en.json'), 'utf8')) as object
		).filter((key) => key.startsWith('core_'));
		expect(keys.filter((key) => !source.includes(`m.${key}(`))).toEqual([]);
	});

	it("shows a thrown error's message as it is", () => {
		const error = new MacInputError('url', 'A message written by a caller.');
		expect(error.code).toBe('untranslated');
		expect(macErrorText(error)).toBe('A message written by a caller.');
		const thrown = attempt(() => parseCredential('{"kid": 1}'));
		expect(!thrown.ok && macErrorText(thrown.error)).toBe(!thrown.ok && thrown.error.message);
	});
});

describe('messages/core in Chinese', () => {
	it('renders every code with every sample, in Chinese, its values kept', () => {
		each((detail) => {
			const text = chinese.macDetailText(detail);
			const english = (MAC_ERROR_MESSAGES[detail.code] as (params: unknown) => string)(
				detail.params
			);
			if (detail.code === 'untranslated') expect(text).toBe(english);
			else {
				expect(text, detail.code).toMatch(/[\u4e00-\u9fff]/);
				expect(text, detail.code).not.toBe(english);
			}
			// The values stay as they are; a kind of value is said in words.
			for (const [name, value] of Object.entries(detail.params))
				if (typeof value === 'string' && value !== '' && name !== 'kind')
					expect(text, detail.code).toContain(value);
		});
	});

	it('renders a thrown error in Chinese, and a message written outside the core as it is', () => {
		const thrown = attempt(() => parseCredential('{oops'));
		expect(!thrown.ok && chinese.macErrorText(thrown.error)).toBe(
			'这不是 JSON：请粘贴登录结果对象 {"kid": …, "mac_key": …}。'
		);
		expect(chinese.macErrorText(new MacInputError('url', 'As written.'))).toBe('As written.');
	});
});

describe("the browser's URL rewrites, said by the playground", () => {
	const url = "HTTPS://Open.TapAPIs.cn?a=it's b\\c";
	// Every kind of rewrite: the host's case, the empty path, encoded characters (a space, a control
	// character), dropped line breaks and resolved dot segments.
	const urls = [url, 'https://h/a\tb', 'https://h/a/../b', 'https://h/a b', 'https://h/a\u0001b'];
	const changes = urls.flatMap(urlRewrites);

	it('in English as the core words them', () => {
		expect(new Set(changes.map((change) => change.kind)).size).toBe(5);
		expect(urlNoteText({ sentAs: null, changes })).toMatch(
			/^The host is sent in lower case, the empty path is sent as \/, /
		);
		// The core's own English wording of the same rewrites is the oracle.
		expect(urlNoteText({ sentAs: 'https://h/', changes })).toContain(
			urls.flatMap(browserRewrites).join(', ')
		);
	});

	it('in Chinese, every one of them', () => {
		const text = chinesePlayground.urlNoteText({ sentAs: 'https://h/', changes });
		expect(text).toMatch(/^实际发出的是 https:\/\/h\/：请求域名以小写发出，空路径以 \/ 发出/);
		expect(text).toContain('空格 以 %20 发出');
		expect(text).toContain("' 以 %27 发出");
		expect(text).toContain('U+0001 以 %01 发出');
		expect(text).not.toMatch(/is sent|left out|resolved/);
	});
});

describe("the base string's lines, said by the playground", () => {
	const messages = JSON.parse(
		readFileSync(join(ROOT, 'messages/playground/en.json'), 'utf8')
	) as Record<string, string>;
	it("are in English the core's own names and explanations", () => {
		for (const rule of BASE_STRING_RULES) {
			expect(messages[`playground_line_${rule.key}`], rule.key).toBe(rule.name);
			expect(messages[`playground_line_${rule.key}_why`], rule.key).toBe(rule.explanation);
		}
	});
});
