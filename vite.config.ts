import { fileURLToPath } from 'node:url';
import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { runnerImport, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { DEPLOYMENTS, type Region } from './src/lib/account-api/deployments.ts';
import { localeVariants, scanVariantsAsTheirFiles } from './src/lib/i18n/locale-variants.ts';
import { sandboxServerAsset } from './src/lib/sandbox/server/bundle.js';
import settings from './project.inlang/settings.json' with { type: 'json' };

/** A deployment's base URL for this build: its default, unless the build's environment names another. */
function baseUrl(region: Region): string {
	const deployment = DEPLOYMENTS[region];
	return process.env[deployment.baseUrlVariable] || deployment.defaultBaseUrl;
}

/**
 * Packages the browser loads only on demand (a dynamic import): kept out of the chunk every page
 * loads. fflate (the Bruno collection's zip, on first download) ran its table set-up on every page.
 */
const ON_DEMAND_PACKAGES = /[\\/]node_modules[\\/]fflate[\\/]/;

/**
 * Modules every page loads: Svelte's runtime and Kit's client (all the packages the browser gets
 * with the page, not those of ON_DEMAND_PACKAGES), the bundler's helpers (Vite's preloading of a
 * lazy module's CSS, Rolldown's runtime), the frame's language-neutral modules (which language a
 * URL is in, the offer of the Chinese page, how a message splits into text and code), and the
 * small language-neutral modules that most pages use: the page helpers (the tab's state, hand-overs,
 * hydration), the ui folder's logic (islands, clocks, loading, plain numbers and times), and the
 * core's errors, encodings, ts and nonce. Each would otherwise be a file of its own or one of a few
 * hundred bytes, shared by a different set of pages; one file compresses better (issue 27: / within
 * 2.45 times a bare page).
 */
function onEveryPage(id: string): boolean {
	return (
		(/[\\/]node_modules[\\/]/.test(id) && !ON_DEMAND_PACKAGES.test(id)) ||
		/^\0(?:vite\/preload-helper|rolldown\/runtime)/.test(id) ||
		/[\\/]src[\\/]lib[\\/]i18n[\\/](?:locale|offer|rich|text|plain-format)\.ts$/.test(id) ||
		/[\\/]src[\\/]lib[\\/]pages[\\/](?:handoff|tab\.svelte|hydrated|register-when-idle)\.ts$/.test(
			id
		) ||
		/[\\/]src[\\/]lib[\\/]ui[\\/](?:islands[\\/])?[\w-]+(?:\.svelte)?\.ts$/.test(id) ||
		/[\\/]src[\\/]lib[\\/]mac[\\/](?:errors|encoding|ts-nonce)\.ts$/.test(id) ||
		/[\\/]project\.inlang[\\/]settings\.json$/.test(id)
	);
}

// The site's frame and the small components that most pages show with it, compiled per language:
// the islands' parts, fields, notes, copy buttons, what loads a part on first use, the base string
// step by step (signing and verifying) with its marks. One file per language: split by which pages
// use which, they were files of a few hundred bytes to 2 kB each (issue 27: the weight of /).
const FRAME =
	/[\\/]src[\\/]lib[\\/](?:pages[\\/](?:Frame|SiteHeader)|i18n[\\/](?:Rich|LanguageSwitch)|ui[\\/](?:ClearEverything|ScrollRegion|islands[\\/]Island\w*|CopyButton|FieldNote|TextField|Lazy|LoadBar|Visible|MacKeyField)|playground[\\/]BaseStringSteps)(?:\.locale~([\w-]+))?\.svelte$/;

/**
 * One chunk per language for the frame and those components (each is used by a different set of
 * pages and lazily loaded parts, so the bundler would give each a file of a few hundred bytes).
 */
function frameChunk(id: string): string | null {
	const match = FRAME.exec(id);
	return match ? `frame${match[1] ? `-${match[1]}` : ''}` : null;
}

// The core's English table of errors (it makes MacInputError's message English when it loads).
const CORE_ENGLISH = /[\\/]src[\\/]lib[\\/]mac[\\/]error-messages\.ts$/;

/**
 * In the browser, the core's English table loads with a module that uses it (a page's table of
 * errors, at the first error shown), not with every module that imports the core's index: the pages
 * render an error from its code in their own language. Node loads it with the index, unbundled.
 */
function coreEnglishOnDemand(): Plugin {
	return {
		name: 'core-english-on-demand',
		applyToEnvironment: (environment) => environment.name === 'client',
		transform: {
			filter: { id: CORE_ENGLISH },
			handler: (code) => ({ code, map: null, moduleSideEffects: false })
		}
	};
}

/** openapi.json at the site's root: the service as this build's base URLs name it (sandbox page). */
function openApiAsset(): Plugin {
	return {
		name: 'openapi-asset',
		applyToEnvironment: (environment) => environment.name === 'client',
		// Loaded through Vite's module runner at build time rather than imported by this file: the core's
		// imports carry no extension, which the config's own loader warns about on every command.
		async generateBundle() {
			const { module } = await runnerImport<typeof import('./src/lib/account-api/openapi.ts')>(
				fileURLToPath(new URL('./src/lib/account-api/openapi.ts', import.meta.url))
			);
			const document = module.openApiDocument({
				domestic: baseUrl('domestic'),
				overseas: baseUrl('overseas')
			});
			this.emitFile({
				type: 'asset',
				fileName: 'openapi.json',
				source: `${JSON.stringify(document, null, '\t')}\n`
			});
		}
	};
}

export default defineConfig({
	plugins: [
		// Compiles messages/<area>/<locale>.json into src/lib/paraglide (git-ignored) at every build, dev
		// start and test run; `npm run i18n` (in check and prepare) compiles it with the same options.
		paraglideVitePlugin({
			project: './project.inlang',
			outdir: './src/lib/paraglide',
			// One module per locale: a page imports its own language's functions and no other's.
			outputStructure: 'locale-modules',
			// The locale is never looked up at run time (each component is compiled per locale).
			strategy: ['baseLocale'],
			emitReadme: false
		}),
		// Each component compiled once per language, its text written in (src/lib/i18n/locale-variants.ts).
		localeVariants({
			outdir: fileURLToPath(new URL('./src/lib/paraglide', import.meta.url)),
			root: fileURLToPath(new URL('.', import.meta.url)),
			pathPattern: settings['plugin.inlang.messageFormat'].pathPattern,
			baseLocale: settings.baseLocale,
			locales: settings.locales
		}),
		sveltekit(),
		coreEnglishOnDemand(),
		// sandbox-server.mjs and openapi.json at the site's root, for integrators (the sandbox page).
		sandboxServerAsset(),
		openApiAsset()
	],
	optimizeDeps: {
		// `npm run dev` scans the routes for the packages to pre-bundle; without this the scan fails
		// on the first language variant it meets ("Failed to run dependency scan", every fresh
		// clone), since it reads a .svelte file from disk and a variant is no file.
		rolldownOptions: { plugins: [scanVariantsAsTheirFiles()] }
	},
	build: {
		// Vite preloads, with each lazily loaded module, the modules it imports: their URLs, for every
		// page and part of the site, made the entry every page loads 2.5 kB (gzip). Only stylesheets
		// are listed now (a part's styles load with it); a part's scripts arrive as its imports ask
		// (and a page's own all at once: pages/paint-first.ts).
		modulePreload: {
			resolveDependencies: (_file, dependencies) =>
				dependencies.filter((dependency) => dependency.endsWith('.css'))
		},
		rolldownOptions: {
			output: {
				codeSplitting: {
					// What every page loads, in one file rather than split by which pages import which part:
					// every page needs nearly all of it, and one file compresses better than several, each
					// with its own header and no context shared with the others.
					groups: [{ name: 'framework', test: onEveryPage, priority: 1 }, { name: frameChunk }]
				}
			}
		}
	},
	define: {
		// Baked in at build time, read through BASE_URLS of account-api/deployments.ts: a static
		// site has no server to ask at run time.
		__DOMESTIC_BASE_URL__: JSON.stringify(baseUrl('domestic')),
		__OVERSEAS_BASE_URL__: JSON.stringify(baseUrl('overseas'))
	},
	test: {
		expect: { requireAssertions: true },
		// No test fails for being slow: a test waits for the event it needs, and a machine under load
		// (two cores, another suite beside it) only makes it later. 0 turns Vitest's default 5 s (10 s
		// for hooks) off; a test that hangs is a bug its own bounded wait or the CI job's limit shows.
		testTimeout: 0,
		hookTimeout: 0,
		// One project per kind of test, each with its own script (package.json): `npm run test:unit`
		// is the inner loop, pure and fast; the rest start processes, servers, toolchains or jsdom.
		// The folder a test is in says its project (tests/<project>/), so the split shows in the tree.
		projects: [
			{
				extends: './vite.config.ts',
				test: {
					// Pure tests: the app's modules in this process, no child process, no thread, no socket.
					name: 'unit',
					// Node, not jsdom: SubtleCrypto rejects buffers made in jsdom's realm.
					environment: 'node',
					// And beside the module they test, where the module is a fact of the service
					// (src/lib/account-api/*.test.ts): read with it, checked against the spec.
					include: ['tests/unit/**/*.test.ts', 'src/lib/**/*.test.ts']
				}
			},
			{
				extends: './vite.config.ts',
				plugins: [svelteTesting()],
				test: {
					name: 'component',
					environment: 'jsdom',
					include: ['tests/component/**/*.test.ts'],
					setupFiles: ['tests/component/setup.ts']
				}
			},
			{
				extends: './vite.config.ts',
				test: {
					// What starts processes or listens on loopback: the relay, the sandbox server and the
					// triage command as processes, the bench's controls, a fresh clone's npm run dev, and
					// the API clients' files run by the clients' own runners (tests/api-clients).
					name: 'integration',
					environment: 'node',
					include: ['tests/integration/**/*.test.ts', 'tests/api-clients/**/*.test.ts']
				}
			},
			{
				extends: './vite.config.ts',
				test: {
					// The pages' code snippets, each compiled and run by its own language's toolchain.
					name: 'snippets',
					environment: 'node',
					include: ['tests/snippets/**/*.test.ts']
				}
			},
			{
				extends: './vite.config.ts',
				test: {
					// Other people's MAC-token libraries (Python, Ruby) driven by tests/interop's scripts.
					name: 'interop',
					environment: 'node',
					include: ['tests/interop/**/*.test.ts']
				}
			},
			{
				extends: './vite.config.ts',
				test: {
					// The vendor's clients run with their own toolchains (tests/clients/zoo.test.ts).
					name: 'clients',
					environment: 'node',
					include: ['tests/clients/**/*.test.ts']
				}
			}
		]
	}
});
