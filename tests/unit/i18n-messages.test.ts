import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import settings from '../../project.inlang/settings.json' with { type: 'json' };
import { markupText, messageId, messageModule, rewriteMessages } from '$lib/i18n/locale-variants';
import { render } from 'virtual:messages/frame';
import { text } from '$lib/i18n/text';

const ROOT = join(import.meta.dirname, '..', '..');
const { locales, baseLocale } = settings;
const patterns = settings['plugin.inlang.messageFormat'].pathPattern;

function readMessages(pattern: string, locale: string): Record<string, unknown> {
	const messages = JSON.parse(
		readFileSync(join(ROOT, pattern.replace('{locale}', locale)), 'utf8')
	) as Record<string, unknown>;
	delete messages['$schema'];
	return messages;
}

/** The variables a message names: {name}. */
function variables(message: unknown): string[] {
	return [...JSON.stringify(message).matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();
}

describe('message files', () => {
	it('are listed in the project settings, every folder of messages/', () => {
		const folders = readdirSync(join(ROOT, 'messages'), { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.map((entry) => `./messages/${entry.name}/{locale}.json`);
		expect([...patterns].sort()).toEqual(folders.sort());
	});

	for (const pattern of patterns) {
		const area = /messages\/(\w+)\//.exec(pattern)![1]!;
		const base = readMessages(pattern, baseLocale);
		for (const locale of locales) {
			it(`${area}: every message in ${locale}, none empty, none extra, same variables and code`, () => {
				const messages = readMessages(pattern, locale);
				expect(Object.keys(messages).sort()).toEqual(Object.keys(base).sort());
				for (const [key, message] of Object.entries(messages)) {
					expect(typeof message === 'string' ? message.trim() : message, key).toBeTruthy();
					expect(variables(message), key).toEqual(variables(base[key]));
					// Identifiers stay as they are in every language, in code style.
					const code = (value: unknown) =>
						[...JSON.stringify(value).matchAll(/`([^`]*)`/g)].map((match) => match[1]).sort();
					expect(code(message), key).toEqual(code(base[key]));
				}
			});
		}
		it(`${area}: every key starts with its area, ${area}_`, () => {
			const stray = Object.keys(base).filter(
				(key) => !new RegExp(`^${area}_[a-z0-9_]+$`).test(key)
			);
			expect(stray).toEqual([]);
		});
	}
});

describe('messages compiled into a component', () => {
	const own = { a_title: '标题', a_code: '用 `ts` 签算', a_count: '{count} 个' };
	const base = { a_title: 'Title', a_code: 'Sign with `ts`', a_count: '{count} of them' };
	const header = '<script lang="ts">\n\timport { m } from \'$lib/paraglide/messages.js\';\n';
	const options = { own, base, module: (key: string) => `/zh/${key}.js`, markup: true, file: 'X' };

	it('writes a message without variables into markup, code in <code>, braces escaped', () => {
		const source = `${header}\tconst x = m.a_title();\n</script>\n<h1 title={m.a_title()}>{m.a_code()}</h1>`;
		const out = rewriteMessages(source, options);
		expect(out).toContain('<h1 title="标题">用 <code>ts</code> 签算</h1>');
		expect(out).toContain('const x = "标题";');
		expect(out).not.toContain('$lib/paraglide');
		expect(markupText('{a} < b & c')).toBe('&#123;a&#125; &lt; b &amp; c');
	});

	it("calls the locale module's own function for a message with variables", () => {
		const source = `${header}</script>\n<p>{m.a_count({ count: n })}</p>`;
		const out = rewriteMessages(source, options);
		expect(out).toContain('import { a_count as __m_a_count } from "/zh/a_count.js";');
		expect(out).toContain('{__m_a_count({ count: n })}');
	});

	it('refuses a key no file has, and any use of m but a call', () => {
		expect(() => rewriteMessages(`${header}</script>{m.nope()}`, options)).toThrow(/nope/);
		expect(() => rewriteMessages(`${header}\tconst f = m['a_title'];</script>`, options)).toThrow(
			/m\.key/
		);
	});
});

describe('a message cut out of its locale module', () => {
	const outdir = join(ROOT, 'src', 'lib', 'paraglide');
	const zh = readFileSync(join(outdir, 'messages', 'zh-CN.js'), 'utf8');

	it('holds that one function and no other message', () => {
		const code = messageModule(zh, 'frame_error_status', outdir)!;
		expect(code).toMatch(/^export const frame_error_status =/m);
		expect(code.match(/^export /gm)).toHaveLength(1);
		expect(code).toContain('错误 ${i?.status}');
	});

	it("is the base locale's module for a key the locale falls back on, and null for none", () => {
		const fallback = 'export { a_b } from "./en.js"\n';
		expect(messageModule(fallback, 'a_b', outdir)).toBe(
			`export { a_b } from ${JSON.stringify(messageId('en', 'a_b'))};`
		);
		expect(messageModule(zh, 'no_such_key', outdir)).toBeNull();
	});
});

describe('an area catalogue', () => {
	it('renders a Text in the base language, with its variables', () => {
		expect(render(text('frame_error_status', { status: 404 }))).toBe('Error 404');
		expect(render(text('frame_nav_sign'))).toBe('Sign a request');
	});
});
