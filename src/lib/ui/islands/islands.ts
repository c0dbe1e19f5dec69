// Hydration in parts. SvelteKit hydrates a page in one task: on a phone, the whole page's work at
// once, while the page looks ready and does not answer. An island (Island.svelte) is a part of a
// page that the server renders with the page, and that the browser hydrates later, each island in a
// task of its own, in the order they were queued (the page's order); and at once if it is used
// first (a pointer, a key or the focus goes into it).

/** An island's hydration, waiting for its turn. */
interface Job {
	run: () => void;
	done: boolean;
}

const queue: Job[] = [];
/** What waits for every island queued to have hydrated (afterIslands). */
const afterwards: (() => void)[] = [];
let pending = false;

/** Runs the next island, then lets the browser breathe (paint, input) before the one after. */
function pump() {
	pending = false;
	const job = queue.shift();
	try {
		if (job !== undefined) start(job);
	} finally {
		// An island that throws does not hold up those after it (its error still reaches the page).
		if (queue.length > 0) schedule();
		else for (const run of afterwards.splice(0)) run();
	}
}

function schedule() {
	if (pending) return;
	pending = true;
	setTimeout(pump, 0);
}

function start(job: Job) {
	if (job.done) return;
	job.done = true;
	job.run();
}

/** What makes an island hydrate ahead of its turn: it is being used (or what was done to it
 * before the page hydrated is being done again: paint-first.ts). */
const FIRST_USE = [
	'pointerdown',
	'keydown',
	'focusin',
	'click',
	'input',
	'change',
	'toggle'
] as const;

/**
 * Queues `run` (an island's hydration) for a task of its own after those queued before it, or runs
 * it at once when `element` is first used: the listeners are in the capture phase, so the island's
 * own handlers, added by `run`, hear the event that woke it.
 * @returns a function that drops the job if it has not run yet
 */
export function hydrateLater(element: HTMLElement, run: () => void): () => void {
	const job: Job = { run, done: false };
	const now = () => start(job);
	for (const type of FIRST_USE) element.addEventListener(type, now, { capture: true, once: true });
	queue.push(job);
	schedule();
	return () => {
		job.done = true;
		for (const type of FIRST_USE) element.removeEventListener(type, now, { capture: true });
	};
}

/**
 * Runs `run` once every island queued has hydrated: right after the last one, in its task (in a task
 * of its own when none is queued). For work that must not compete with the page's hydration, such
 * as the service worker's install: on a 2-core machine it took 0.8 s of CPU (a trace of `/`,
 * 2026-11-28), and the browser's first idle moment came between two islands.
 * @returns a function that drops `run` if it has not run yet
 */
export function afterIslands(run: () => void): () => void {
	afterwards.push(run);
	schedule();
	return () => {
		const at = afterwards.indexOf(run);
		if (at >= 0) afterwards.splice(at, 1);
	};
}
