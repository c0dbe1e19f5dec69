/**
 * The error codes of spec §7, with the statuses the service's older documentation gives (the spec
 * does not show them). What each means and calls for is text, in messages/errors (read by
 * send/error-texts.ts, in the page's language).
 */
export const ERROR_CODES = {
	invalid_request: { status: 400 },
	invalid_time: { status: 400 },
	invalid_client: { status: 401 },
	access_denied: { status: 401 },
	forbidden: { status: 403 },
	not_found: { status: 404 },
	server_error: { status: 500 }
} as const satisfies Record<string, { status: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** HTTP's reason phrase of each status the service answers with, as the sandbox sends it. */
export const STATUS_TEXTS: Readonly<Record<number, string>> = {
	200: 'OK',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	500: 'Internal Server Error'
};

/** Spec §7 (server_error) and §8: at most 3 attempts, then stop and tell the user. */
export const MAX_ATTEMPTS = 3;

export function isErrorCode(code: unknown): code is ErrorCode {
	return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
