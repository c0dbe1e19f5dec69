// Waiting for the state a test needs, not for a duration: in Node the app's state classes
// (`$state` fields, compiled for the server) are plain properties, so the assignment that reaches
// the state is the event to wait for. A machine under load makes it later, never a failure.

type Watcher = () => void;
const watched = new WeakMap<object, Map<PropertyKey, Set<Watcher>>>();

/** Calls `watcher` after every assignment to `target[key]`, until the returned function is called. */
function watch(target: object, key: PropertyKey, watcher: Watcher): () => void {
	let keys = watched.get(target);
	if (keys === undefined) watched.set(target, (keys = new Map()));
	let watchers = keys.get(key);
	if (watchers === undefined) {
		const found = (watchers = new Set());
		keys.set(key, found);
		// The property as it is, on the object or inherited (a class's accessor, as in the browser build).
		let owner: object | null = target;
		let descriptor: PropertyDescriptor | undefined;
		while (owner !== null && descriptor === undefined) {
			descriptor = Object.getOwnPropertyDescriptor(owner, key);
			if (descriptor === undefined) owner = Object.getPrototypeOf(owner) as object | null;
		}
		let value: unknown = descriptor?.value;
		const get = descriptor?.get;
		const set = descriptor?.set;
		Object.defineProperty(target, key, {
			configurable: true,
			enumerable: descriptor?.enumerable ?? true,
			get: get ? () => get.call(target) : () => value,
			set(next: unknown) {
				if (set) set.call(target, next);
				else value = next;
				for (const each of [...found]) each();
			}
		});
	}
	watchers.add(watcher);
	return () => void watchers.delete(watcher);
}

/**
 * Resolves with `target[key]` once `holds` is true of it: at once if it already is, else at the
 * assignment that makes it so. No deadline: a state that never comes is a test that never ends,
 * which the run's own limit (CI's job) reports; a slow machine only makes it come later.
 */
export function assigned<T extends object, K extends keyof T>(
	target: T,
	key: K,
	holds: (value: T[K]) => boolean
): Promise<T[K]> {
	if (holds(target[key])) return Promise.resolve(target[key]);
	return new Promise((resolve) => {
		const stop = watch(target, key, () => {
			const value = target[key];
			if (!holds(value)) return;
			stop();
			resolve(value);
		});
	});
}
