import { fileURLToPath } from 'node:url';
import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { runnerImport, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { paraglideOptions } from './src/build/paraglide.js';
import { DEPLOYMENTS, type Region } from './src/lib/account-api/deployments.ts';
import { sandboxServerAsset } from './src/build/sandbox-server-bundle.js';
import { urlPatternOnDemand } from './src/build/urlpattern-on-demand.js';

/** A deployment's base URL for this build: its default, unless the build's environment names another. */
function baseUrl(region: Region): string {
	const deployment = DEPLOYMENTS[region];
	return process.env[deployment.baseUrlVariable] || deployment.defaultBaseUrl;
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
		paraglideVitePlugin(paraglideOptions),
		// Paraglide's URLPattern polyfill only in browsers without URLPattern (see the plugin).
		urlPatternOnDemand(),
		sveltekit(),
		// sandbox-server.mjs and openapi.json at the site's root, for integrators (the sandbox page).
		sandboxServerAsset(),
		openApiAsset()
	],
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
