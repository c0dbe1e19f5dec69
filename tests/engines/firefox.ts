// Debian's Firefox ESR driven over WebDriver BiDi by puppeteer-core, which speaks BiDi to Firefox
// itself (no patched build, unlike Playwright's Firefox) and is already in the tree (Lighthouse's
// dependency; 24.x runs on Node 20, 25.x needs Node 22). An element is found by role and name with
// puppeteer's ::-p-aria(), which over BiDi is browsingContext.locateNodes with Firefox's own
// accessibility locator; console errors and uncaught errors arrive as BiDi log entries.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import {
	normalized,
	until,
	WAIT_MS,
	type Control,
	type Engine,
	type Role,
	type Tab
} from './driver';
import type { FirefoxPaths } from './engines';

/** p-aria's attribute values end at their closing quote: use the quote the name does not hold. */
function ariaSelector(name: string, role?: Role): string {
	const quote = name.includes('"') ? "'" : '"';
	return `::-p-aria([name=${quote}${name}${quote}]${role ? `[role="${role}"]` : ''})`;
}

class FirefoxControl implements Control {
	constructor(
		private readonly tab: FirefoxTab,
		readonly handle: ElementHandle<Element>
	) {}

	async click() {
		await this.handle.click();
	}

	async fill(text: string) {
		await this.handle.evaluate((element, value) => {
			const field = element as HTMLInputElement;
			field.focus();
			field.value = value;
			field.dispatchEvent(new Event('input', { bubbles: true }));
			field.dispatchEvent(new Event('change', { bubbles: true }));
		}, text);
	}

	value() {
		return this.handle.evaluate((element) => (element as HTMLInputElement).value);
	}

	async text() {
		return (await this.handle.evaluate((element) => element.textContent)) ?? '';
	}

	attribute(name: string) {
		return this.handle.evaluate((element, key) => element.getAttribute(key), name);
	}

	enabled() {
		return this.handle.evaluate((element) => !element.matches(':disabled'));
	}

	find(role: Role, name: string) {
		return this.tab.findIn(this.handle, role, name);
	}
}

class FirefoxTab implements Tab {
	private seen: string[] = [];

	constructor(
		readonly page: Page,
		private readonly base: string
	) {
		page.on('console', (message) => {
			if (message.type() === 'error') this.seen.push(`console error: ${message.text()}`);
		});
		page.on('pageerror', (error) => this.seen.push(`uncaught: ${String(error)}`));
	}

	async goto(path: string) {
		await this.page.goto(new URL(path, this.base).href, {
			waitUntil: 'load',
			timeout: WAIT_MS * 2
		});
	}

	find(role: Role, name: string, timeout = WAIT_MS) {
		return this.findIn(this.page, role, name, timeout);
	}

	async findIn(
		root: Page | ElementHandle<Element>,
		role: Role,
		name: string,
		timeout = WAIT_MS
	): Promise<Control> {
		const selector = ariaSelector(normalized(name), role);
		const look = async (seen: { last: string }) => {
			let found = await root.$$(selector);
			if (found.length === 0 && role === 'textbox') found = await this.passwordFields(root, name);
			seen.last = `${found.length} with that role and name`;
			return found.length === 1 && found[0] ? new FirefoxControl(this, found[0]) : undefined;
		};
		return until(`the ${role} "${name}"`, look, timeout);
	}

	/**
	 * Firefox's accessibility locator gives a password field no role that matches (ARIA has none for
	 * it, Chromium and WebKit call it textbox): the fields Firefox names `name` that are password
	 * inputs. The name is still Firefox's own.
	 */
	private async passwordFields(root: Page | ElementHandle<Element>, name: string) {
		const named = await root.$$(ariaSelector(normalized(name)));
		const password: ElementHandle<Element>[] = [];
		for (const handle of named) {
			if (await handle.evaluate((element) => element.matches('input[type=password]')))
				password.push(handle);
		}
		return password;
	}

	async findText(text: string): Promise<Control> {
		return until(`the text "${text}"`, async () => {
			const handle = await this.page.evaluateHandle((wanted) => {
				const clean = (value: string | null) => (value ?? '').replace(/\s+/g, ' ').trim();
				for (const element of document.body.querySelectorAll('*')) {
					if (clean(element.textContent) !== wanted) continue;
					if ([...element.children].some((child) => clean(child.textContent) === wanted)) continue;
					if (element.getClientRects().length > 0) return element;
				}
				return null;
			}, text);
			const element = handle.asElement() as ElementHandle<Element> | null;
			return element ? new FirefoxControl(this, element) : undefined;
		});
	}

	async errors() {
		const errors = this.seen;
		this.seen = [];
		return errors;
	}

	async close() {
		await this.page.close();
	}
}

/** A CSP violation is a console warning in Firefox, not a log entry: make it an error there. */
function reportViolations() {
	addEventListener('securitypolicyviolation', (event) =>
		console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)
	);
}

class FirefoxEngine implements Engine {
	constructor(
		readonly name: string,
		readonly base: string,
		readonly downloads: string,
		private readonly browser: Browser
	) {}

	async newTab(): Promise<Tab> {
		const page = await this.browser.newPage();
		await page.evaluateOnNewDocument(reportViolations);
		return new FirefoxTab(page, this.base);
	}

	async close() {
		try {
			await this.browser.close();
		} finally {
			await rm(this.downloads, { recursive: true, force: true });
		}
	}
}

/** Starts Firefox headless with a fresh profile (puppeteer's) that saves downloads to a new folder. */
export async function launchFirefox(paths: FirefoxPaths, base: string): Promise<Engine> {
	const downloads = await mkdtemp(join(tmpdir(), 'engines-firefox-'));
	try {
		const browser = await puppeteer.launch({
			browser: 'firefox',
			executablePath: paths.firefox,
			headless: true,
			timeout: WAIT_MS * 2,
			protocolTimeout: WAIT_MS * 2,
			extraPrefsFirefox: {
				'browser.download.dir': downloads,
				'browser.download.folderList': 2,
				'browser.download.useDownloadDir': true,
				'browser.download.always_ask_before_handling_new_types': false
			}
		});
		return new FirefoxEngine(`firefox-esr ${await browser.version()}`, base, downloads, browser);
	} catch (error) {
		await rm(downloads, { recursive: true, force: true });
		throw error;
	}
}
