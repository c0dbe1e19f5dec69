import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/tools/chromium.js';

// The end-to-end tests run against the production build served under a base path, as GitHub Pages serves it.
export const BASE_PATH = '/mac-token-playground';
// Overridable so that two checkouts on one machine can run their suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);
export const RELAY_PORT = Number(process.env.E2E_RELAY_PORT ?? 8788);

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: 0,
	workers: process.env.CI ? 2 : undefined,
	reporter: 'list',
	use: {
		baseURL: `http://127.0.0.1:${PORT}${BASE_PATH}/`,
		trace: 'retain-on-failure',
		...devices['Desktop Chrome'],
		launchOptions: { executablePath: chromiumPath, args: chromiumArgs }
	},
	webServer: [
		{
			command: `npm run build && npm run preview -- --host 127.0.0.1 --port ${PORT} --strictPort`,
			url: `http://127.0.0.1:${PORT}${BASE_PATH}/`,
			env: { BASE_PATH },
			reuseExistingServer: !process.env.CI,
			timeout: 180_000
		},
		{
			// The reference relay answering with the sandbox service: browser → relay → service, offline.
			command: `npm run proxy -- --sandbox --port ${RELAY_PORT} --allow-origin http://127.0.0.1:${PORT}`,
			url: `http://127.0.0.1:${RELAY_PORT}/`,
			reuseExistingServer: !process.env.CI,
			timeout: 60_000
		}
	]
});
