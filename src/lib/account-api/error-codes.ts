/** The error codes of spec §7, with the statuses the service's older documentation gives. */
export const ERROR_CODES = {
	invalid_request: {
		status: 400,
		meaning:
			'A required parameter is missing, a parameter or value is unsupported, or the format is wrong.',
		behaviour: 'Correct the request.',
		pageAction: 'Shows what was wrong with this request; fix it and send again.'
	},
	invalid_time: {
		status: 400,
		meaning: 'The ts of the MAC token is not acceptable.',
		behaviour: 'Obtain the server time and rebuild the token.',
		pageAction:
			"Works out the clock difference from the response's Date (or its now field) and re-signs with the server's time in one click."
	},
	invalid_client: {
		status: 401,
		meaning: 'The client_id parameter is invalid.',
		behaviour: 'Correct client_id.',
		pageAction: 'Points you to the client_id field.'
	},
	access_denied: {
		status: 401,
		meaning:
			'The authorization server rejects the request; occurs when a token is used to request user resources.',
		behaviour: 'Sign the user out locally and direct the user to log in again.',
		pageAction: 'Signs out locally (clears the credential) and lets you log in again.'
	},
	forbidden: {
		status: 403,
		meaning: 'The user has no permission for this action.',
		behaviour: 'Re-authentication does not help; do not resubmit the request.',
		pageAction: 'Blocks sending the same request again until you change it.'
	},
	not_found: {
		status: 404,
		meaning: 'The requested resource does not exist.',
		behaviour: 'Do not repeat the request with the same parameters.',
		pageAction: 'Blocks sending the same request again until you change it.'
	},
	server_error: {
		status: 500,
		meaning: 'The server is in an abnormal condition.',
		behaviour:
			'May retry after a short wait, with an upper bound of 3 attempts recommended; then stop and tell the user.',
		pageAction:
			'Retries after a short wait, at most 3 attempts in all, shown as a timeline; then stops and says so.'
	}
} as const satisfies Record<
	string,
	{ status: number; meaning: string; behaviour: string; pageAction: string }
>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: unknown): code is ErrorCode {
	return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The §2 fields of a successful response, with their meanings. */
export const FIELD_MEANINGS: Record<string, string> = {
	openid:
		'Unique identifier of the user within one application: differs per application for the same user, always the same for the same application and user.',
	unionid:
		"Unique identifier of the user within one vendor: the same across all of one vendor's applications, different between vendors.",
	name: 'User name.',
	avatar: "Address of the user's avatar image."
};
