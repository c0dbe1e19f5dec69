/**
 * Every message the core throws, as a code and its parameters, and the English text of each. A page
 * in another language renders the same code and parameters with its own table of the same shape
 * (MacErrorMessages); the core keeps this English one so that it runs in plain Node, without Svelte,
 * a compile step or a locale.
 */
import { MacInputError, describeMacErrorsWith, requireObject, requireText } from './errors';

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

/** "a number", "an array", "null": a kind as the English messages name it. */
function englishKind(kind: ValueKind): string {
	if (kind === 'null') return 'null';
	return kind === 'array' || kind === 'object' ? `an ${kind}` : `a ${kind}`;
}

// Draft 0 of MAC access authentication, which some libraries still default to, signs another string.
const DRAFT_0 =
	' It looks like draft 0 of MAC authentication (a nonce of "age:random", no ts, a bodyhash): the service signs draft 1, with a ts (oauthlib: prepare_mac_header(…, draft=1)).';

/** The English text of every code: what `MacInputError.message` holds. */
export const MAC_ERROR_MESSAGES: MacErrorMessages = {
	missing: (p) => `${p.field} is missing.`,
	not_text: (p) => `${p.field} must be text, not ${englishKind(p.kind)}.`,
	not_bytes: (p) => `${p.field} must be bytes, not ${englishKind(p.kind)}.`,
	not_object: (p) => `${p.field} must be an object, not ${englishKind(p.kind)}.`,
	empty: (p) => `${p.field} is empty.`,
	not_base64: (p) => `${p.field} is not Base64 (A-Z, a-z, 0-9 and + / or - _).`,
	unsupported_hash: (p) => `Cannot sign with ${p.hash ?? 'that hash'}: SHA-1 or SHA-256 only.`,
	empty_key: () => 'mac_key is empty: paste the key from the SDK login result.',
	not_json: () => 'This is not JSON: paste the login result object, {"kid": …, "mac_key": …}.',
	not_json_object: () => 'Expected a JSON object with kid, mac_key and the other login fields.',
	credential_not_string: (p) =>
		`${p.field} must be a string, not ${p.kind === 'array' ? 'an array' : p.kind}.`,
	unsupported_algorithm: (p) =>
		`mac_algorithm "${p.algorithm}" is not supported: the service signs with ${p.supported}.`,
	bad_scopes: () => 'scopeSet must be a list of strings such as ["basic_info"].',
	credential: (p) => p.issues.map((issue) => macErrorMessage(issue.code, issue.params)).join(' '),
	url_empty: () => 'The URL is empty.',
	url_no_scheme: (p) => `"${p.url}" has no scheme: start it with https:// (or http://).`,
	url_invalid: (p) => `"${p.url}" is not a valid URL.`,
	url_scheme: (p) => `Only https:// and http:// URLs can be signed, not ${p.protocol}//.`,
	url_credentials: () =>
		'The URL carries a user name or password; remove it (browsers refuse such URLs).',
	url_no_host: () => 'The URL has no host.',
	bad_time: () => 'The time must be milliseconds since 1970, a number of 0 or more.',
	nonce_kind: () => 'A nonce is drawn as base64 or letters.',
	header_quote: (p) => `${p.field} contains ${p.char}, which a quoted header value cannot carry.`,
	header_control: (p) => `${p.field} contains a control character (${p.codePoint}); remove it.`,
	header_non_ascii: (p) => `${p.field} contains "${p.char}": header values must be ASCII.`,
	header_empty: () => 'The header is empty.',
	header_no_scheme: () => 'Expected "MAC" followed by id, ts, nonce and mac.',
	header_scheme: (p) => `The scheme is "${p.scheme}", not MAC.`,
	header_unreadable: (p) => `Cannot read the header at "${p.at}": expected name="value".`,
	header_unknown_param: (p) =>
		`Unknown parameter "${p.name}": a MAC header has id, ts, nonce, mac and an optional ext.${p.draft0 ? DRAFT_0 : ''}`,
	header_repeated: (p) => `"${p.name}" appears twice.`,
	header_missing: (p) => `Missing ${p.names.join(', ')}.${p.draft0 ? DRAFT_0 : ''}`,
	line_missing: (p) => `The ${p.key} line is missing.`,
	line_not_text: (p) => `The ${p.key} line must be text.`,
	port_not_text: () => 'The port line must be text or a whole number.',
	unknown_code: (p) => `"${p.code}" is not the code of a message.`,
	no_message: (p) => `The messages have no text for "${p.code}".`,
	params_mismatch: (p) => `The parameters do not fit the message "${p.code}".`,
	untranslated: (p) => p.message
};

/**
 * The text of a code with its parameters, in English or in the language of `messages`. Throws a
 * MacInputError (the one class the core throws) for a code not in the table or parameters that do
 * not fit it.
 */
export function macErrorMessage<C extends MacErrorCode>(
	code: C,
	params: MacErrorParamsMap[C],
	messages: MacErrorMessages = MAC_ERROR_MESSAGES
): string {
	requireText('code', code);
	if (!Object.hasOwn(MAC_ERROR_MESSAGES, code))
		throw new MacInputError('code', { code: 'unknown_code', params: { code } });
	requireObject('params', params);
	requireObject('messages', messages);
	const render: unknown = messages[code];
	if (typeof render !== 'function')
		throw new MacInputError('messages', { code: 'no_message', params: { code } });
	let text: unknown;
	try {
		text = (render as (params: MacErrorParamsMap[C]) => unknown)(params);
	} catch {
		throw new MacInputError('params', { code: 'params_mismatch', params: { code } });
	}
	if (typeof text !== 'string')
		throw new MacInputError('params', { code: 'params_mismatch', params: { code } });
	return text;
}

// Loading this table makes every MacInputError's message English (see errors.ts).
describeMacErrorsWith((detail) => macErrorMessage(detail.code, detail.params as never));
