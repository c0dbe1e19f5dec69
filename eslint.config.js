import { builtinModules } from 'node:module';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import regexp from 'eslint-plugin-regexp';
import svelte from 'eslint-plugin-svelte';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

// Where code runs is visible in the tree (README, Map of the folders): the browser's code, and what
// it shares with Node, in src/lib, src/routes and the service worker; the Node programs (relay,
// sandbox server, triage CLI) in src/node; the build's code (Vite plugins, bundlers) in src/build.
const NODE_CODE_ELSEWHERE =
	'Browser code imports no Node built-in: a Node program belongs in src/node, build-time code ' +
	'(a Vite plugin, a bundler) in src/build; code the browser shares with them stays free of Node.';
/** `no-restricted-imports` options that keep Node's modules out: node:*, and their bare names. */
const NO_NODE = {
	paths: builtinModules
		.filter((name) => !name.startsWith('_'))
		.map((name) => ({ name, message: NODE_CODE_ELSEWHERE })),
	patterns: [{ regex: '^node:', message: NODE_CODE_ELSEWHERE }]
};

export default defineConfig(
	// src/lib/paraglide is Paraglide's compiled output (npm run i18n), not ours to lint.
	globalIgnores([
		'build/',
		'.svelte-kit/',
		'test-results/',
		'playwright-report/',
		'screenshots/',
		'src/lib/paraglide/'
	]),
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	// Readers of outside input must run in linear time: regexp reports patterns that can backtrack
	// super-linearly (issue 23). 2.x, because 3.x needs a parser that requires Node 22.
	regexp.configs['flat/recommended'],
	{
		rules: {
			// Not in the recommended set: a pattern that starts with a quantifier and is tried at every
			// position of a text (/=+$/, / +$/ unanchored) takes quadratic time on a long run of that
			// character that something else ends.
			'regexp/no-super-linear-move': 'error'
		}
	},
	prettier,
	...svelte.configs.prettier,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			// typescript-eslint recommends this off for TS projects: the compiler already checks names.
			'no-undef': 'off'
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: {
				projectService: true,
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig
			}
		}
	},
	{
		// fast-check's stringMatching refuses a pattern with the i flag: generators spell both cases.
		files: ['tests/**'],
		rules: { 'regexp/use-ignore-case': 'off' }
	},
	{
		files: ['src/lib/**', 'src/routes/**', 'src/service-worker.ts'],
		// Tests beside their module run in Node (the unit project), never in the browser.
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': ['error', NO_NODE],
			'no-restricted-syntax': [
				'error',
				{ selector: 'ImportExpression[source.value=/^node:/]', message: NODE_CODE_ELSEWHERE }
			]
		}
	},
	{
		// The protocol core runs in Node, the browser and edge runtimes: keep Svelte out of it, and Node
		// too (this block replaces the one above for its files, so it repeats NO_NODE).
		files: ['src/lib/mac/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: NO_NODE.paths,
					patterns: [
						{
							group: ['svelte', 'svelte/*', '$app/*', '@sveltejs/*', '*.svelte'],
							message: 'src/lib/mac is framework-free.'
						},
						...NO_NODE.patterns
					]
				}
			]
		}
	}
);
