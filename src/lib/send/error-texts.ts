// What each error code of spec §7 means, what it calls for, and what the signing page does about
// it, in the page's language.
import { m } from '$lib/paraglide/messages.js';
import type { ErrorCode } from '$lib/account-api/error-codes';

export interface ErrorTexts {
	meaning: string;
	/** The behaviour spec §7 requires of the client. */
	behaviour: string;
	/** What the signing page does when Send gets this error. */
	pageAction: string;
}

/**
 * The texts of `code`; `signatureMismatch` for an access_denied whose answer says the signature does
 * not match, which calls for checking the key, not for signing the user out.
 */
export function errorTexts(code: ErrorCode, signatureMismatch = false): ErrorTexts {
	if (code === 'access_denied' && signatureMismatch)
		return {
			meaning: m.errors_access_denied_signature_meaning(),
			behaviour: m.errors_access_denied_signature_behaviour(),
			pageAction: m.errors_access_denied_signature_page_action()
		};
	switch (code) {
		case 'invalid_request':
			return {
				meaning: m.errors_invalid_request_meaning(),
				behaviour: m.errors_invalid_request_behaviour(),
				pageAction: m.errors_invalid_request_page_action()
			};
		case 'invalid_time':
			return {
				meaning: m.errors_invalid_time_meaning(),
				behaviour: m.errors_invalid_time_behaviour(),
				pageAction: m.errors_invalid_time_page_action()
			};
		case 'invalid_client':
			return {
				meaning: m.errors_invalid_client_meaning(),
				behaviour: m.errors_invalid_client_behaviour(),
				pageAction: m.errors_invalid_client_page_action()
			};
		case 'access_denied':
			return {
				meaning: m.errors_access_denied_meaning(),
				behaviour: m.errors_access_denied_behaviour(),
				pageAction: m.errors_access_denied_page_action()
			};
		case 'forbidden':
			return {
				meaning: m.errors_forbidden_meaning(),
				behaviour: m.errors_forbidden_behaviour(),
				pageAction: m.errors_forbidden_page_action()
			};
		case 'not_found':
			return {
				meaning: m.errors_not_found_meaning(),
				behaviour: m.errors_not_found_behaviour(),
				pageAction: m.errors_not_found_page_action()
			};
		case 'server_error':
			return {
				meaning: m.errors_server_error_meaning(),
				behaviour: m.errors_server_error_behaviour(),
				pageAction: m.errors_server_error_page_action()
			};
	}
}
