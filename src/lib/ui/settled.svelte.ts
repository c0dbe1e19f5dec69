/**
 * The value of the latest promise a getter gives, once it resolves; until then the value before, so
 * what is on screen stays while a new one is computed. Undefined until the first one resolves; a
 * promise that a newer one replaced is ignored when it resolves.
 */
export class Settled<T> {
	#value = $state.raw<T | undefined>(undefined);
	#latest: Promise<T> | null = null;
	readonly #promise: () => Promise<T>;

	constructor(promise: () => Promise<T>) {
		this.#promise = promise;
	}

	get current(): T | undefined {
		const promise = this.#promise();
		if (promise !== this.#latest) {
			this.#latest = promise;
			void promise.then((value) => {
				if (this.#latest === promise) this.#value = value;
			});
		}
		return this.#value;
	}
}
