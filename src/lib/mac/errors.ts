import type { MacErrorCode, MacErrorDetail, MacErrorParams, ValueKind } from './error-codes';

/**
 * What a MacInputError's `message` says: the English text of its code, once error-messages.ts (the
 * English table, which installs it) has been loaded. Every Node user has it: the core's index
 * exports that table. A page renders errors from their code and parameters in its own language
 * and does not need to load it; until it is loaded, a message is the code with its parameters.
 */
let describe = (detail: MacErrorDetail): string =>
	detail.code === 'untranslated'
		? detail.params.message
		: `${detail.code} ${JSON.stringify(detail.params)}`;

let described = false;

/** Makes `describer` the text of every MacInputError's message (see error-messages.ts). */
export function describeMacErrorsWith(describer: (detail: MacErrorDetail) => string): void {
	describe = describer;
	described = true;
}

/** Whether a MacInputError's message is English text yet (always in Node; see describeMacError). */
export function macErrorsInEnglish(): boolean {
	return described;
}

/** A code with its parameters as the core describes it: English where the English table is loaded. */
export function describeMacError(detail: MacErrorDetail): string {
	return describe(detail);
}

/**
 * An input the scheme cannot use. `field` names where it came from (a credential field, a header
 * parameter, the URL) so that a page can show the message beside the box the user typed into.
 * `code` and `params` say what is wrong in no language: a page renders them in its own (see
 * MacErrorMessages); `message` is their English text (see describeMacError). A message given as
 * text alone (from outside the core) has the code `untranslated`.
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
		super();
		this.code = code;
		this.params = params;
	}

	/** The code with its parameters, as a union a switch on `code` narrows. */
	get detail(): MacErrorDetail {
		return { code: this.code, params: this.params } as MacErrorDetail;
	}
}

// Read when asked for (a stack trace too is written when first read), so an error made before the
// English table loaded says it in English afterwards.
Object.defineProperty(MacInputError.prototype, 'message', {
	configurable: true,
	get(this: MacInputError): string {
		return describeMacError(this.detail);
	}
});

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
