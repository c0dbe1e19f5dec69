// Requests and keys handed to /triage from another page (the verify page's list of several
// requests), in this tab's memory only: never in the URL or in storage, as the keys are secrets.

export interface TriageHandoff {
	/** The pasted text holding the requests (a HAR, NDJSON or log lines). */
	requests: string;
	/** `kid mac_key` lines, or a single mac_key. */
	keys: string;
}

let pending: TriageHandoff | null = null;

/** Leaves requests and keys for the triage page to take when it opens. */
export function handOffToTriage(handoff: TriageHandoff): void {
	pending = handoff;
}

/** What was handed over, once: a second call (or a reload) gets nothing. */
export function takeTriageHandoff(): TriageHandoff | null {
	const handoff = pending;
	pending = null;
	return handoff;
}
