/**
 * A module fetched the first time something asks for it: `get()` starts the load and gives null
 * until it is in, then the module; whatever read it (a template, a $derived) updates then. Make
 * it outside a template or a $derived: one made while they run is not tracked by them.
 */
export class Loaded<T> {
	#value = $state.raw<T | null>(null);
	#started = false;
	readonly #load: () => Promise<T>;

	constructor(load: () => Promise<T>) {
		this.#load = load;
	}

	get(): T | null {
		if (!this.#started) {
			this.#started = true;
			void this.#load().then(
				(value) => (this.#value = value),
				// A failed fetch (offline, a new deployment) is tried again at the next read.
				() => (this.#started = false)
			);
		}
		return this.#value;
	}
}
