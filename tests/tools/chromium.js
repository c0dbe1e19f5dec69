// How every tool here launches Chromium: the tests, the screenshots and the benchmark.
import { existsSync } from 'node:fs';

/**
 * A machine with a browser uses it: CHROMIUM_PATH, else Debian's chromium. Undefined lets Playwright
 * use its own download, the fallback, so no step fetches a browser where one is installed.
 * @type {string | undefined}
 */
export const chromiumPath =
	process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Root in a container needs --no-sandbox; the rest keep Chromium off a network it cannot reach. */
export const chromiumArgs = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
];
