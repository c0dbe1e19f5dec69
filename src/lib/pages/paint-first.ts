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
// What a visitor does before the page has hydrated is not lost: a script of its own at the end of
// <head>, so that it runs before any of the page's fields and buttons exist (on a slow network the
// browser paints, and a visitor can press, the first part of the document before the rest has
// arrived), holds the clicks on buttons and the input, change and toggle events (a disclosure
// opened), and does them again once the root layout says the page has hydrated (the HYDRATED
// event, sent as hydration ends, so that nothing both reaches the hydrated page and is held). A
// form's native submission is stopped always, hydrated or not: this site submits nothing (its CSP
// has form-action 'none', and a submission the CSP refuses would lose the press; the forms' own
// handlers still hear the submit event).
//
// A text box's value is made its own (given to it again) just before the page hydrates: Svelte,
// once it has hydrated a box, takes its prerendered value attribute (a text area: its prerendered
// text) away in a microtask, and a box whose value is still that attribute's then loses its value
// for an instant and gets it back with the caret at its end: a box selected before then (to be
// typed over, as a field's text is) had its selection undone, and the typing was added to the old
// text. A box whose value is its own keeps it, and its selection, when the attribute goes. The
// islands hydrate later (ui/islands), so the time between a press and its box's hydration is no
// longer an instant.
//
// Runs when the site is prerendered (hooks.server.ts), never in the browser. Written against the
// markup of SvelteKit 2's render.js; if that changes shape, the build fails here rather than ship
// a page whose policy refuses its own bootstrap (and the e2e suite fails on a CSP violation).
import { createHash } from 'node:crypto';
import { HYDRATED } from './hydrated';

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
 * Preloads added in one task: up to 43 ms on a phone's CPU (Chromium at a quarter of its speed),
 * where three took up to 53 ms and four up to 56. A clock read to stop at 8 ms would split them as
 * well, but cost every page 22 bytes more gzipped, and `/` has none to spare.
 */
const PRELOADS_A_TASK = 2;

/**
 * The script that waits (written short: every page carries it). `p` (paint) resolves once the
 * first contentful paint has been presented, the page is hidden (it paints nothing then), or after
 * 4 s whatever happens; it then adds the modulepreload links of `M` (the page's modules), so that
 * they download at once, not import by import. Adding one costs Chromium 1 to 2 ms (the fetch it
 * starts; 2 to 9 ms on Lighthouse's phone, a slow CPU): `a` adds PRELOADS_A_TASK of them and goes
 * on in a task of its own, so that adding twenty is never one long task (it was 120 to 160 ms on
 * that phone, the one task over 50 ms after /verify's first paint). Where the browser reports no
 * paint timing, it waits for the first frame. Then `E` runs the modules one by one, each in a task
 * of its own (a module runs whatever it imports first), so that SvelteKit finds them run and its
 * hydration is a task of hydration alone. `D`, just before hydration: each text box's value is
 * made its own (see below).
 */
function waitForPaint(hrefs: string[]): string {
	return `const M=${JSON.stringify(hrefs)},D=()=>{for(const i of document.querySelectorAll('input,textarea'))if(!/^(checkbox|radio|file|hidden|button|submit|reset|image|range|color)$/.test(i.type))i.value=i.value},E=async()=>{for(const h of M){await import(h);await new Promise(n=>setTimeout(n))}},p=new Promise(g=>{let d=0;const l=()=>{if(d)return;d=1;let i=0;const a=()=>{for(const h of M.slice(i,i+=${PRELOADS_A_TASK})){const k=document.createElement('link');k.rel='modulepreload';k.href=h;document.head.append(k)}i<M.length?setTimeout(a):g()};a()};if(document.visibilityState!=='visible')return l();addEventListener('visibilitychange',l,{once:!0});setTimeout(l,4e3);if(PerformanceObserver.supportedEntryTypes?.includes('paint'))new PerformanceObserver((q,o)=>{if(q.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(l)}}).observe({type:'paint',buffered:!0});else requestAnimationFrame(()=>setTimeout(l))});
					`;
}

/**
 * The script that holds what is done before hydration (see the top; written short, in a block of
 * its own: it shares the page's global scope): `H` holds a click's button and the last input,
 * change and toggle event of each field or disclosure, in their order. On HYDRATED it holds no
 * more, and in a task of its own (not the hydration's) does each again (a click clicks the button
 * again; the event is sent again to its element, a toggle without bubbling, as the browser sends
 * it) if its element is still in the page. A disclosure toggled is first given back the state it
 * was toggled to: hydrating `bind:open` sets it to the state's value (closed), which would
 * otherwise shut what the visitor opened. A submission is stopped, always.
 */
export function holdUntilHydrated(): string {
	return `{const H=[],h=e=>{const t=e.type==='click'?e.target.closest?.('button'):e.target;if(!t)return;if(e.type!=='click'){const i=H.findIndex(w=>w[0]===t&&w[1]===e.type);if(i>=0)H.splice(i,1)}H.push([t,e.type,t.open])},K=['click','input','change','toggle'];addEventListener('submit',e=>e.preventDefault(),!0);for(const k of K)addEventListener(k,h,!0);addEventListener(${JSON.stringify(HYDRATED)},()=>{for(const k of K)removeEventListener(k,h,!0);setTimeout(()=>{for(const[t,k,o]of H)if(t.isConnected){if(k==='toggle')t.open=o;k==='click'?t.click():t.dispatchEvent(new Event(k,{bubbles:k!=='toggle'}))}})},{once:!0})}`;
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
		'p.then(E).then(() => (D(), ' +
		script.slice(importsAt, importedAt) +
		']))).then(([kit, app]) => {' +
		script.slice(importedAt + IMPORTED.length);
	const hold = holdUntilHydrated();
	const headEnd = head.lastIndexOf('</head>');
	if (headEnd === -1) throw new Error('paintFirst: the page has no </head>');
	const headWithHold = `${head.slice(0, headEnd)}<script>${hold}</script>\n\t${head.slice(headEnd)}`;
	return (
		headWithHold.replace(oldSource, `${hashSource(rewritten)} ${hashSource(hold)}`) +
		html.slice(body, start) +
		rewritten +
		html.slice(end)
	);
}
