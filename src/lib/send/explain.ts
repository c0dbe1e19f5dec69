import {
	ERROR_CODES,
	FIELD_MEANINGS,
	isErrorCode,
	type ErrorCode
} from '../account-api/error-codes';
import { isTimestamp } from '../mac/ts-nonce';
import { readBody, type ErrorObject } from '../account-api/envelope';

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
			/** The server's time when it answered (ms), from the Date header or the body's now. */
			serverTimeMs: number | null;
			/**
			 * Server clock minus this machine's, in whole seconds: null unless the response's time shows a
			 * difference beyond what its whole seconds and the round trip leave open.
			 */
			clockOffsetSeconds: number | null;
			/** The ts sent minus the server's time, in whole seconds, when both are known. */
			tsOffsetSeconds: number | null;
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
	/** When the request left, by this machine's clock; the arrival time if not given. */
	sentAtMs?: number;
	/** The ts the request carried, if it carried one. */
	ts?: string | null;
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
	const ms = Number.isNaN(fromDate) ? (now === undefined ? NaN : now * 1000) : fromDate;
	// Beyond what a Date can hold (1e999 is Infinity) is no time at all.
	return Number.isNaN(new Date(ms).getTime()) ? null : ms;
}

/**
 * Server clock minus this machine's, in whole seconds, or null when no difference was measured.
 * The server stamps whole seconds (Date and now alike), so its clock read somewhere in
 * [server, server + 1 s) at a moment between sending and arrival by this machine's clock: a
 * difference is measured only when that whole range lies on one side of zero.
 */
export function measuredClockOffset(
	serverMs: number,
	sentAtMs: number,
	receivedAtMs: number
): number | null {
	const lowest = serverMs - Math.max(sentAtMs, receivedAtMs);
	const highest = serverMs + 1000 - Math.min(sentAtMs, receivedAtMs);
	if (lowest <= 0 && highest >= 0) return null;
	return Math.round((lowest + highest) / 2000);
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
			const received = input.receivedAtMs;
			const stamped = serverTimeMs(input.date, read.now);
			const serverMs =
				stamped !== null &&
				(received === undefined || Math.abs(stamped - received) <= MAX_CLOCK_OFFSET_MS)
					? stamped
					: null;
			const ts = input.ts ?? null;
			return {
				kind: 'error',
				code: read.error.error,
				error: read.error,
				wrapped: read.wrapped,
				serverTimeMs: serverMs,
				clockOffsetSeconds:
					serverMs === null || received === undefined
						? null
						: measuredClockOffset(serverMs, input.sentAtMs ?? received, received),
				tsOffsetSeconds:
					serverMs === null || ts === null || !isTimestamp(ts)
						? null
						: Number(ts) - Math.floor(serverMs / 1000)
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
