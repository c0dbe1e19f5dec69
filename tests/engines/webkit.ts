// WebKitGTK driven over classic W3C WebDriver: WebKitWebDriver under xvfb-run starts MiniBrowser in
// automation mode, and a small fetch client here sends it the spec's commands (a library would add
// a dependency for a dozen endpoints; selenium-webdriver 4.x needs Node 22). Roles and accessible
// names are the browser's own, from the spec's Get Computed Role and Get Computed Label.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	ROLE_CANDIDATES,
	normalized,
	until,
	WAIT_MS,
	type Control,
	type Engine,
	type Role,
	type Tab
} from './driver';
import type { WebKitPaths } from './engines';

/** The key of an element reference in WebDriver's JSON (the spec's web element identifier). */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
type Reference = { [ELEMENT]: string };

class WebDriverError extends Error {
	constructor(
		readonly error: string,
		message: string
	) {
		super(message);
	}
}

/** Errors of an element that went away while it was looked at: looking again may find it. */
function transient(error: unknown): boolean {
	return (
		error instanceof WebDriverError &&
		['stale element reference', 'no such element', 'unknown error'].includes(error.error)
	);
}

class Session {
	constructor(
		private readonly origin: string,
		readonly id: string,
		readonly version: string
	) {}

	static async create(origin: string, capabilities: object): Promise<Session> {
		const value = (await send(origin, 'POST', '/session', { capabilities })) as {
			sessionId: string;
			capabilities: { browserVersion?: string };
		};
		return new Session(origin, value.sessionId, value.capabilities.browserVersion ?? '');
	}

	command(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<unknown> {
		return send(this.origin, method, `/session/${this.id}${path}`, body);
	}

	/** Runs `script` (a function body) in the current page with `args`. */
	execute(script: string, ...args: unknown[]): Promise<unknown> {
		return this.command('POST', '/execute/sync', { script, args });
	}
}

async function send(origin: string, method: string, path: string, body?: object): Promise<unknown> {
	const response = await fetch(`${origin}${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
		signal: AbortSignal.timeout(WAIT_MS * 2)
	});
	const { value } = (await response.json()) as { value: unknown };
	if (!response.ok) {
		const { error = 'unknown error', message = '' } = (value ?? {}) as {
			error?: string;
			message?: string;
		};
		throw new WebDriverError(error, `${method} ${path}: ${error} ${message}`);
	}
	return value;
}

/** In the page: the candidates for a role whose name sources hold every word of `name`, shown. */
const CANDIDATES_SCRIPT = `
const [root, selector, name] = arguments;
const words = name.toLowerCase().split(/\\s+/).filter(Boolean);
const textOf = (ids) => (ids || '').split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
return [...(root ?? document).querySelectorAll(selector)].filter((element) => {
	if (element.checkVisibility ? !element.checkVisibility() : element.getClientRects().length === 0) return false;
	const sources = [
		element.getAttribute('aria-label'), textOf(element.getAttribute('aria-labelledby')),
		...[...(element.labels ?? [])].map((label) => label.textContent),
		element.textContent, element.getAttribute('title'), element.getAttribute('placeholder'),
		element.getAttribute('alt'), element.tagName === 'INPUT' ? element.value : '',
		element.querySelector(':scope > legend, :scope > caption')?.textContent
	].join(' ').toLowerCase();
	return words.every((word) => sources.includes(word));
});`;

const TEXT_SCRIPT = `
const [text] = arguments;
const clean = (value) => value.replace(/\\s+/g, ' ').trim();
for (const element of document.body.querySelectorAll('*')) {
	if (clean(element.textContent) !== text) continue;
	if ([...element.children].some((child) => clean(child.textContent) === text)) continue;
	if (element.getClientRects().length > 0) return element;
}
return null;`;

const FILL_SCRIPT = `
const [element, text] = arguments;
element.focus();
element.value = text;
element.dispatchEvent(new Event('input', { bubbles: true }));
element.dispatchEvent(new Event('change', { bubbles: true }));`;

class WebKitControl implements Control {
	constructor(
		private readonly tab: WebKitTab,
		readonly reference: Reference
	) {}

	private get path() {
		return `/element/${this.reference[ELEMENT]}`;
	}

	async click() {
		await this.tab.current();
		await this.tab.session.command('POST', `${this.path}/click`);
	}

	async fill(text: string) {
		await this.tab.current();
		await this.tab.session.execute(FILL_SCRIPT, this.reference, text);
	}

	async value() {
		await this.tab.current();
		return String(await this.tab.session.command('GET', `${this.path}/property/value`));
	}

	async text() {
		await this.tab.current();
		return String(
			await this.tab.session.execute('return arguments[0].textContent', this.reference)
		);
	}

	async attribute(name: string) {
		await this.tab.current();
		return (await this.tab.session.command('GET', `${this.path}/attribute/${name}`)) as
			string | null;
	}

	async enabled() {
		await this.tab.current();
		return (await this.tab.session.execute(
			"return !arguments[0].matches(':disabled')",
			this.reference
		)) as boolean;
	}

	find(role: Role, name: string) {
		return this.tab.findIn(this.reference, role, name);
	}
}

class WebKitTab implements Tab {
	/** Errors read from pages this tab has left. */
	private pending: string[] = [];
	private loaded = false;

	constructor(
		private readonly engine: WebKitEngine,
		readonly session: Session,
		readonly handle: string,
		private readonly base: string
	) {}

	/** Makes this tab the session's current one: classic WebDriver acts on one at a time. */
	current(): Promise<void> {
		return this.engine.switchTo(this.handle);
	}

	async goto(path: string) {
		await this.current();
		if (this.loaded) this.pending.push(...(await this.read()));
		await this.session.command('POST', '/url', { url: new URL(path, this.base).href });
		this.loaded = true;
	}

	private async read(): Promise<string[]> {
		return (await this.session.execute(
			`return window.__engineErrors ? window.__engineErrors.splice(0) : ['the error recorder is not in ' + location.href];`
		)) as string[];
	}

	async errors() {
		await this.current();
		const errors = [...this.pending, ...(this.loaded ? await this.read() : [])];
		this.pending = [];
		return errors;
	}

	find(role: Role, name: string, timeout = WAIT_MS) {
		return this.findIn(null, role, name, timeout);
	}

	async findIn(
		root: Reference | null,
		role: Role,
		name: string,
		timeout = WAIT_MS
	): Promise<Control> {
		await this.current();
		const wanted = normalized(name);
		const look = async (seen: { last: string }) => {
			try {
				const candidates = (await this.session.execute(
					CANDIDATES_SCRIPT,
					root,
					ROLE_CANDIDATES[role],
					wanted
				)) as Reference[];
				const matches: Reference[] = [];
				for (const candidate of candidates) {
					const path = `/element/${candidate[ELEMENT]}`;
					const label = normalized(
						String(await this.session.command('GET', `${path}/computedlabel`))
					);
					if (label !== wanted) continue;
					if ((await this.session.command('GET', `${path}/computedrole`)) === role)
						matches.push(candidate);
				}
				seen.last = `${matches.length} with that role and name among ${candidates.length} candidates`;
				return matches.length === 1 && matches[0] ? new WebKitControl(this, matches[0]) : undefined;
			} catch (error) {
				if (!transient(error)) throw error;
				seen.last = String(error);
				return undefined;
			}
		};
		return until(`the ${role} "${name}"`, look, timeout);
	}

	async findText(text: string): Promise<Control> {
		await this.current();
		return until(`the text "${text}"`, async () => {
			const found = (await this.session.execute(TEXT_SCRIPT, text)) as Reference | null;
			return found ? new WebKitControl(this, found) : undefined;
		});
	}

	async close() {
		await this.current();
		await this.session.command('DELETE', '/window');
		this.engine.closed(this.handle);
	}
}

class WebKitEngine implements Engine {
	private active: string;
	private first: string | undefined;

	constructor(
		readonly name: string,
		readonly base: string,
		readonly downloads: string,
		private readonly session: Session,
		handle: string,
		private readonly driver: ChildProcess,
		private readonly home: string
	) {
		this.active = handle;
		this.first = handle;
	}

	async switchTo(handle: string) {
		if (this.active === handle) return;
		await this.session.command('POST', '/window', { handle });
		this.active = handle;
	}

	closed(handle: string) {
		if (this.active === handle) this.active = '';
	}

	async newTab(): Promise<Tab> {
		// The session's first window is the first tab; later ones are opened beside it.
		let handle = this.first;
		this.first = undefined;
		if (!handle) {
			({ handle } = (await this.session.command('POST', '/window/new', { type: 'tab' })) as {
				handle: string;
			});
		}
		await this.switchTo(handle);
		return new WebKitTab(this, this.session, handle, this.base);
	}

	async close() {
		try {
			await this.session.command('DELETE', '');
		} finally {
			if (this.driver.pid && this.driver.exitCode === null) {
				// Its browser may still write its cache while it ends: the folder goes after it.
				const ended = new Promise((resolve) => this.driver.once('exit', resolve));
				process.kill(-this.driver.pid, 'SIGTERM');
				await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
			}
			await rm(this.home, { recursive: true, force: true });
		}
	}
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise((resolve) => server.close(resolve));
	if (!address || typeof address === 'string') throw new Error('no free port');
	return address.port;
}

/**
 * Starts WebKitWebDriver in its own X display and opens one session of MiniBrowser; `base` is the
 * site through the recorder proxy. HOME is a new folder: a fresh profile, and MiniBrowser saves
 * downloads there (it has no Downloads folder to prefer).
 */
export async function launchWebKit(paths: WebKitPaths, base: string): Promise<Engine> {
	const home = await mkdtemp(join(tmpdir(), 'engines-webkit-'));
	const port = Number(process.env.ENGINES_WEBDRIVER_PORT) || (await freePort());
	const driver = spawn(paths.xvfbRun, ['-a', paths.driver, `--port=${port}`], {
		env: { ...process.env, HOME: home, XDG_DOWNLOAD_DIR: home },
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	// Its own process group, so that xvfb-run, Xvfb, the driver and MiniBrowser end together: also
	// when this process ends without closing the engine.
	const end = () => {
		if (driver.pid && driver.exitCode === null) process.kill(-driver.pid, 'SIGTERM');
	};
	process.once('exit', end);
	driver.once('exit', () => process.off('exit', end));
	const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000));
	driver.stdout.on('data', keep);
	driver.stderr.on('data', keep);
	const origin = `http://127.0.0.1:${port}`;
	try {
		await until('WebKitWebDriver to answer', async (seen) => {
			if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited: ${output}`);
			try {
				const status = (await send(origin, 'GET', '/status')) as { ready?: boolean };
				return status.ready ? true : undefined;
			} catch (error) {
				seen.last = String(error);
				return undefined;
			}
		});
		const session = await Session.create(origin, {
			alwaysMatch: {
				'webkitgtk:browserOptions': { binary: paths.miniBrowser, args: ['--automation'] },
				pageLoadStrategy: 'normal'
			}
		});
		await session.command('POST', '/timeouts', { script: WAIT_MS, pageLoad: WAIT_MS * 2 });
		const handle = String(await session.command('GET', '/window'));
		return new WebKitEngine(
			`WebKitGTK ${session.version}`,
			base,
			home,
			session,
			handle,
			driver,
			home
		);
	} catch (error) {
		end();
		await rm(home, { recursive: true, force: true });
		throw error;
	}
}
