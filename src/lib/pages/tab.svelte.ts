import { browser } from '$app/environment';
import type { Playground } from '$lib/playground/playground.svelte';
import type { LiveJournal } from '$lib/sandbox/live/live-journal.svelte';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import type { Sender } from '$lib/send/sender.svelte';
import type { TriageDesk } from '$lib/triage-desk/desk.svelte';
import type { VerifyDesk } from '$lib/verify/desk/desk.svelte';

/** What the signing page works with: the inputs and what follows from them, the sandbox, sending. */
export interface SignState {
	playground: Playground;
	sandbox: Sandbox;
	sender: Sender;
}

/** What each page keeps for the tab. */
export interface TabStates {
	sign: SignState;
	verify: VerifyDesk;
	triage: TriageDesk;
	sandbox: LiveJournal;
}

// One of each per tab, outside any component: going to another page and back, or switching
// language, keeps everything typed, the sandbox's tokens, the last answer, the case and the
// verdicts, in memory only. Clear everything reloads the tab, which forgets it. Each page makes
// its own (`create`), so that this module loads no page's code into another's.
const kept: { [P in keyof TabStates]?: TabStates[P] } = {};

/** The tab's state of a page in the browser; on the server (prerendering) each render starts fresh. */
export function tabState<P extends keyof TabStates>(
	page: P,
	create: () => TabStates[P]
): TabStates[P] {
	if (!browser) return create();
	// Made under a root of its own, not under the page that asks first: Svelte stops updating the
	// deriveds of a component that is gone, so state owned by that page would go stale on the next
	// (a switch of language mounts the other language's page).
	if (kept[page] === undefined) $effect.root(() => void (kept[page] = create()));
	return kept[page] as TabStates[P];
}
