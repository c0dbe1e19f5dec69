import { browser } from '$app/environment';
import { createTriageWorker } from '$lib/triage';
import { TriageDesk } from './desk.svelte';

// One desk per tab, outside any component: opening a verdict on /verify and coming back, or
// switching language, keeps the run and its verdicts, in memory only.
let desk: TriageDesk | null = null;

/** The tab's triage desk in the browser; on the server (prerendering) each render starts fresh. */
export function tabTriageDesk(): TriageDesk {
	const create = () => new TriageDesk(createTriageWorker);
	if (!browser) return create();
	// Under a root of its own: deriveds owned by a page that is gone would stop updating.
	if (!desk) $effect.root(() => void (desk = create()));
	return desk!;
}
