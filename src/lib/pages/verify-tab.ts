import { browser } from '$app/environment';
import { VerifyDesk } from '$lib/verify/desk/desk.svelte';

// One desk per tab, outside any component (and outside tab-state, so that the signing page does not
// load the verify page's readers): going to the signing page and back, or switching language, keeps
// the case, in memory only.
let desk: VerifyDesk | null = null;

/** The tab's verify desk in the browser; on the server (prerendering) each render starts fresh. */
export function tabDesk(): VerifyDesk {
	if (!browser) return new VerifyDesk();
	desk ??= new VerifyDesk();
	return desk;
}
