/**
 * Every message the core throws, as a code and its parameters, in no language: the types that
 * errors.ts throws with and that each table of messages (error-messages.ts in English, a page's in
 * its own) must cover. Apart from both, so that neither imports the other.
 */

/** What a value of the wrong type is: `typeof`'s names, with null and arrays told apart. */
export type ValueKind =
	| 'null'
	| 'array'
	| 'object'
	| 'string'
	| 'number'
	| 'bigint'
	| 'boolean'
	| 'symbol'
	| 'undefined'
	| 'function';

/** The codes a credential field's issue carries (see CredentialError). */
export type CredentialIssueCode =
	'missing' | 'credential_not_string' | 'empty' | 'unsupported_algorithm' | 'bad_scopes';

/** The parameters of each code. A key added here must be given an English text in MAC_ERROR_MESSAGES. */
export interface MacErrorParamsMap {
	/** A text, bytes or object argument left out. */
	missing: { field: string };
	not_text: { field: string; kind: ValueKind };
	not_bytes: { field: string; kind: ValueKind };
	not_object: { field: string; kind: ValueKind };
	/** A text that must not be empty (a credential's kid or mac_key, a header value). */
	empty: { field: string };
	not_base64: { field: string };
	/** `hash` is null when it was not even text. */
	unsupported_hash: { hash: string | null };
	empty_key: Record<string, never>;
	not_json: Record<string, never>;
	not_json_object: Record<string, never>;
	credential_not_string: { field: string; kind: ValueKind };
	unsupported_algorithm: { algorithm: string; supported: string };
	bad_scopes: Record<string, never>;
	/** Every issue of a pasted credential, in the order of its fields. */
	credential: { issues: readonly MacErrorDetail<CredentialIssueCode>[] };
	url_empty: Record<string, never>;
	url_no_scheme: { url: string };
	url_invalid: { url: string };
	/** `protocol` as URL writes it, with its colon: `ftp:`. */
	url_scheme: { protocol: string };
	url_credentials: Record<string, never>;
	url_no_host: Record<string, never>;
	bad_time: Record<string, never>;
	nonce_kind: Record<string, never>;
	header_quote: { field: string; char: string };
	/** `codePoint` written as U+000A. */
	header_control: { field: string; codePoint: string };
	header_non_ascii: { field: string; char: string };
	header_empty: Record<string, never>;
	header_no_scheme: Record<string, never>;
	header_scheme: { scheme: string };
	/** `at`: the next characters of the header from where reading stopped. */
	header_unreadable: { at: string };
	/** `draft0`: the header looks like draft 0 of MAC authentication. */
	header_unknown_param: { name: string; draft0: boolean };
	header_repeated: { name: string };
	header_missing: { names: readonly string[]; draft0: boolean };
	line_missing: { key: string };
	line_not_text: { key: string };
	port_not_text: Record<string, never>;
	/** macErrorMessage was given a code that is not in the table. */
	unknown_code: { code: string };
	/** A table given to macErrorMessage has no function for the code. */
	no_message: { code: string };
	/** The parameters given to macErrorMessage do not fit the code. */
	params_mismatch: { code: string };
	/** A message written outside the core, as text only: a page shows it as it is. */
	untranslated: { message: string };
}

export type MacErrorCode = keyof MacErrorParamsMap;

export type MacErrorParams<C extends MacErrorCode = MacErrorCode> = MacErrorParamsMap[C];

/** A code with its parameters: a union discriminated by `code`, so a switch narrows `params`. */
export type MacErrorDetail<C extends MacErrorCode = MacErrorCode> = {
	[K in C]: { code: K; params: MacErrorParamsMap[K] };
}[C];

/** A table of messages in one language: a function for every code. */
export type MacErrorMessages = {
	readonly [C in MacErrorCode]: (params: MacErrorParamsMap[C]) => string;
};
