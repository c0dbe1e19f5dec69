// How every tool here launches Chromium: the tests, the screenshots and the benchmark.
import { existsSync } from 'node:fs';

/**
 * A machine with a browser uses it: CHROMIUM_PATH, else Debian's chromium. Undefined lets Playwright
 * use its own download, the fallback, so no step fetches a browser where one is installed.
 * @type {string | undefined}
 */
export const chromiumPath =
	process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/**
 * Root in a container needs --no-sandbox; no GPU; the next three keep Chromium off a network it
 * cannot reach. The last: Chromium 156 in headless mode starts the address bar's suggestion popup (a
 * WebUI page in a renderer of its own) that no headless run ever shows, and that renderer spent 1.5
 * to 2.8 s of CPU in the first seconds after each launch (read from /proc, 2026-11-28): on a 2-core
 * machine, a core's worth taken from the page under test as it loads, work that is the browser's,
 * not the page's. Chromium merges every --disable-features it is given, so the launchers' own lists
 * still hold.
 */
export const chromiumArgs = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup'
];
