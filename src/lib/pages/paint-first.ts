// Paint first, then load the scripts: a prerendered page's first view is complete HTML and CSS, so
// nothing in it waits for a script. SvelteKit's bootstrap would fetch every script at once (the
// <link rel="modulepreload"> tags in <head>, then its inline script's import()s) and, on a fast
// network and a slow CPU, hydrate the page before the browser has painted it: the first paint then
// waits for all the scripts to download and run. This rewrites each prerendered page so that the
// bootstrap starts the imports, and adds the preloads, once the first contentful paint has been
// presented, and updates the page's CSP to the rewritten script's hash (hash mode: the policy is a
// <meta> in the page). A page with nothing rendered on the server (the SPA fallback, 404.html) is
// left as it is: it has nothing to paint before its scripts.
//
// Runs when the site is prerendered (hooks.server.ts), never in the browser. Written against the
// markup of SvelteKit 2's render.js; if that changes shape, the build fails here rather than ship
// a page whose policy refuses its own bootstrap (and the e2e suite fails on a CSP violation).
import { createHash } from 'node:crypto';

/** A line of `<link href="…" rel="modulepreload">`, as render.js writes it (preloadStrategy 'modulepreload'). */
const PRELOAD = /^\s*<link href="([^"]+)" rel="modulepreload">$/;
const SCRIPT_OPEN = '<script>';
const SCRIPT_CLOSE = '</script>';
/** The bootstrap's imports, and what follows them. */
const IMPORTS = 'Promise.all([';
const IMPORTED = ']).then(([kit, app]) => {';
/** Only a page hydrated from prerendered HTML passes `node_ids` to kit.start. */
const HYDRATES = 'node_ids: [';

/**
 * The script that waits: `paint` resolves once the first contentful paint has been presented, the
 * page is hidden (it paints nothing then), or after 4 s whatever happens; it then adds the
 * modulepreload links, so that every module of the page downloads at once, not import by import.
 * Where the browser reports no paint timing, it waits for the first frame.
 */
function waitForPaint(hrefs: string[]): string {
	return `const paint = new Promise((go) => {
						let gone = false;
						const load = () => {
							if (gone) return;
							gone = true;
							for (const href of ${JSON.stringify(hrefs)}) {
								const link = document.createElement('link');
								link.rel = 'modulepreload';
								link.href = href;
								document.head.append(link);
							}
							go();
						};
						if (document.visibilityState !== 'visible') return load();
						addEventListener('visibilitychange', load, { once: true });
						setTimeout(load, 4000);
						if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
							new PerformanceObserver((list, observer) => {
								if (list.getEntriesByName('first-contentful-paint').length === 0) return;
								observer.disconnect();
								setTimeout(load);
							}).observe({ type: 'paint', buffered: true });
						} else requestAnimationFrame(() => setTimeout(load));
					});

					`;
}

/** The CSP source of a script's text, as SvelteKit writes it. */
function hashSource(script: string): string {
	return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * The page with its scripts loaded after its first paint (see above); unchanged when it is not a
 * prerendered page that hydrates.
 * @throws when the page has SvelteKit's bootstrap in a shape this does not know
 */
export function paintFirst(html: string): string {
	const body = html.indexOf('<body');
	const open = html.indexOf(SCRIPT_OPEN, body);
	if (body === -1 || open === -1) return html;
	const start = open + SCRIPT_OPEN.length;
	const end = html.indexOf(SCRIPT_CLOSE, start);
	if (end === -1) throw new Error('paintFirst: the page’s bootstrap script is not closed');
	const script = html.slice(start, end);
	if (!script.includes(HYDRATES)) return html;
	const lines = html.slice(0, body).split('\n');
	const hrefs = lines.flatMap((line) => PRELOAD.exec(line)?.[1] ?? []);
	const head = lines.filter((line) => !PRELOAD.test(line)).join('\n');
	const oldSource = hashSource(script);
	const importsAt = script.indexOf(IMPORTS);
	const importedAt = script.indexOf(IMPORTED, importsAt);
	if (hrefs.length === 0 || importsAt === -1 || importedAt === -1) {
		throw new Error('paintFirst: SvelteKit’s bootstrap is not in the shape this rewrites');
	}
	if (!head.includes(oldSource)) {
		throw new Error('paintFirst: the page’s CSP does not list its bootstrap’s hash');
	}
	const rewritten =
		script.slice(0, importsAt) +
		waitForPaint(hrefs) +
		'paint.then(() => ' +
		script.slice(importsAt, importedAt) +
		'])).then(([kit, app]) => {' +
		script.slice(importedAt + IMPORTED.length);
	return (
		head.replace(oldSource, hashSource(rewritten)) +
		html.slice(body, start) +
		rewritten +
		html.slice(end)
	);
}
