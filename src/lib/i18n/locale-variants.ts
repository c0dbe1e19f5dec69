// Build-time i18n: every component is compiled once per language, its text written in.
//
// A component says `{m.frame_brand()}` (Paraglide's compiled message functions, typed from
// messages/<area>/<locale>.json). This plugin rewrites those calls before Svelte compiles the file:
// - a message without parameters becomes its text, in markup as template text (Svelte writes it into
//   the component's static HTML, exactly as a literal there would be) and in script as a string;
// - a message with parameters becomes Paraglide's compiled function of that one locale, cut out of
//   its locale module (outputStructure "locale-modules") into a module of its own
//   (`\0i18n-message:<locale>:<key>`): no other language comes along, and a function used only by a
//   lazily loaded component loads with that component, not with every page.
// `X.svelte` is the English component. `import X from './X.svelte?locale=zh-CN'` gets a copy
// (id `X.locale~zh-CN.svelte`) written in Chinese, and every .svelte file that copy imports is the
// Chinese copy too, as is every .ts module it imports that itself imports the messages: a page's
// whole tree is in one language with no lookup at run time, and an English page carries no Chinese.
//
// State stays one instance per tab: a .svelte.ts module may not import the messages (it would be
// copied per language, and its state with it), so state and pure logic hold a Text ({ key, params },
// see text.ts) and a component renders it with its area's catalogue:
// `import { render } from 'virtual:messages/diagnosis'` is, in the importer's language, a table of
// every message whose key starts with `diagnosis_` and nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

export interface LocaleVariantOptions {
	/** Paraglide's output directory, absolute. */
	outdir: string;
	/** The folder that project.inlang/ is in, absolute. */
	root: string;
	/** project.inlang/settings.json's message-format path patterns, relative to `root`. */
	pathPattern: readonly string[];
	baseLocale: string;
	locales: readonly string[];
}

// A variant's id is a file name that does not exist: X.svelte → X.locale~zh-CN.svelte, so
// vite-plugin-svelte compiles it as any other component (and names its CSS after it).
const VARIANT = /\.locale~([\w-]+)(\.svelte|\.ts)$/;
const MESSAGES_IMPORT = /^[ \t]*import \{ m \} from '\$lib\/paraglide\/messages(?:\.js)?';[ \t]*$/m;
const CATALOGUE = /^virtual:messages\/(\w+)$/;
const CATALOGUE_ID = /^\0i18n-catalogue:(\w+):([\w-]+)$/;
const BLOCKS = /(<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<!--[\s\S]*?-->)/;

/** The real file behind an id, variant or not, without a query. */
export function fileOf(id: string): string {
	return id.split('?')[0]!.replace(VARIANT, '$2');
}

/** The locale a module id is written in: its variant's, else the base locale. */
export function localeOfId(id: string, baseLocale: string): string {
	return VARIANT.exec(id.split('?')[0]!)?.[1] ?? baseLocale;
}

/** Escapes text for Svelte markup; `code` in backticks becomes <code>code</code>. */
export function markupText(text: string): string {
	const escaped = text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/\{/g, '&#123;')
		.replace(/\}/g, '&#125;');
	return escaped.replace(/`([^`]*)`/g, '<code>$1</code>');
}

/** Escapes text for a quoted attribute value (backticks dropped: an attribute has no markup). */
export function attributeText(text: string): string {
	return text
		.replace(/`/g, '')
		.replace(/&/g, '&amp;')
		.replace(/"/g, '&quot;')
		.replace(/\{/g, '&#123;')
		.replace(/\}/g, '&#125;');
}

export type Texts = Readonly<Record<string, unknown>>;

/**
 * Rewrites one module's message calls for one locale. `own` and `base` are the flat message
 * tables of that locale and of the base locale; `module(key)` names the module that exports that
 * key's compiled function in the locale. Throws on a key that neither has, or on any use of `m` other than a call.
 */
export function rewriteMessages(
	source: string,
	options: {
		own: Texts;
		base: Texts;
		module: (key: string) => string;
		markup: boolean;
		file: string;
	}
): string {
	const { own, base, file } = options;
	const plain = (key: string): string | undefined => {
		const text = own[key] ?? base[key];
		if (text === undefined) throw new Error(`${file}: no message "${key}" in messages/`);
		// A message with a variable (or a variant object) is Paraglide's function, not a literal.
		return typeof text === 'string' && !/[{}]/.test(text) ? text : undefined;
	};
	let code = source;
	if (options.markup) {
		code = code
			.split(BLOCKS)
			.map((part, index) =>
				index % 2 === 1
					? part
					: part.replace(
							/(=)?\{m\.(\w+)\(\)\}/g,
							(whole, attribute: string | undefined, key: string) => {
								const text = plain(key);
								if (text === undefined) return whole;
								return attribute ? `="${attributeText(text)}"` : markupText(text);
							}
						)
			)
			.join('');
	}
	const imports = new Set<string>();
	code = code.replace(/\bm\.(\w+)\((\s*\))?/g, (_call, key: string, empty?: string) => {
		const text = plain(key);
		if (empty !== undefined && text !== undefined) return JSON.stringify(text.replace(/`/g, ''));
		imports.add(key);
		return `__m_${key}(`;
	});
	const importLines = [...imports]
		.map((key) => `import { ${key} as __m_${key} } from ${JSON.stringify(options.module(key))};`)
		.join(' ');
	code = code.replace(MESSAGES_IMPORT, importLines);
	const left = /\bm(?:\.\w+|\[)|\{ m \} from '\$lib\/paraglide/.exec(code);
	if (left) throw new Error(`${file}: messages are used as m.key(…) only, not "${left[0]}"`);
	return code;
}

/** The message that joins a list in each language (", " and "、"). */
const LIST_SEPARATOR = 'core_separator';
const MESSAGE_ID = /^\0i18n-message:([\w-]+):(\w+)$/;

/** The id of the module holding one message's compiled function in one locale. */
export function messageId(locale: string, key: string): string {
	return `\0i18n-message:${locale}:${key}`;
}

/**
 * One message's function cut out of Paraglide's compiled locale module: the module's imports (made
 * absolute) and that one `export const`. A key the locale falls back on (`export { key } from
 * "./en.js"`) is the base locale's module of that key.
 */
export function messageModule(localeCode: string, key: string, outdir: string): string | null {
	const parts = localeCode.split(/^(?=export )/m);
	const blocks = parts.filter((part) => part.startsWith('export '));
	const imports = (parts[0]?.startsWith('export ') ? '' : (parts[0] ?? ''))
		.split('\n')
		.filter((line) => line.startsWith('import '))
		.map((line) => line.replace(/from (["'])\.\.\//, `from $1${outdir}/`))
		.join('\n');
	for (const block of blocks) {
		if (block.startsWith(`export const ${key} =`)) return `${imports}\n${block}`;
		const fallback = new RegExp(`^export \\{ ${key} \\} from ["']\\./([\\w-]+)\\.js["']`).exec(
			block
		);
		if (fallback) return `export { ${key} } from ${JSON.stringify(messageId(fallback[1]!, key))};`;
	}
	return null;
}

/** An area's catalogue in one locale: its compiled functions and a renderer of Texts. */
export function catalogueModule(keys: readonly string[], module: (key: string) => string): string {
	const imports = keys.includes(LIST_SEPARATOR) ? keys : [...keys, LIST_SEPARATOR];
	return [
		...imports.map((key) => `import { ${key} } from ${JSON.stringify(module(key))};`),
		`const table = { ${keys.join(', ')} };`,
		// A list parameter (the fields to fix) is joined as the language writes lists: "kid, url",
		// "kid、url".
		`const value = (v) => (Array.isArray(v) ? v.join(${LIST_SEPARATOR}()) : v);`,
		'const params = (p) => Object.fromEntries(Object.entries(p ?? {}).map(([k, v]) => [k, value(v)]));',
		// An unknown key shows as itself: a test fails on it, and a reader sees what is missing.
		'export function render(text) { const message = table[text.key]; return message ? message(params(text.params)) : text.key; }'
	].join('\n');
}

/**
 * For Vite's dependency scan (`optimizeDeps.rolldownOptions.plugins`, dev only): `X.svelte?locale=…`
 * is read as X.svelte itself. The scan asks the plugins where an import leads but reads every
 * .svelte file it reaches from disk, not through their load hooks, and a variant's id names a file
 * that does not exist. What it looks for, the packages a component imports, is the same in every
 * language.
 */
export function scanVariantsAsTheirFiles(): Rolldown.Plugin {
	return {
		name: 'i18n-locale-variants:dependency-scan',
		resolveId: {
			filter: { id: /\?locale=[\w-]+$/ },
			handler(source, importer, extra) {
				return this.resolve(source.split('?')[0]!, importer, { ...extra, skipSelf: true });
			}
		}
	};
}

export function localeVariants(options: LocaleVariantOptions): Plugin {
	const texts = new Map<string, Texts>();
	const importsMessages = new Map<string, boolean>();
	let root = process.cwd();

	function textsOf(locale: string): Texts {
		let cached = texts.get(locale);
		if (!cached) {
			const table: Record<string, unknown> = {};
			for (const pattern of options.pathPattern) {
				const file = join(options.root, pattern.replace('{locale}', locale));
				if (existsSync(file)) Object.assign(table, JSON.parse(readFileSync(file, 'utf8')));
			}
			delete table.$schema;
			cached = table;
			texts.set(locale, cached);
		}
		return cached;
	}

	/** Whether a .ts module is copied per locale: it imports the messages (and holds no state). */
	function isTextModule(file: string): boolean {
		if (!file.endsWith('.ts') || file.endsWith('.svelte.ts') || file.includes('node_modules'))
			return false;
		let known = importsMessages.get(file);
		if (known === undefined) {
			known = existsSync(file) && MESSAGES_IMPORT.test(readFileSync(file, 'utf8'));
			importsMessages.set(file, known);
		}
		return known;
	}

	return {
		name: 'i18n-locale-variants',
		enforce: 'pre',
		configResolved(config) {
			root = config.root;
		},
		buildStart() {
			texts.clear();
			importsMessages.clear();
		},
		watchChange(id) {
			if (id.endsWith('.json')) texts.clear();
			importsMessages.delete(id);
		},
		async resolveId(source, importer) {
			if (MESSAGE_ID.test(source)) return { id: source, moduleSideEffects: false };
			const area = CATALOGUE.exec(source)?.[1];
			if (area) {
				const locale = importer ? localeOfId(importer, options.baseLocale) : options.baseLocale;
				return `\0i18n-catalogue:${area}:${locale}`;
			}
			const [path = '', query = ''] = source.split('?');
			// In dev, the browser asks for a variant by its URL (/src/…): give it back its path.
			if (VARIANT.test(path) && query === '') {
				return path.startsWith(root) || existsSync(fileOf(path)) ? path : join(root, path);
			}
			const asked = /^locale=([\w-]+)$/.exec(query)?.[1];
			const inherited = importer ? VARIANT.exec(importer.split('?')[0]!)?.[1] : undefined;
			const locale = asked ?? (query === '' ? inherited : undefined);
			if (!locale) return null;
			if (!options.locales.includes(locale)) this.error(`${source}: no locale "${locale}"`);
			const realImporter = importer ? fileOf(importer) : undefined;
			const resolved = await this.resolve(path, realImporter, { skipSelf: true });
			if (!resolved || locale === options.baseLocale) return asked ? resolved : null;
			const file = resolved.id;
			if (file.endsWith('.svelte') || isTextModule(file))
				return file.replace(/(\.svelte|\.ts)$/, `.locale~${locale}$1`);
			return asked ? resolved : null;
		},
		load(id) {
			const message = MESSAGE_ID.exec(id);
			if (message) {
				const [, locale = '', key = ''] = message;
				const file = join(options.outdir, 'messages', `${locale}.js`);
				this.addWatchFile(file);
				const code = existsSync(file)
					? messageModule(readFileSync(file, 'utf8'), key, options.outdir)
					: null;
				if (code === null) this.error(`${file}: no compiled message ${key} (run npm run i18n)`);
				return { code, moduleSideEffects: false };
			}
			const catalogue = CATALOGUE_ID.exec(id);
			if (catalogue) {
				const [, area = '', locale = ''] = catalogue;
				const keys = Object.keys(textsOf(options.baseLocale)).filter((key) =>
					key.startsWith(`${area}_`)
				);
				if (keys.length === 0)
					this.error(`virtual:messages/${area}: no message starts with ${area}_`);
				return catalogueModule(keys, (key) => messageId(locale, key));
			}
			if (!VARIANT.test(id)) return null;
			const file = fileOf(id);
			const real = existsSync(file) ? file : join(root, file);
			this.addWatchFile(real);
			return readFileSync(real, 'utf8');
		},
		transform(code, id) {
			const file = fileOf(id);
			if (id.includes('?') || file.includes('node_modules')) return null;
			if (!/\.(?:svelte|ts)$/.test(file) || !MESSAGES_IMPORT.test(code)) return null;
			if (file.endsWith('.svelte.ts'))
				this.error(
					`${file}: a state module may not import the messages (it would be copied per language); ` +
						'keep codes and data in state and render the text in a component'
				);
			const locale = localeOfId(id, options.baseLocale);
			for (const source of options.pathPattern)
				this.addWatchFile(join(options.root, source.replace('{locale}', locale)));
			try {
				const rewritten = rewriteMessages(code, {
					own: textsOf(locale),
					base: textsOf(options.baseLocale),
					module: (key) => messageId(locale, key),
					markup: file.endsWith('.svelte'),
					file
				});
				// Every line stays where it was (only columns on a line with a message move), so the
				// source map of what follows still points into this file: map null keeps the chain.
				return { code: rewritten, map: null };
			} catch (error) {
				this.error(error instanceof Error ? error.message : String(error));
			}
		}
	};
}
