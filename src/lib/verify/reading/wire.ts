// A reading crossing between the worker and the page. postMessage copies plain data only: the
// core's MacInputError (a reader's PasteError too) would arrive as a bare Error, without its code,
// parameters, field or Text. So each one is written as plain data on the way out and made again on
// the way in; everything else (requests, Texts, times) is plain data already. One walk each way,
// linear in the reading's size.
import { MacInputError, type MacErrorDetail } from '$lib/mac';
import type { Text } from '$lib/i18n/text';
import { PasteError } from '$lib/read/parsed-request';

/** A MacInputError as plain data; `text` for a PasteError. */
interface WiredError {
	macInputError: { field: string; detail: MacErrorDetail; text?: Text };
}

function isWiredError(value: object): value is WiredError {
	return Object.keys(value).length === 1 && 'macInputError' in value;
}

/** `value` with every MacInputError in it written as plain data. */
export function toWire(value: unknown): unknown {
	if (value instanceof PasteError)
		return {
			macInputError: { field: value.field, detail: value.detail, text: toWire(value.text) as Text }
		};
	if (value instanceof MacInputError)
		return { macInputError: { field: value.field, detail: value.detail } };
	if (Array.isArray(value)) return value.map(toWire);
	if (typeof value === 'object' && value !== null)
		return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, toWire(item)]));
	return value;
}

/** What toWire wrote, with each MacInputError made again. */
export function fromWire<T>(value: unknown): T {
	return revive(value) as T;
}

function revive(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(revive);
	if (typeof value !== 'object' || value === null) return value;
	if (isWiredError(value)) {
		const { field, detail, text } = value.macInputError;
		return text ? new PasteError(revive(text) as Text) : new MacInputError(field, detail);
	}
	return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, revive(item)]));
}
