// The likely clients' names in the importing page's language, for the Verdicts' column and filter,
// the Summary's counts and the Markdown export: a client's id, several joined by "|", or 'unknown'
// (the groups of $lib/diagnosis/likely-client).
import { m } from '$lib/paraglide/messages.js';
import { UNKNOWN, type ClientId } from '$lib/diagnosis/likely-client';

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
