// The engines suite (npm run test:engines): Firefox and WebKit, each one session, against one
// production build that servers.ts serves. Its own config, not a project of vite.config.ts, so that
// `vitest run` (test:unit) does not start browsers, and nothing of the app's Vite plugins loads.
import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		name: 'engines',
		root: new URL('../..', import.meta.url).pathname,
		include: ['tests/engines/**/*.test.ts'],
		environment: 'node',
		globalSetup: ['tests/engines/servers.ts'],
		// The two engines run side by side, one worker each.
		maxWorkers: 2,
		expect: { requireAssertions: true },
		// Building the site once is the slowest part: minutes on a loaded machine.
		hookTimeout: 240_000,
		teardownTimeout: 60_000
	}
});
