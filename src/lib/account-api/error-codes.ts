/**
 * The error codes of spec §7, with the statuses the service's older documentation gives. What each
 * means and calls for is text, in messages/errors (send/error-texts.ts reads it).
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

export function isErrorCode(code: unknown): code is ErrorCode {
	return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
