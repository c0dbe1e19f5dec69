import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

// The known deployment's public hosts; a build for another deployment overrides them.
const DOMESTIC_BASE_URL = process.env.PUBLIC_DOMESTIC_BASE_URL || 'https://open.tapapis.cn';
const OVERSEAS_BASE_URL = process.env.PUBLIC_OVERSEAS_BASE_URL || 'https://open.tapapis.com';

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
		// Baked in at build time: a static site has no server to ask at run time.
		__DOMESTIC_BASE_URL__: JSON.stringify(DOMESTIC_BASE_URL),
		__OVERSEAS_BASE_URL__: JSON.stringify(OVERSEAS_BASE_URL)
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
