import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HYDRATED } from '../../src/lib/pages/hydrated';
import { paintFirst } from '../../src/lib/pages/paint-first';

const START = '/base/_app/immutable/entry/start.abc.js';
const APP = '/base/_app/immutable/entry/app.def.js';
const NODE = '/base/_app/immutable/nodes/2.ghi.js';

/** A bootstrap script as SvelteKit 2's render.js writes it for a prerendered page. */
function bootstrap(start: { node_ids: boolean }): string {
	const options = start.node_ids
		? `, {
							node_ids: [0, 2],
							data: [null,null],
							form: null,
							error: null
						}`
		: '';
	return `
				{
					__sveltekit_x = { base: "/base" };

					const element = document.currentScript.parentElement;

					Promise.all([
						import("${START}"),
						import("${APP}")
					]).then(([kit, app]) => {
						kit.start(app, element${options});
					});
				}
			`;
}

const hash = (script: string) =>
	`'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * A prerendered page: the CSP lists the bootstrap's hash, the head preloads every module (the
 * bootstrap's and node's, then `chunks`).
 */
function page(script: string, chunks: string[] = []): string {
	return `<!doctype html>
<html lang="en">
	<head>
		<meta http-equiv="content-security-policy" content="script-src 'self' ${hash(script)}; style-src 'self'">
		<link href="${START}" rel="modulepreload">
		<link href="${APP}" rel="modulepreload">
		<link href="${NODE}" rel="modulepreload">${chunks.map((chunk) => `\n\t\t<link href="${chunk}" rel="modulepreload">`).join('')}
		<title>x</title>
	</head>
	<body>
		<div class="app-root"><main><p>The first view</p></main>
			<script>${script}</script>
		</div>
	</body>
</html>
`;
}

/** The page's inline scripts, in the page's order. */
function scriptsOf(html: string): string[] {
	return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
}

/** The bootstrap: the script in the body. */
function scriptOf(html: string): string {
	return scriptsOf(html.slice(html.indexOf('<body'))).at(0) ?? '';
}

/** The script in the head: what holds the visitor's actions until the page has hydrated. */
function holdOf(html: string): string {
	return scriptsOf(html.slice(0, html.indexOf('</head>'))).at(0) ?? '';
}

/**
 * Runs a page's bootstrap with a browser's parts stubbed: what it imports and preloads, and when.
 * `paintTiming` false is a browser that reports no paint timing.
 */
function run(html: string, { paintTiming = true, visibility = 'visible' } = {}) {
	const events: string[] = [];
	const listeners = new Map<string, Set<(event: unknown) => void>>();
	const timers: (() => void)[] = [];
	const frames: (() => void)[] = [];
	type Observer = { observe: () => void; disconnect: () => void };
	type Entries = { getEntriesByName: (name: string) => unknown[] };
	let observer: { callback: (list: Entries, self: Observer) => void; self: Observer } | null = null;
	let painted = false;
	const boxes = [
		{ type: 'text', value: 'kid', assigned: 0 },
		{ type: 'checkbox', value: 'on', assigned: 0 }
	].map((box) => {
		let value = box.value;
		return Object.defineProperty(box, 'value', {
			get: () => value,
			set: (next: string) => {
				value = next;
				box.assigned++;
			}
		});
	});
	const context = {
		document: {
			currentScript: { parentElement: {} },
			visibilityState: visibility,
			createElement: () => ({ rel: '', href: '' }),
			querySelectorAll: () => boxes,
			head: {
				append: (link: { rel: string; href: string }) => events.push(`${link.rel} ${link.href}`)
			}
		},
		addEventListener: (
			type: string,
			listener: (event: unknown) => void,
			options?: boolean | { once?: boolean }
		) => {
			const once = typeof options === 'object' && options.once === true;
			const called = once
				? (event: unknown) => {
						listeners.get(type)?.delete(called);
						listener(event);
					}
				: listener;
			listeners.set(type, (listeners.get(type) ?? new Set()).add(called));
		},
		removeEventListener: (type: string, listener: (event: unknown) => void) => {
			listeners.get(type)?.delete(listener);
		},
		Event: class {
			constructor(
				readonly type: string,
				readonly options: unknown
			) {}
		},
		setTimeout: (callback: () => void, delay?: number) => {
			if (delay === undefined || delay === 0) timers.push(callback);
		},
		requestAnimationFrame: (callback: () => void) => frames.push(callback),
		PerformanceObserver: Object.assign(
			function (this: unknown, callback: (list: Entries, self: Observer) => void) {
				const self = { observe: () => undefined, disconnect: () => (observer = null) };
				observer = { callback, self };
				return self;
			},
			{ supportedEntryTypes: paintTiming ? ['paint', 'largest-contentful-paint'] : [] }
		),
		__import: (url: string) => {
			events.push(`import ${url}`);
			return Promise.resolve({ start: () => events.push('start') });
		}
	};
	for (const script of scriptsOf(html))
		runInNewContext(script.replaceAll('import(', '__import('), context);
	return {
		events,
		boxes,
		/** Runs the tasks the page has queued (as the browser would next). */
		tasks() {
			for (const timer of timers.splice(0)) timer();
		},
		/** Dispatches an event on window, as the browser would to its listeners. */
		dispatch(event: { type: string; [key: string]: unknown }) {
			for (const listener of [...(listeners.get(event.type) ?? [])]) listener(event);
		},
		/** The browser presents its first contentful paint (and runs nothing yet). */
		firstPaint() {
			painted = true;
			observer?.callback(
				{ getEntriesByName: (name) => (painted && name === 'first-contentful-paint' ? [{}] : []) },
				observer.self
			);
		},
		/** The browser presents its first contentful paint, then runs its tasks and frames. */
		async paint() {
			painted = true;
			observer?.callback(
				{ getEntriesByName: (name) => (painted && name === 'first-contentful-paint' ? [{}] : []) },
				observer.self
			);
			// The tasks the page queues, and those they queue, until there are none.
			for (let round = 0; round < 20; round++) {
				for (const frame of frames.splice(0)) frame();
				for (const timer of timers.splice(0)) timer();
				await new Promise((done) => setTimeout(done, 0));
			}
		}
	};
}

describe('paintFirst', () => {
	it('moves the preloads into the bootstrap and lists the new script’s hash in the CSP', () => {
		const original = page(bootstrap({ node_ids: true }));
		const rewritten = paintFirst(original);
		const script = scriptOf(rewritten);
		expect(rewritten).not.toContain('rel="modulepreload"');
		// The held actions' script is in the head, before the first view; both are in the CSP.
		const hold = holdOf(rewritten);
		expect(hold).toContain('preventDefault');
		expect(rewritten.indexOf(hold)).toBeLessThan(rewritten.indexOf('<p>The first view</p>'));
		expect(rewritten).toContain(`script-src 'self' ${hash(script)} ${hash(hold)};`);
		expect(rewritten).not.toContain(hash(scriptOf(original)));
		for (const href of [START, APP, NODE]) expect(script).toContain(JSON.stringify(href));
		// The rest of the page is as it was.
		expect(rewritten).toContain('<p>The first view</p>');
		expect(rewritten).toContain('<title>x</title>');
	});

	it('imports nothing until the first contentful paint, then preloads every module', async () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))));
		await new Promise((done) => setTimeout(done, 0));
		expect(browser.events).toEqual([]);
		await browser.paint();
		expect(browser.events).toEqual([
			`modulepreload ${START}`,
			`modulepreload ${APP}`,
			`modulepreload ${NODE}`,
			// Each module run in a task of its own, then SvelteKit's imports find them run.
			`import ${START}`,
			`import ${APP}`,
			`import ${NODE}`,
			`import ${START}`,
			`import ${APP}`,
			'start'
		]);
	});

	it('adds the preloads two to a task, and imports once all are added', async () => {
		const chunks = ['a', 'b'].map((name) => `/base/_app/immutable/chunks/${name}.js`);
		const preloads = [START, APP, NODE, ...chunks].map((href) => `modulepreload ${href}`);
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }), chunks)));
		browser.firstPaint();
		// Tasks as the page queued them: five preloads in tasks of 2, 2 and 1.
		browser.tasks();
		expect(browser.events).toEqual(preloads.slice(0, 2));
		browser.tasks();
		expect(browser.events).toEqual(preloads.slice(0, 4));
		await browser.paint();
		expect(browser.events.slice(0, 6)).toEqual([...preloads, `import ${START}`]);
	});

	it('gives each text box its value again just before hydration, and no other box', async () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))));
		expect(browser.boxes.map((box) => box.assigned)).toEqual([0, 0]);
		await browser.paint();
		expect(browser.boxes.map((box) => [box.value, box.assigned])).toEqual([
			['kid', 1],
			['on', 0]
		]);
	});

	it('waits for the first frame where the browser has no paint timing', async () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))), { paintTiming: false });
		expect(browser.events).toEqual([]);
		await browser.paint();
		expect(browser.events).toContain(`import ${START}`);
	});

	it('loads at once in a hidden tab, which paints nothing', async () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))), { visibility: 'hidden' });
		// The preloads' tasks (two to a task), as the browser runs them.
		browser.tasks();
		browser.tasks();
		await new Promise((done) => setTimeout(done, 0));
		expect(browser.events).toContain(`import ${START}`);
	});

	it('holds what is done before hydration and does it again once the page has hydrated', () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))));
		const done: string[] = [];
		const button = { isConnected: true, click: () => done.push('click Triage') };
		const gone = { isConnected: false, click: () => done.push('click gone') };
		const field = {
			isConnected: true,
			dispatchEvent: (event: { type: string }) => done.push(`${event.type} Keys`)
		};
		const inside = (element: unknown) => ({ closest: () => element });
		let stopped = false;
		// Opened before hydration; hydrating its bind:open then closes it.
		const disclosure = {
			isConnected: true,
			open: true,
			dispatchEvent: (event: { type: string; options: { bubbles: boolean } }) =>
				done.push(
					`${event.type} ${event.options.bubbles ? 'bubbling ' : ''}Code ${disclosure.open ? 'open' : 'shut'}`
				)
		};
		browser.dispatch({ type: 'input', target: field });
		browser.dispatch({ type: 'toggle', target: disclosure });
		disclosure.open = false;
		browser.dispatch({ type: 'input', target: field });
		browser.dispatch({ type: 'click', target: inside(gone) });
		browser.dispatch({ type: 'click', target: inside(button) });
		browser.dispatch({ type: 'click', target: inside(null) });
		browser.dispatch({ type: 'submit', preventDefault: () => (stopped = true) });
		expect(stopped).toBe(true);
		expect(done).toEqual([]);
		browser.dispatch({ type: HYDRATED });
		// Not in the hydration's task: in one of its own.
		expect(done).toEqual([]);
		// Once hydrated, nothing is held: a click now reaches the page, and is not done twice.
		browser.dispatch({ type: 'click', target: inside(button) });
		browser.tasks();
		expect(done).toEqual(['toggle Code open', 'input Keys', 'click Triage']);
		browser.dispatch({ type: HYDRATED });
		browser.tasks();
		expect(done).toEqual(['toggle Code open', 'input Keys', 'click Triage']);
	});

	it('stops a form’s native submission, hydrated or not (the CSP has form-action none)', () => {
		const browser = run(paintFirst(page(bootstrap({ node_ids: true }))));
		let stops = 0;
		const submit = { type: 'submit', preventDefault: () => stops++ };
		browser.dispatch(submit);
		browser.dispatch({ type: HYDRATED });
		browser.tasks();
		browser.dispatch(submit);
		expect(stops).toBe(2);
	});

	it('leaves a page with nothing prerendered (the SPA fallback) as it is', () => {
		const fallback = page(bootstrap({ node_ids: false }));
		expect(paintFirst(fallback)).toBe(fallback);
	});

	it('refuses a bootstrap it does not know, or a CSP without its hash', () => {
		const script = bootstrap({ node_ids: true });
		expect(() => paintFirst(page(script.replace('Promise.all([', 'Promise.allSettled([')))).toThrow(
			/shape/
		);
		const withoutHash = page(script).replace(hash(script), "'sha256-other='");
		expect(() => paintFirst(withoutHash)).toThrow(/hash/);
	});
});
