import type { Attachment } from 'svelte/attachments';

/**
 * The focus moved by name, through the state that owns the element: an action asks for a name, and
 * the element attached under that name takes the focus, at once or as soon as it appears.
 */
export class FocusRequests<Name extends string> {
	#wanted = $state<Name | null>(null);

	request(name: Name): void {
		this.#wanted = name;
	}

	/** Attach to the element that takes the focus asked for under `name`. */
	target(name: Name): Attachment<HTMLElement> {
		return (element) => {
			if (this.#wanted !== name) return;
			this.#wanted = null;
			element.focus();
		};
	}
}
