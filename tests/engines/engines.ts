// Which of the two engines this machine has: Debian's firefox-esr, and WebKitGTK's WebKitWebDriver
// with its MiniBrowser under xvfb-run (WebKitGTK draws in an X display even when nobody looks).
// Outside CI a missing engine is skipped with a line that names it; with CI=true it is a failure.
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type EngineId = 'firefox' | 'webkit';

export type Found<T> = { found: true; paths: T } | { found: false; missing: string };

export interface FirefoxPaths {
	firefox: string;
}

export interface WebKitPaths {
	driver: string;
	miniBrowser: string;
	xvfbRun: string;
}

function executable(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** `command` on the PATH, as the shell would find it. */
function onPath(command: string): string | undefined {
	for (const folder of (process.env.PATH ?? '').split(delimiter)) {
		if (folder && executable(join(folder, command))) return join(folder, command);
	}
	return undefined;
}

/** FIREFOX_PATH, else Debian's firefox-esr. */
export function findFirefox(): Found<FirefoxPaths> {
	const firefox = process.env.FIREFOX_PATH || onPath('firefox-esr');
	return firefox && executable(firefox)
		? { found: true, paths: { firefox } }
		: {
				found: false,
				missing: process.env.FIREFOX_PATH
					? `FIREFOX_PATH (${process.env.FIREFOX_PATH})`
					: 'firefox-esr'
			};
}

/** WebKitGTK's MiniBrowser, in the library's folder (/usr/lib/<triplet>/webkit2gtk-4.x/). */
function findMiniBrowser(): string | undefined {
	const named = process.env.MINIBROWSER_PATH;
	if (named) return executable(named) ? named : undefined;
	for (const lib of ['/usr/lib', ...safeList('/usr/lib').map((name) => join('/usr/lib', name))]) {
		for (const name of safeList(lib)
			.filter((entry) => /^webkit2?gtk-[\d.]+$/.test(entry))
			.sort()
			.reverse()) {
			const path = join(lib, name, 'MiniBrowser');
			if (executable(path)) return path;
		}
	}
	return undefined;
}

function safeList(folder: string): string[] {
	try {
		return readdirSync(folder);
	} catch {
		return [];
	}
}

export function findWebKit(): Found<WebKitPaths> {
	const driver = onPath('WebKitWebDriver');
	if (!driver) return { found: false, missing: 'WebKitWebDriver (webkit2gtk-driver)' };
	const miniBrowser = findMiniBrowser();
	if (!miniBrowser) return { found: false, missing: "WebKitGTK's MiniBrowser" };
	const xvfbRun = onPath('xvfb-run');
	if (!xvfbRun) return { found: false, missing: 'xvfb-run (xvfb)' };
	return { found: true, paths: { driver, miniBrowser, xvfbRun } };
}

export const ENGINE_LABEL: Record<EngineId, string> = { firefox: 'Firefox', webkit: 'WebKit' };

/** The line that says an engine is skipped, or the error that fails the suite in CI. */
export function missingLine(id: EngineId, missing: string): string {
	return process.env.CI
		? `${missing} not found, and CI=true: the ${ENGINE_LABEL[id]} part cannot run (.ci/run installs it)`
		: `${missing} not found: the ${ENGINE_LABEL[id]} part is skipped`;
}
