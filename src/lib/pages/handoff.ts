// What one page hands to another in the same tab: held in this module's memory, never in the URL
// or in storage, as it carries keys (a mac_key, `kid mac_key` lines). Each is read once. Only the
// pages hand over: a component asks its page through a callback prop (onverify, ontriage).
import { goto } from '$app/navigation';
import { localHref } from '$lib/i18n/locale';

export interface Handoffs {
	/** A signed request (a header, curl, a raw request…) and the mac_key to check it with. */
	'/verify': { signedRequest: string; macKey: string };
	/** The requests (a HAR, NDJSON or log lines) and the keys: `kid mac_key` lines, or one mac_key. */
	'/triage': { requests: string; keys: string };
}

type Page = keyof Handoffs;

const pending: { [P in Page]?: Handoffs[P] } = {};

/** Leaves `handed` for the page at `page` to take when it opens (a link then goes there). */
export function handOff<P extends Page>(page: P, handed: Handoffs[P]): void {
	pending[page] = handed;
}

/** Leaves `handed` for the page at `page` and opens it, in the language of the page on screen. */
export function handOver<P extends Page>(page: P, handed: Handoffs[P]): void {
	handOff(page, handed);
	// localHref resolves the path (resolve() of $app/paths) in the page's language.
	// eslint-disable-next-line svelte/no-navigation-without-resolve
	void goto(localHref(page));
}

/** What was handed to the page at `page`, once: a second call (or a reload) gets nothing. */
export function takeHandoff<P extends Page>(page: P): Handoffs[P] | null {
	const handed = pending[page] ?? null;
	delete pending[page];
	return handed as Handoffs[P] | null;
}
