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
