// What the paths of tests/engines/paths.ts ask of a browser engine, whichever protocol drives it:
// Firefox over WebDriver BiDi (firefox.ts), WebKitGTK over classic WebDriver (webkit.ts). Elements
// are found by role and accessible name as the browser itself computes them, as the e2e suite does.
import { expect } from 'vitest';

/** The roles the paths look for. */
export type Role =
	'button' | 'checkbox' | 'heading' | 'link' | 'radio' | 'region' | 'status' | 'table' | 'textbox';

/** One element found on a tab. */
export interface Control {
	/** Clicks it as a user does (scrolled into view, pointer input). */
	click(): Promise<void>;
	/**
	 * Puts `text` in a text field as one input event, as a paste does (and as Playwright's fill
	 * does): a whole HAR typed key by key would be minutes of the page re-reading it.
	 */
	fill(text: string): Promise<void>;
	/** The form control's current value. */
	value(): Promise<string>;
	/** Its text content, whitespace as in the DOM. */
	text(): Promise<string>;
	attribute(name: string): Promise<string | null>;
	/** Whether it can be used: not disabled, itself or by a disabled fieldset around it. */
	enabled(): Promise<boolean>;
	/** The one element inside this one with `role` and the accessible name `name`. */
	find(role: Role, name: string): Promise<Control>;
}

/** A browser tab (a top-level browsing context) of the engine's one session. */
export interface Tab {
	/** Loads `path`, relative to the site's base URL (e.g. `verify`, `zh-CN/`), or an absolute URL. */
	goto(path: string): Promise<void>;
	/**
	 * The one element with `role` and the accessible name `name`, waited for `timeout` ms at most
	 * (WAIT_MS); then a TimeoutError.
	 */
	find(role: Role, name: string, timeout?: number): Promise<Control>;
	/** The first element whose whole text is `text` (Playwright's getByText(text, { exact: true })). */
	findText(text: string): Promise<Control>;
	/** Every console error and uncaught error or rejection since the last call, in any page loaded. */
	errors(): Promise<string[]>;
	close(): Promise<void>;
}

export interface Engine {
	/** Names the engine in test titles and messages, e.g. "firefox-esr 153.7.0esr". */
	readonly name: string;
	/** The site's base URL as this engine reaches it, ending in a slash. */
	readonly base: string;
	/** Where the engine saves a download. */
	readonly downloads: string;
	/** A fresh tab of the session. */
	newTab(): Promise<Tab>;
	close(): Promise<void>;
}

/** How long a path waits for an element or a state: generous, for a loaded 2-core machine. */
export const WAIT_MS = 60_000;
const POLL_MS = 100;

/** What `until` throws when the time is up: a path may look again for a while and act again. */
export class TimeoutError extends Error {}

/**
 * Calls `attempt` until it returns a value other than undefined, at most `timeout` ms; then fails
 * (a TimeoutError) saying what was awaited and what `attempt` last saw (its `seen` argument).
 */
export async function until<T>(
	what: string,
	attempt: (seen: { last: string }) => Promise<T | undefined>,
	timeout = WAIT_MS
): Promise<T> {
	const seen = { last: '' };
	const deadline = Date.now() + timeout;
	for (;;) {
		const value = await attempt(seen);
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new TimeoutError(
				`timed out after ${timeout} ms waiting for ${what}${seen.last ? `; last seen: ${seen.last}` : ''}`
			);
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
}

/** Waits until `read` gives a text that `expected` matches (a string: is contained). */
export async function expectText(
	what: string,
	read: () => Promise<string>,
	expected: string | RegExp
): Promise<string> {
	return until(
		`${what} to ${typeof expected === 'string' ? 'contain' : 'match'} ${String(expected)}`,
		async (seen) => {
			const text = await read();
			seen.last = JSON.stringify(text.slice(0, 300));
			const ok = typeof expected === 'string' ? text.includes(expected) : expected.test(text);
			return ok ? text : undefined;
		}
	).then((text) => {
		if (typeof expected === 'string') expect(text).toContain(expected);
		else expect(text).toMatch(expected);
		return text;
	});
}

/** Accessible names compare with their white space collapsed, as Playwright's do. */
export function normalized(name: string): string {
	return name.replace(/\s+/g, ' ').trim();
}

/**
 * The elements that may have each role, by HTML's implicit roles or an explicit one: classic
 * WebDriver asks the browser an element's role and name one element at a time, so the candidates
 * are narrowed by CSS first. A selector too narrow can only miss an element (the path fails), never
 * match a wrong one: the browser's computed role and name decide.
 */
export const ROLE_CANDIDATES: Record<Role, string> = {
	button:
		'button, summary, input[type=button], input[type=submit], input[type=reset], [role=button]',
	checkbox: 'input[type=checkbox], [role=checkbox], [role=switch]',
	heading: 'h1, h2, h3, h4, h5, h6, [role=heading]',
	link: 'a[href], area[href], [role=link]',
	radio: 'input[type=radio], [role=radio]',
	region: 'section, [role=region]',
	status: 'output, [role=status]',
	table: 'table, [role=table], [role=grid]',
	textbox:
		'textarea, input:not([type]), input[type=text], input[type=url], input[type=search], input[type=email], input[type=tel], input[type=password], [role=textbox], [contenteditable=true]'
};
