/**
 * The English text of every message the core throws (its codes and parameters: error-codes.ts). A
 * page in another language renders the same code and parameters with its own table of the same
 * shape (MacErrorMessages); the core keeps this English one so that it runs in plain Node, without Svelte,
 * a compile step or a locale.
 */
import type { MacErrorCode, MacErrorMessages, MacErrorParamsMap, ValueKind } from './error-codes';
import { MacInputError, describeMacErrorsWith, requireObject, requireText } from './errors';

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
