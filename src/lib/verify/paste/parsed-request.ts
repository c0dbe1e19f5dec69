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
	/** Plain-English lines saying what was taken from the paste and what was assumed. */
	understood: string[];
}

/** Throws the MacInputError every reader fails with: the message goes under the paste box. */
export function fail(message: string): never {
	throw new MacInputError(SIGNED_REQUEST_FIELD, message);
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
