import { createSubscriber } from 'svelte/reactivity';

/**
 * The current time as a reactive value. It ticks only while something on screen reads it, so a
 * page with a fixed ts runs no timer at all.
 */
export class LiveClock {
	#subscribe: () => void;

	constructor(intervalMs = 250) {
		this.#subscribe = createSubscriber((update) => {
			const timer = setInterval(update, intervalMs);
			return () => clearInterval(timer);
		});
	}

	get now(): number {
		this.#subscribe();
		return Date.now();
	}
}
