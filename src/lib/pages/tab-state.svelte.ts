import { browser } from '$app/environment';
import { asset } from '$app/paths';
import { hostsOf } from '$lib/account-api/deployments';
import { Playground } from '$lib/playground/playground.svelte';
import { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { Sender } from '$lib/send/sender.svelte';

/**
 * What the signing page works with: the inputs and what follows from them, the sandbox, sending.
 * Both languages' pages share it, so switching keeps it all (the verify page's desk: verify-tab.ts).
 */
export interface TabState {
	playground: Playground;
	sandbox: Sandbox;
	sender: Sender;
}

function createTabState(): TabState {
	const playground = new Playground();
	// The sandbox answers for whatever hosts the two base URLs name, as the real deployments would.
	const sandbox = new Sandbox(
		() => hostsOf(Object.values(playground.baseUrls)),
		browser ? new URL(asset('/avatars/'), location.origin).href : undefined
	);
	const sender = new Sender(playground, sandbox, browser ? localStorage : null);
	return { playground, sandbox, sender };
}

// One per tab, outside any component: going to another page and back keeps everything typed, the
// sandbox's tokens and the last answer, in memory only. Clear everything reloads the tab, which
// forgets it.
let tab: TabState | null = null;

/** The tab's state in the browser; on the server (prerendering) each render starts fresh. */
export function tabState(): TabState {
	if (!browser) return createTabState();
	// Made under a root of its own, not under the page that asks first: Svelte stops updating the
	// deriveds of a component that is gone, so state owned by that page would go stale on the next.
	if (!tab) $effect.root(() => void (tab = createTabState()));
	return tab!;
}
