import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import regexp from 'eslint-plugin-regexp';
import svelte from 'eslint-plugin-svelte';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

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
		// The protocol core runs in Node, the browser and edge runtimes: keep Svelte out of it.
		files: ['src/lib/mac/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['svelte', 'svelte/*', '$app/*', '@sveltejs/*', '*.svelte'],
							message: 'src/lib/mac is framework-free.'
						}
					]
				}
			]
		}
	}
);
