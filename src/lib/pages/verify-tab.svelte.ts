import { browser } from '$app/environment';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';

// One desk per tab, outside any component (and outside tab-state, so that the signing page does not
// load the verify page's readers): going to the signing page and back, or switching language, keeps
// the case, in memory only.
let desk: VerifyDesk | null = null;

/** The tab's verify desk in the browser; on the server (prerendering) each render starts fresh. */
export function tabDesk(): VerifyDesk {
	if (!browser) return new VerifyDesk();
	// Made under a root of its own, not under the page that asks first: Svelte stops updating the
	// deriveds of a component that is gone, so a desk owned by that page would go stale on the next
	// (a switch of language mounts the other language's page).
	if (!desk) $effect.root(() => void (desk = new VerifyDesk()));
	return desk!;
}
