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
