// The likely clients' names in the importing page's language, for the Verdicts' column and filter,
// the Summary's counts and the Markdown export: a client's id, several joined by "|", or 'unknown'
// (the groups of $lib/diagnosis/likely-client); and a row's client with its confidence and evidence.
import { m } from '$lib/paraglide/messages.js';
import {
	UNKNOWN,
	clientGroupId,
	codeEvidence,
	confidenceOf,
	type ClientCode,
	type ClientId
} from '$lib/diagnosis/likely-client';

const NAMES: Record<ClientId, () => string> = {
	'docs-shell': m.client_name_docs_shell,
	'docs-node-current': m.client_name_docs_node_current,
	'docs-node-old': m.client_name_docs_node_old,
	'docs-java': m.client_name_docs_java,
	'docs-php': m.client_name_docs_php,
	'docs-python3': m.client_name_docs_python3,
	'docs-go': m.client_name_docs_go,
	'unity-sdk': m.client_name_unity_sdk
};

function one(id: string): string {
	return Object.hasOwn(NAMES, id) ? NAMES[id as ClientId]() : id;
}

/** A likely client's group as the page's language names it: "A", "A or B", "unknown". */
export function clientLabel(id: string): string {
	if (id === UNKNOWN) return m.client_unknown();
	// A word between the names, not a message with variables: that would be a module shared with
	// the verify page's catalogue, one more file every page's entry lists.
	return id.split('|').map(one).join(m.client_or_join());
}

/** The evidence a row's code can stand on (codeEvidence's keys), each a message of no variables. */
const EVIDENCE: Record<string, () => string> = {
	client_evidence_nonce_base64: m.client_evidence_nonce_base64,
	client_evidence_nonce_letters: m.client_evidence_nonce_letters,
	client_evidence_nonce_decimal: m.client_evidence_nonce_decimal,
	client_evidence_nonce_shell: m.client_evidence_nonce_shell,
	client_evidence_nonce_php: m.client_evidence_nonce_php,
	client_evidence_nonce_go: m.client_evidence_nonce_go,
	client_evidence_separator_comma: m.client_evidence_separator_comma,
	client_evidence_separator_comma_space: m.client_evidence_separator_comma_space,
	client_evidence_uri_with_port_unknown: m.client_evidence_uri_with_port_unknown,
	client_evidence_uri_after_last_host: m.client_evidence_uri_after_last_host,
	client_evidence_key_ascii: m.client_evidence_key_ascii,
	client_evidence_key_latin1: m.client_evidence_key_latin1,
	client_evidence_key_gbk: m.client_evidence_key_gbk,
	client_evidence_hmac_sha256: m.client_evidence_hmac_sha256,
	client_evidence_host_legacy: m.client_evidence_host_legacy,
	client_evidence_host_other_deployment: m.client_evidence_host_other_deployment,
	client_evidence_ts_other: m.client_evidence_ts_other,
	client_evidence_query_decoded: m.client_evidence_query_decoded,
	client_evidence_query_re_encoded: m.client_evidence_query_re_encoded,
	client_evidence_query_dropped: m.client_evidence_query_dropped,
	client_evidence_query_sorted: m.client_evidence_query_sorted
};

/**
 * A row's likely client in words: "docs PHP sample, high confidence, because: …" (the backticks
 * of code dropped, for a cell of plain text), or "unknown".
 */
export function clientLine(code: ClientCode, mistake: string | null): string {
	const confidence = confidenceOf(code);
	if (confidence === null) return m.client_unknown();
	const evidence = codeEvidence(code, mistake)
		.map(({ key }) => (Object.hasOwn(EVIDENCE, key) ? (EVIDENCE[key] as () => string)() : key))
		.reduce((first, then) => m.client_and({ first, then }));
	return m
		.client_line({
			client: clientLabel(clientGroupId(code)),
			confidence: confidence === 'high' ? m.client_confidence_high() : m.client_confidence_medium(),
			evidence
		})
		.replaceAll('`', '');
}
