import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/tools/chromium.js';
import { suitePorts } from './tests/tools/ports.js';

// The end-to-end tests run against the production build served under a base path, as GitHub Pages serves it.
export const BASE_PATH = '/mac-token-playground';
// The site's and the relay's ports: E2E_PORT and E2E_RELAY_PORT when set, else 4173 and 8788 when
// free, else free ports the system picks (another checkout's suite or a preview may hold those), the
// same in the runner and in every worker.
const ports = await suitePorts({ E2E_PORT: 4173, E2E_RELAY_PORT: 8788 });
const PORT = ports.E2E_PORT;
export const RELAY_PORT = ports.E2E_RELAY_PORT;

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	forbidOnly: !!process.env.CI,
	retries: 0,
	workers: process.env.CI ? 2 : undefined,
	// No limit on an assertion's wait (0 is none in Playwright): a web-first assertion waits for what
	// it checks, and a loaded machine only makes it come later. The test's and the run's limits are
	// not waits but hang bounds, far above the longest test on one busy core (fuzz, about 8 min): an
	// assertion that can never hold fails there, naming what it waited for, instead of running into
	// the CI job's own limit with nothing said.
	timeout: 20 * 60_000,
	globalTimeout: 60 * 60_000,
	expect: { timeout: 0 },
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
			// The build alone has taken over 3 minutes on a busy 2-core machine.
			timeout: 600_000
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
