import { ERROR_CODES, FIELD_MEANINGS, isErrorCode, type ErrorCode } from '../service/error-codes';
import { readBody, type ErrorObject } from '../service/envelope';

export interface FieldExplanation {
	name: string;
	value: string;
	meaning: string;
}

export type Explanation =
	| { kind: 'success'; fields: FieldExplanation[]; wrapped: boolean }
	| {
			kind: 'error';
			code: ErrorCode;
			error: ErrorObject;
			wrapped: boolean;
			/** Server clock minus this machine's, in whole seconds, when the response tells the time. */
			clockOffsetSeconds: number | null;
	  }
	| { kind: 'unknown-code'; error: ErrorObject; message: string }
	| { kind: 'unreadable'; message: string };

export interface ExplainInput {
	status?: number;
	body: string;
	/** The response's Date header, if the browser could read it. */
	date?: string | null;
	/** When the response arrived, by this machine's clock. */
	receivedAtMs?: number;
}

/** A non-string field value as JSON; a value nested too deep to print says so instead. */
function showValue(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return '(a value nested too deeply to show)';
	}
}

// A server clock more than ten years off is a broken value, not a clock to re-sign with.
const MAX_CLOCK_OFFSET_MS = 10 * 365 * 24 * 3600 * 1000;

/** The server's time from the Date header, else from the body's now field (seconds). */
export function serverTimeMs(
	date: string | null | undefined,
	now: number | undefined
): number | null {
	const fromDate = date ? Date.parse(date) : NaN;
	if (!Number.isNaN(fromDate)) return fromDate;
	return now === undefined ? null : now * 1000;
}

/** What a response means for the client, in the terms of spec §7. */
export function explainResponse(input: ExplainInput): Explanation {
	const read = readBody(input.body);
	const status = input.status === undefined ? '' : ` (HTTP ${input.status})`;
	switch (read.kind) {
		case 'data': {
			if (input.status !== undefined && input.status >= 400) {
				return {
					kind: 'unreadable',
					message: `The status is ${input.status}, but the body holds no error object.`
				};
			}
			const fields = Object.entries(read.data).map(([name, value]) => ({
				name,
				value: typeof value === 'string' ? value : showValue(value),
				meaning: Object.hasOwn(FIELD_MEANINGS, name)
					? (FIELD_MEANINGS[name] ?? '')
					: 'Not a field of spec §2.'
			}));
			return { kind: 'success', fields, wrapped: read.wrapped };
		}
		case 'error': {
			if (!isErrorCode(read.error.error)) {
				return {
					kind: 'unknown-code',
					error: read.error,
					message: `"${read.error.error}" is not one of the seven error codes of spec §7${status}. Read its description, and ask the service's operator what it means.`
				};
			}
			const serverMs = serverTimeMs(input.date, read.now);
			const offsetMs =
				serverMs === null || input.receivedAtMs === undefined ? NaN : serverMs - input.receivedAtMs;
			const offset = Math.abs(offsetMs) <= MAX_CLOCK_OFFSET_MS ? Math.round(offsetMs / 1000) : null;
			return {
				kind: 'error',
				code: read.error.error,
				error: read.error,
				wrapped: read.wrapped,
				clockOffsetSeconds: offset
			};
		}
		case 'empty':
			return { kind: 'unreadable', message: `The response has no body${status}.` };
		case 'html':
			return {
				kind: 'unreadable',
				message: `The body is an HTML page${read.title ? ` ("${read.title}")` : ''}, not the service's JSON${status}: a gateway, proxy or load balancer answered, not the service.`
			};
		case 'not-json':
			return { kind: 'unreadable', message: `The body is not JSON${status}: "${read.excerpt}".` };
		case 'unexpected-json':
			return {
				kind: 'unreadable',
				message: `The body is JSON but neither a result nor an error object${status}: ${read.excerpt}`
			};
	}
}

export { ERROR_CODES };
