import type { Text } from '$lib/i18n/text';
import { MacInputError } from '$lib/mac';

/** Every error about a pasted request names this field, the box the support engineer pasted into. */
export const SIGNED_REQUEST_FIELD = 'Signed request';

export interface HeaderField {
	name: string;
	value: string;
}

/** What a reader of a pasted request (curl, fetch, HAR, PowerShell) gives back for the signing inputs. */
export interface ParsedRequest {
	/** The URL requested, with a scheme; undefined when the paste names none. */
	url: string | undefined;
	method: string;
	headers: HeaderField[];
	/** Lines saying what was taken from the paste and what was assumed. */
	understood: Text[];
}

/**
 * What every reader fails with: a MacInputError about the paste box whose `text` (a paste_*
 * message) the page renders in its language; its `message` is the message's key.
 */
export class PasteError extends MacInputError {
	constructor(readonly text: Text) {
		super(SIGNED_REQUEST_FIELD, { code: 'untranslated', params: { message: text.key } });
	}
}

/** Throws the PasteError every reader fails with: the message goes under the paste box. */
export function fail(text: Text): never {
	throw new PasteError(text);
}

/** A value quoted for a message: short, so that a hostile paste cannot flood the page. */
export function shown(text: string, max = 40): string {
	return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

export type JsonObject = Record<string, unknown>;

/** A JSON object, not null and not an array. */
export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own members only: a name a paste leaves out must not be found on Object.prototype instead. */
export function member(object: JsonObject, name: string): unknown {
	return Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
}
