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

/**
 * Resolves once the text of what `element` names in aria-describedby matches `pattern`: now, or at
 * the change of the document that makes it so (words that load on first use arrive a moment later).
 */
export function descriptionMatches(element: Element, pattern: RegExp): Promise<void> {
	const description = () =>
		(element.getAttribute('aria-describedby') ?? '')
			.split(/\s+/)
			.map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
			.join(' ');
	if (pattern.test(description())) return Promise.resolve();
	return new Promise((resolve) => {
		const observer = new MutationObserver(() => {
			if (!pattern.test(description())) return;
			observer.disconnect();
			resolve();
		});
		observer.observe(document.body, {
			subtree: true,
			childList: true,
			characterData: true,
			attributes: true
		});
	});
}
