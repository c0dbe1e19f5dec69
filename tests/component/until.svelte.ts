// Waiting for the change a test needs, not for a duration: the app's state is reactive, so an effect
// sees each change of it, and the DOM reports its own through a MutationObserver. A machine under
// load makes the change later, never a failure; nothing here has a deadline.
import { flushSync } from 'svelte';

/**
 * Resolves with `read()` once `holds` accepts it: checked now, then at each change of the state
 * `read` reads. Svelte's pending updates (the DOM's included) are applied before it resolves.
 */
export function until<T>(read: () => T, holds: (value: T) => boolean): Promise<T> {
	return new Promise((resolve) => {
		let found = false;
		const stop = $effect.root(() => {
			$effect(() => {
				const value = read();
				if (found || !holds(value)) return;
				found = true;
				// Out of the effect's run: stop it, apply what is pending, then hand the value over.
				queueMicrotask(() => {
					stop();
					flushSync();
					resolve(value);
				});
			});
		});
	});
}

/** Resolves once `element`'s attribute `name` is `value`: now, or at the change that makes it so. */
export function attributeIs(element: Element, name: string, value: string): Promise<void> {
	if (element.getAttribute(name) === value) return Promise.resolve();
	return new Promise((resolve) => {
		const observer = new MutationObserver(() => {
			if (element.getAttribute(name) !== value) return;
			observer.disconnect();
			resolve();
		});
		observer.observe(element, { attributes: true, attributeFilter: [name] });
	});
}
