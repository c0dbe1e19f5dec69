import type { Attachment } from 'svelte/attachments';

/**
 * A <details> element's open state, read from the element and never written to it: `set` hears it as
 * the element is attached and at each toggle. A disclosure the visitor opened before the page
 * hydrated stays open and shows what it holds (`bind:open` would close it again as it hydrates).
 */
export function disclosure(set: (open: boolean) => void): Attachment<HTMLDetailsElement> {
	return (details) => {
		const read = () => set(details.open);
		read();
		details.addEventListener('toggle', read);
		return () => details.removeEventListener('toggle', read);
	};
}
