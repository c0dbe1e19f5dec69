import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import settings from '../../project.inlang/settings.json' with { type: 'json' };
import { renderText } from '$lib/i18n/render-text';
import { text } from '$lib/i18n/text';
import { inLocale } from './in-locale';

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

describe('renderText', () => {
	it('renders a Text in the language being rendered, with its variables', () => {
		expect(renderText(text('frame_error_status', { status: 404 }))).toBe('Error 404');
		expect(renderText(text('frame_nav_sign'))).toBe('Sign a request');
		expect(inLocale('zh-CN', () => renderText(text('frame_error_status', { status: 404 })))).toBe(
			'错误 404'
		);
	});

	it('joins a list parameter as the language writes lists', () => {
		const fields = text('core_missing', { field: ['kid', 'url'] as unknown as string });
		expect(renderText(fields)).toContain('kid, url');
		expect(inLocale('zh-CN', () => renderText(fields))).toContain('kid、url');
	});
});
