/**
 * An input the scheme cannot use. `field` names where it came from (a credential field, a header
 * parameter, the URL) so that a page can show the message beside the box the user typed into.
 */
export class MacInputError extends Error {
	override name = 'MacInputError';
	constructor(
		readonly field: string,
		message: string
	) {
		super(message);
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
function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Throws a MacInputError unless `value` is a string: the core's functions are also called from
 * JavaScript, where a missing field arrives as undefined, and must then say so, not fail inside.
 */
export function requireText(field: string, value: unknown): asserts value is string {
	if (typeof value === 'string') return;
	throw new MacInputError(
		field,
		value === undefined ? `${field} is missing.` : `${field} must be text, not ${kindOf(value)}.`
	);
}

/** Throws a MacInputError unless `value` is a Uint8Array. */
export function requireBytes(field: string, value: unknown): asserts value is Uint8Array {
	if (value instanceof Uint8Array) return;
	throw new MacInputError(
		field,
		value === undefined ? `${field} is missing.` : `${field} must be bytes, not ${kindOf(value)}.`
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
			? `${field} is missing.`
			: `${field} must be an object, not ${kindOf(value)}.`
	);
}
