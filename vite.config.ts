import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { DEPLOYMENTS, type Region } from './src/lib/account-api/deployments.ts';

/** A deployment's base URL for this build: its default, unless the build's environment names another. */
function baseUrl(region: Region): string {
	const deployment = DEPLOYMENTS[region];
	return process.env[deployment.baseUrlVariable] || deployment.defaultBaseUrl;
}

export default defineConfig({
	plugins: [sveltekit()],
	build: {
		rolldownOptions: {
			output: {
				codeSplitting: {
					// Svelte's runtime and Kit's client (all the packages the browser gets) in one file rather
					// than split by which pages import which part: every page needs nearly all of it, and one
					// file compresses better than several (about 0.8 kB less gzip on the playground).
					groups: [{ name: 'framework', test: /[\\/]node_modules[\\/]/ }]
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
		projects: [
			{
				extends: './vite.config.ts',
				test: {
					name: 'unit',
					// Node, not jsdom: SubtleCrypto rejects buffers made in jsdom's realm.
					environment: 'node',
					include: ['tests/unit/**/*.test.ts']
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
			}
		]
	}
});
