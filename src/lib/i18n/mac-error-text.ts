// The core's errors in the page's language. The core (src/lib/mac) throws a MacInputError with a
// code and its parameters besides the English message; this text module is the table of messages
// (messages/core) that renders them in the page's language.
import { m } from '$lib/paraglide/messages.js';
import {
	MAC_ERROR_MESSAGES,
	macErrorMessage,
	type MacErrorMessages,
	type MacInputError,
	type MacErrorDetail,
	type ValueKind
} from '$lib/mac';

/** "a number", "an array": a kind as a sentence names it. */
function kindText(kind: ValueKind): string {
	switch (kind) {
		case 'null':
			return m.core_kind_null();
		case 'array':
			return m.core_kind_array();
		case 'object':
			return m.core_kind_object();
		case 'string':
			return m.core_kind_string();
		case 'number':
			return m.core_kind_number();
		case 'bigint':
			return m.core_kind_bigint();
		case 'boolean':
			return m.core_kind_boolean();
		case 'symbol':
			return m.core_kind_symbol();
		case 'undefined':
			return m.core_kind_undefined();
		case 'function':
			return m.core_kind_function();
	}
}

// A pasted credential's field of the wrong JSON type: English names the type as JSON has it.
function jsonKindText(kind: ValueKind): string {
	return kind === 'array' || m.frame_locale() !== 'en' ? kindText(kind) : kind;
}

const draft0 = (on: boolean) => (on ? m.core_draft0() : '');

/** Every code of the core in this module's language (English: the core's own text, unit-tested). */
export const MAC_ERROR_TEXTS: MacErrorMessages = {
	missing: (p) => m.core_missing({ field: p.field }),
	not_text: (p) => m.core_not_text({ field: p.field, kind: kindText(p.kind) }),
	not_bytes: (p) => m.core_not_bytes({ field: p.field, kind: kindText(p.kind) }),
	not_object: (p) => m.core_not_object({ field: p.field, kind: kindText(p.kind) }),
	empty: (p) => m.core_empty({ field: p.field }),
	not_base64: (p) => m.core_not_base64({ field: p.field }),
	unsupported_hash: (p) => m.core_unsupported_hash({ hash: p.hash ?? m.core_that_hash() }),
	empty_key: () => m.core_empty_key(),
	not_json: () => m.core_not_json({ example: '{"kid": …, "mac_key": …}' }),
	not_json_object: () => m.core_not_json_object(),
	credential_not_string: (p) =>
		m.core_credential_not_string({ field: p.field, kind: jsonKindText(p.kind) }),
	unsupported_algorithm: (p) =>
		m.core_unsupported_algorithm({ algorithm: p.algorithm, supported: p.supported }),
	bad_scopes: () => m.core_bad_scopes(),
	credential: (p) =>
		p.issues
			.map((issue) => macErrorMessage(issue.code, issue.params, MAC_ERROR_TEXTS))
			.join(m.frame_locale() === 'en' ? ' ' : ''),
	url_empty: () => m.core_url_empty(),
	url_no_scheme: (p) => m.core_url_no_scheme({ url: p.url }),
	url_invalid: (p) => m.core_url_invalid({ url: p.url }),
	url_scheme: (p) => m.core_url_scheme({ protocol: p.protocol }),
	url_credentials: () => m.core_url_credentials(),
	url_no_host: () => m.core_url_no_host(),
	bad_time: () => m.core_bad_time(),
	nonce_kind: () => m.core_nonce_kind(),
	header_quote: (p) => m.core_header_quote({ field: p.field, char: p.char }),
	header_control: (p) => m.core_header_control({ field: p.field, codePoint: p.codePoint }),
	header_non_ascii: (p) => m.core_header_non_ascii({ field: p.field, char: p.char }),
	header_empty: () => m.core_header_empty(),
	header_no_scheme: () => m.core_header_no_scheme(),
	header_scheme: (p) => m.core_header_scheme({ scheme: p.scheme }),
	header_unreadable: (p) => m.core_header_unreadable({ at: p.at }),
	header_unknown_param: (p) =>
		m.core_header_unknown_param({ name: p.name, draft0: draft0(p.draft0) }),
	header_repeated: (p) => m.core_header_repeated({ name: p.name }),
	header_missing: (p) =>
		m.core_header_missing({ names: p.names.join(m.core_separator()), draft0: draft0(p.draft0) }),
	line_missing: (p) => m.core_line_missing({ key: p.key }),
	line_not_text: (p) => m.core_line_not_text({ key: p.key }),
	port_not_text: () => m.core_port_not_text(),
	unknown_code: (p) => m.core_unknown_code({ code: p.code }),
	no_message: (p) => m.core_no_message({ code: p.code }),
	params_mismatch: (p) => m.core_params_mismatch({ code: p.code }),
	untranslated: (p) => m.core_untranslated({ message: p.message })
};

/**
 * A code and its parameters in this module's language. English is the core's own table (the same
 * text, by a unit test): an English page loads it here, with its first error, and not MAC_ERROR_TEXTS.
 */
export function macDetailText(detail: MacErrorDetail): string {
	if (m.frame_locale() === 'en')
		return macErrorMessage(detail.code, detail.params as never, MAC_ERROR_MESSAGES);
	return macErrorMessage(detail.code, detail.params as never, MAC_ERROR_TEXTS);
}

/** A MacInputError's message in this module's language. */
export function macErrorText(error: MacInputError): string {
	return macDetailText(error.detail);
}
