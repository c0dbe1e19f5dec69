// The names of triage's groups in the importing page's language: the five verdicts, and the
// mistakes of the diagnosis catalogue in a word or two for a table's cell (the catalogue's titles
// are sentences about one request).
import type { KeylessId } from '$lib/diagnosis/without-key';
import { m } from '$lib/paraglide/messages.js';
import type { MistakeId } from '$lib/diagnosis/mistakes/catalogue';
import { DIAGNOSIS_STOPPED } from '$lib/diagnosis/verdict';
import type { Refusal } from '$lib/diagnosis/service-answer';
import type { Unreadable, UnreadableCode } from '$lib/read/types';
import type { MarkdownWords } from '$lib/triage/exports';
import { UNEXPLAINED, type TriageFormat, type VerdictKind } from '$lib/triage/types';

const LABELS: Record<MistakeId, () => string> = {
	'host-other-deployment': m.triage_mistake_host_other_deployment,
	'host-legacy': m.triage_mistake_host_legacy,
	'host-as-written': m.triage_mistake_host_as_written,
	'host-with-port': m.triage_mistake_host_with_port,
	'port-wrong': m.triage_mistake_port_wrong,
	'port-empty': m.triage_mistake_port_empty,
	'port-unset': m.triage_mistake_port_unset,
	'trailing-slash': m.triage_mistake_trailing_slash,
	'path-empty-no-slash': m.triage_mistake_path_empty_no_slash,
	'path-params-dropped': m.triage_mistake_path_params_dropped,
	'query-dropped': m.triage_mistake_query_dropped,
	'query-decoded': m.triage_mistake_query_decoded,
	'query-re-encoded': m.triage_mistake_query_re_encoded,
	'uri-as-typed': m.triage_mistake_uri_as_typed,
	'uri-whatwg': m.triage_mistake_uri_whatwg,
	'uri-dotnet': m.triage_mistake_uri_dotnet,
	'query-sorted': m.triage_mistake_query_sorted,
	'full-url': m.triage_mistake_full_url,
	'uri-with-port': m.triage_mistake_uri_with_port,
	'uri-after-last-host': m.triage_mistake_uri_after_last_host,
	'method-lower-case': m.triage_mistake_method_lower_case,
	'ext-line-dropped': m.triage_mistake_ext_line_dropped,
	'extra-lf': m.triage_mistake_extra_lf,
	'trailing-lfs-stripped': m.triage_mistake_trailing_lfs_stripped,
	crlf: m.triage_mistake_crlf,
	'ts-padded': m.triage_mistake_ts_padded,
	'ts-unpadded': m.triage_mistake_ts_unpadded,
	'ts-milliseconds': m.triage_mistake_ts_milliseconds,
	'ts-other': m.triage_mistake_ts_other,
	'nonce-whitespace': m.triage_mistake_nonce_whitespace,
	'nonce-url-encoded': m.triage_mistake_nonce_url_encoded,
	'key-whitespace': m.triage_mistake_key_whitespace,
	'key-base64-decoded': m.triage_mistake_key_base64_decoded,
	'key-is-kid': m.triage_mistake_key_is_kid,
	'key-ascii': m.triage_mistake_key_ascii,
	'key-latin1': m.triage_mistake_key_latin1,
	'key-gbk': m.triage_mistake_key_gbk,
	'hmac-sha256': m.triage_mistake_hmac_sha256,
	'digest-hex': m.triage_mistake_digest_hex,
	'digest-base64url': m.triage_mistake_digest_base64url,
	'digest-unpadded': m.triage_mistake_digest_unpadded,
	'digest-hex-dashed': m.triage_mistake_digest_hex_dashed,
	'digest-base64-of-hex': m.triage_mistake_digest_base64_of_hex,
	'digest-bytes-repr': m.triage_mistake_digest_bytes_repr
};

/** The prefix of a mistake read from the customer's logged base string (logged-evidence.ts). */
const LOGGED = 'logged-base-string:';

function one(id: string): string {
	if (id === UNEXPLAINED) return m.triage_group_unexplained();
	if (id === `${LOGGED}key-or-digest`) return m.triage_mistake_logged_key_or_digest();
	if (id.startsWith(LOGGED)) return m.triage_mistake_logged({ lines: id.slice(LOGGED.length) });
	if (id === DIAGNOSIS_STOPPED) return m.diagnosis_stopped();
	return Object.hasOwn(LABELS, id) ? LABELS[id as MistakeId]() : id;
}

/**
 * A mistake id of a verdict ('a+b' for a pair, 'unexplained', a stopped diagnosis) as the page's
 * language names it.
 */
export function mistakeLabel(id: string): string {
	const [first = '', second] = id.split('+');
	return second === undefined
		? one(first)
		: m.triage_mistake_pair({ first: one(first), second: one(second) });
}

/** A verdict as the Summary and the Verdicts name it. */
export function verdictLabel(kind: VerdictKind): string {
	if (kind === 'match') return m.triage_group_match();
	if (kind === 'refused') return m.triage_group_refused();
	if (kind === 'mismatch') return m.triage_group_mismatch();
	if (kind === 'no-key') return m.triage_group_no_key();
	return m.triage_group_unreadable();
}

const REFUSALS: Record<Refusal, () => string> = {
	'ts-not-seconds': m.diagnosis_refusal_ts_not_seconds,
	'ts-milliseconds': m.diagnosis_refusal_ts_milliseconds,
	'ext-not-signed': m.diagnosis_refusal_ext,
	'ts-outside-window': m.diagnosis_refusal_window,
	'nonce-reused': m.diagnosis_refusal_nonce,
	'header-format': m.diagnosis_refusal_header_format
};

const KEYLESS: Record<KeylessId, () => string> = {
	'ts-milliseconds': m.triage_keyless_ts_milliseconds,
	'ts-float': m.triage_keyless_ts_float,
	'ts-other': m.triage_keyless_ts_other,
	'mac-base64-sha1-unpadded': m.triage_keyless_mac_unpadded,
	'mac-base64url-sha1': m.triage_keyless_mac_base64url,
	'mac-hex-sha1': m.triage_keyless_mac_hex,
	'mac-base64-sha256': m.triage_keyless_mac_sha256,
	'mac-hex-sha256': m.triage_keyless_mac_sha256_hex,
	'mac-hex-dashed-sha1': m.triage_keyless_mac_hex_dashed,
	'mac-base64-of-hex-sha1': m.triage_keyless_mac_base64_of_hex,
	'mac-bytes-repr-sha1': m.triage_keyless_mac_bytes_repr,
	'mac-other': m.triage_keyless_mac_other
};

/** What a request of a kid with no key shows alone, in a few words. */
export function keylessLabel(id: KeylessId): string {
	return Object.hasOwn(KEYLESS, id) ? KEYLESS[id]() : id;
}

/** Why a refused request (signature right) would be refused, in a few words. */
export function refusalLabel(id: Refusal): string {
	return Object.hasOwn(REFUSALS, id) ? REFUSALS[id]() : id;
}

/** The detected format's name; null is an empty input. */
export function formatLabel(format: TriageFormat | null): string {
	if (format === 'har') return m.triage_format_har();
	if (format === 'ndjson') return m.triage_format_ndjson();
	if (format === 'log-lines') return m.triage_format_log_lines();
	return m.triage_format_empty();
}

const UNREADABLE: Record<UnreadableCode, () => string> = {
	'not-json': m.triage_unreadable_not_json,
	'not-object': m.triage_unreadable_not_object,
	'bad-field': m.triage_unreadable_bad_field,
	'no-url': m.triage_unreadable_no_url,
	'no-authorization': m.triage_unreadable_no_authorization,
	'bad-header': m.triage_unreadable_bad_header,
	'bad-url': m.triage_unreadable_bad_url,
	'no-request': m.triage_unreadable_no_request,
	'too-long': m.triage_unreadable_too_long,
	'too-deep': m.records_unreadable_too_deep,
	'har-broken': m.triage_unreadable_har_broken,
	'har-cut-short': m.triage_unreadable_har_cut_short,
	'har-no-entries': m.triage_unreadable_har_no_entries,
	encoding: m.records_unreadable_encoding,
	compressed: m.records_unreadable_compressed,
	binary: m.records_unreadable_binary,
	'nul-bytes': m.records_unreadable_nul_bytes,
	'read-failed': m.triage_unreadable_read_failed
};

/** Why requests were unreadable, as the Summary's rows under "unreadable" name it. */
export function unreadableLabel(code: UnreadableCode): string {
	return Object.hasOwn(UNREADABLE, code) ? UNREADABLE[code]() : code;
}

/**
 * Where and why reading stopped (the summary's `stopped`), as a sentence; `count` writes a number
 * in the page's language.
 */
export function stoppedText(stopped: Unreadable, count: (value: number) => string): string {
	const at = count(stopped.at ?? 0);
	const number = count(stopped.number);
	const found = stopped.found ?? '';
	switch (stopped.code) {
		case 'har-broken':
			return stopped.number > 0
				? m.records_stop_har_broken({ at, number })
				: m.records_stop_har_broken_before({ at });
		case 'har-cut-short':
			return stopped.number > 0
				? m.records_stop_har_cut_short({ at, number })
				: m.records_stop_har_cut_short_outside({ at });
		case 'har-no-entries':
			return m.records_stop_har_no_entries({ at });
		case 'encoding':
			return m.records_stop_encoding({ found });
		case 'compressed':
			return m.records_stop_compressed({ found });
		case 'binary':
			return m.records_stop_binary({ at });
		default:
			return m.records_stop_read_failed({ at });
	}
}

/** The Markdown summary's words in the page's language, for `unit` ('line', or 'entry' in a HAR). */
export function markdownWords(unit: 'line' | 'entry'): MarkdownWords {
	const lines = unit === 'line';
	const first = (text: string, numbers: string | null) =>
		numbers === null
			? text
			: lines
				? m.triage_md_first_of_lines({ text, numbers })
				: m.triage_md_first_of_entries({ text, numbers });
	return {
		title: (requests) => m.triage_md_title({ requests: String(requests) }),
		created: (at, kidsMasked) =>
			kidsMasked ? m.triage_md_created_masked({ at }) : m.triage_md_created({ at }),
		format: (format, bytes, cancelled) =>
			cancelled
				? m.triage_md_format_cancelled({ format, bytes: String(bytes) })
				: m.triage_md_format({ format, bytes: String(bytes) }),
		formatName: formatLabel,
		skipped: (count) =>
			lines
				? m.triage_md_skipped_lines({ count: String(count) })
				: m.triage_md_skipped_entries({ count: String(count) }),
		stopped: (where) => m.triage_md_stopped({ where }),
		groups: m.triage_md_groups(),
		group: m.triage_group(),
		requests: m.triage_count(),
		firstNumbers: lines ? m.triage_md_first_lines() : m.triage_md_first_entries(),
		groupName: verdictLabel,
		mistakes: m.triage_md_mistakes(),
		mistake: m.triage_col_mistake(),
		unexplained: m.triage_group_unexplained(),
		refusals: m.triage_md_refusals(),
		refusal: m.triage_md_reason(),
		clockAndNonces: m.triage_md_clock_and_nonces(),
		clock: ({ windowSeconds, outsideWindow, withLoggedTime }, numbers) =>
			first(
				m.triage_md_clock({
					window: String(windowSeconds),
					outside: String(outsideWindow),
					logged: String(withLoggedTime)
				}),
				numbers
			),
		nonces: (count, numbers) => first(m.triage_md_nonces({ count: String(count) }), numbers),
		keyless: m.triage_md_keyless(),
		keylessFinding: m.triage_md_keyless_finding(),
		headerFormat: (count, numbers) =>
			first(m.triage_md_header_format({ count: String(count) }), numbers),
		clients: m.client_summary(),
		client: m.client_column(),
		clientsNote: m.client_md_note(),
		unreadable: m.triage_group_unreadable(),
		reason: m.triage_md_reason(),
		count: m.triage_count(),
		kids: m.triage_md_kids(),
		mismatches: m.triage_md_mismatches(),
		noKey: m.triage_md_no_key(),
		moreKids: m.triage_md_more_kids(),
		kidMistakes: m.triage_kid_mistakes()
	};
}
