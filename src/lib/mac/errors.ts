import {
	macErrorMessage,
	type MacErrorCode,
	type MacErrorDetail,
	type MacErrorParams,
	type ValueKind
} from './error-messages';

/**
 * An input the scheme cannot use. `field` names where it came from (a credential field, a header
 * parameter, the URL) so that a page can show the message beside the box the user typed into.
 * `code` and `params` say what is wrong in no language: a page renders them in its own (see
 * MacErrorMessages); `message` is their English text. A message given as text alone (from outside
 * the core) has the code `untranslated`.
 */
export class MacInputError extends Error {
	override name = 'MacInputError';
	readonly code: MacErrorCode;
	readonly params: MacErrorParams;
	constructor(
		readonly field: string,
		detail: MacErrorDetail | string
	) {
		const { code, params }: MacErrorDetail =
			typeof detail === 'string' ? { code: 'untranslated', params: { message: detail } } : detail;
		super(macErrorMessage(code, params));
		this.code = code;
		this.params = params;
	}

	/** The code with its parameters, as a union a switch on `code` narrows. */
	get detail(): MacErrorDetail {
		return { code: this.code, params: this.params } as MacErrorDetail;
	}
}

/** A value or the message of a thrown MacInputError, so callers can render either without try/catch. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: MacInputError };

export function attempt<T>(compute: () => T): Outcome<T> {
	try {
		return { ok: true, value: compute() };
	} catch (error) {
		if (error instanceof MacInputError) return { ok: false, error };
		throw error;
	}
}

/** Names what a value is, for a message about a value of the wrong type. */
export function kindOf(value: unknown): ValueKind {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

/**
 * Throws a MacInputError unless `value` is a string: the core's functions are also called from
 * JavaScript, where a missing field arrives as undefined, and must then say so, not fail inside.
 */
export function requireText(field: string, value: unknown): asserts value is string {
	if (typeof value === 'string') return;
	throw new MacInputError(
		field,
		value === undefined
			? { code: 'missing', params: { field } }
			: { code: 'not_text', params: { field, kind: kindOf(value) } }
	);
}

/** Throws a MacInputError unless `value` is a Uint8Array. */
export function requireBytes(field: string, value: unknown): asserts value is Uint8Array {
	if (value instanceof Uint8Array) return;
	throw new MacInputError(
		field,
		value === undefined
			? { code: 'missing', params: { field } }
			: { code: 'not_bytes', params: { field, kind: kindOf(value) } }
	);
}

/** Throws a MacInputError unless `value` is an object whose fields can be read. */
export function requireObject(
	field: string,
	value: unknown
): asserts value is Record<string, unknown> {
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
	throw new MacInputError(
		field,
		value === undefined
			? { code: 'missing', params: { field } }
			: { code: 'not_object', params: { field, kind: kindOf(value) } }
	);
}
