// Reading a pasted SDK login result into the playground, and what the page says about it: loaded
// with the first use of the paste box (SdkPaste.svelte), not with the page.
import {
	CredentialError,
	MacInputError,
	parseCredential,
	pastedJson,
	type Credential,
	type PastedJson
} from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';
import type { Playground } from '../playground.svelte';

/** The text around a pasted JSON object that was not read: short, and never with the mac_key. */
export interface IgnoredText {
	before: string | null;
	after: string | null;
}

/** What pasting an SDK login result did. */
export interface CredentialPasteResult {
	/** The fields filled, in the spec's names. */
	filled: string[];
	/** What could not be used, or null. */
	problem: MacInputError | null;
	/** The text around the JSON object that was not read; null when there was none. */
	ignored: IgnoredText | null;
}

/** A piece of ignored text: short, and never with the mac_key in it. */
function shown(text: string, secret: string | undefined): string | null {
	if (text === '') return null;
	const safe = secret ? text.split(secret).join('•••') : text;
	return safe.length > 90 ? `${safe.slice(0, 90)}…` : safe;
}

function ignoredPart(pasted: PastedJson, secret: string | undefined): IgnoredText | null {
	const ignored = { before: shown(pasted.before, secret), after: shown(pasted.after, secret) };
	return ignored.before === null && ignored.after === null ? null : ignored;
}

/**
 * Fills the playground's credential from a pasted SDK login result, found inside a log line if
 * need be. Fields that could be read are filled even when others are bad; the result says what
 * was filled, what could not be used and what text around the JSON was ignored.
 */
export function pasteCredential(playground: Playground, text: string): CredentialPasteResult {
	let credential: Partial<Credential>;
	let problem: MacInputError | null = null;
	try {
		credential = parseCredential(text);
	} catch (error) {
		if (!(error instanceof CredentialError)) {
			const thrown =
				error instanceof MacInputError
					? error
					: new MacInputError('credential', error instanceof Error ? error.message : String(error));
			return { filled: [], problem: thrown, ignored: null };
		}
		credential = error.partial;
		problem = error;
	}
	const filled = playground.fillCredential(credential);
	return { filled, problem, ignored: ignoredPart(pastedJson(text), credential.mac_key) };
}

/** Sentences one after another: a space between them in English, none in Chinese. */
function sentences(parts: readonly string[]): string {
	return parts.join(m.frame_locale() === 'en' ? ' ' : '');
}

/** "kid, mac_key and scopes": names the page lists, in its language. */
function listText(names: readonly string[]): string {
	if (m.frame_locale() !== 'en') return names.join('、');
	return names.length < 2
		? names.join('')
		: `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

export function ignoredText(ignored: IgnoredText): string {
	const { before, after } = ignored;
	if (before !== null && after !== null) return m.playground_ignored_both({ before, after });
	if (before !== null) return m.playground_ignored_before({ before });
	return m.playground_ignored_after({ after: after ?? '' });
}

/**
 * What the paste box says about a paste. `emptied`: the mac_key was read, and the box emptied of
 * it; `problem`: the text of `pasted.problem`, which the box gets in its language.
 */
export function pasteNote(
	pasted: CredentialPasteResult,
	emptied: boolean,
	problem: string | null
): string {
	const { filled, ignored } = pasted;
	const parts: string[] = [];
	if (filled.length > 0) parts.push(m.playground_paste_filled({ fields: listText(filled) }));
	if (ignored) parts.push(ignoredText(ignored));
	if (problem) parts.push(problem);
	if (emptied) parts.push(m.playground_paste_emptied());
	return sentences(parts);
}
