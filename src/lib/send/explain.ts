import { ERROR_CODES, isErrorCode, type ErrorCode } from '$lib/account-api/error-codes';
import { text, type Text } from '$lib/i18n/text';
import { isTimestamp } from '$lib/mac/ts-nonce';
import { readBody, type ErrorObject } from '$lib/account-api/envelope';

export interface FieldExplanation {
	name: string;
	value: string;
	meaning: Text;
}

/** The §2 fields of a successful response, with their meanings. */
const FIELD_MEANINGS: Readonly<Record<string, Text>> = {
	openid: text('status_field_openid'),
	unionid: text('status_field_unionid'),
	name: text('status_field_name'),
	avatar: text('status_field_avatar')
};

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
	| { kind: 'unknown-code'; error: ErrorObject; message: Text }
	| { kind: 'unreadable'; message: Text };

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
	const status = input.status;
	switch (read.kind) {
		case 'data': {
			if (input.status !== undefined && input.status >= 400) {
				return {
					kind: 'unreadable',
					message: text('status_no_error_object', { status: input.status })
				};
			}
			const fields = Object.entries(read.data).map(([name, value]) => ({
				name,
				value: typeof value === 'string' ? value : showValue(value),
				meaning:
					(Object.hasOwn(FIELD_MEANINGS, name) ? FIELD_MEANINGS[name] : undefined) ??
					text('status_field_unknown')
			}));
			return { kind: 'success', fields, wrapped: read.wrapped };
		}
		case 'error': {
			if (!isErrorCode(read.error.error)) {
				return {
					kind: 'unknown-code',
					error: read.error,
					message:
						status === undefined
							? text('status_unknown_code', { code: read.error.error })
							: text('status_unknown_code_http', { code: read.error.error, status })
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
			return {
				kind: 'unreadable',
				message:
					status === undefined
						? text('status_body_empty')
						: text('status_body_empty_http', { status })
			};
		case 'html': {
			const title = read.title;
			const message =
				title === null
					? status === undefined
						? text('status_body_html')
						: text('status_body_html_http', { status })
					: status === undefined
						? text('status_body_html_titled', { title })
						: text('status_body_html_titled_http', { title, status });
			return { kind: 'unreadable', message };
		}
		case 'not-json':
			return {
				kind: 'unreadable',
				message:
					status === undefined
						? text('status_body_not_json', { excerpt: read.excerpt })
						: text('status_body_not_json_http', { excerpt: read.excerpt, status })
			};
		case 'unexpected-json':
			return {
				kind: 'unreadable',
				message:
					status === undefined
						? text('status_body_unexpected', { excerpt: read.excerpt })
						: text('status_body_unexpected_http', { excerpt: read.excerpt, status })
			};
	}
}

export { ERROR_CODES };
