/**
 * A module fetched the first time something asks for it: `get()` starts the load and gives null
 * until it is in, then the module; whatever read it (a template, a $derived) updates then.
 * `load()` is the same load, for an action that must wait for it. Make it outside a template or a
 * $derived: one made while they run is not tracked by them.
 */
export class Loaded<T> {
	#value = $state.raw<T | null>(null);
	#loading: Promise<T> | null = null;
	readonly #load: () => Promise<T>;

	constructor(load: () => Promise<T>) {
		this.#load = load;
	}

	/** Starts the load if need be; resolves once `get()` gives the module. */
	load(): Promise<T> {
		this.#loading ??= this.#load().then(
			(value) => (this.#value = value),
			(error: unknown) => {
				// A failed fetch (offline, a new deployment) is tried again at the next read.
				this.#loading = null;
				throw error;
			}
		);
		return this.#loading;
	}

	get(): T | null {
		if (this.#loading === null) this.load().catch(() => {});
		return this.#value;
	}
}
