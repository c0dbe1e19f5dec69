// Everything the /verify page reads of a paste, in one pass of the readers ($lib/read): the
// requests it lists, the one request it is, its Authorization header as written, and what a share
// link carries of it. Pure and synchronous: the page runs it at once on a small paste and in the
// reading worker (reading.worker.ts) on a large one; what it returns crosses to the page by wire.ts.
// A share link is opened (decoded) the same way, then its paste is read as any other.
import { attempt, type Outcome } from '$lib/mac';
import {
	listLogged,
	loggedSingle,
	parseSignedRequest,
	parseSignedRequests,
	type ListedRequest,
	type SignedRequest
} from '$lib/read/parse-signed-request';
import { linkRequestOf, type LinkRequest } from '../case/share-state';

export interface PasteReading {
	/** The several signed requests of a paste (a HAR, NDJSON, log lines); null for a paste of one. */
	listing: { requests: ListedRequest[]; byLine: boolean } | null;
	/** The paste read as one request: by the paste readers, else as one NDJSON or log line. */
	single: Outcome<SignedRequest>;
	/**
	 * The Authorization header as the paste writes it, for a header pasted alone (perhaps after a
	 * log line's time): its parts' separator is part of its shape. Null for other pastes, whose
	 * request says it (authorizationValue).
	 */
	headerText: string | null;
	/** What a share link carries of the paste. */
	link: LinkRequest;
}

/** Reads a paste that is not empty (the page reads nothing of an empty one). */
export function readPaste(text: string): PasteReading {
	const entries = parseSignedRequests(text);
	const lines = entries ? null : listLogged(text);
	const listing = entries
		? { requests: entries, byLine: false }
		: lines
			? { requests: lines, byLine: true }
			: null;
	const direct = attempt(() => parseSignedRequest(text));
	const single = direct.ok ? direct : (loggedSingle(text) ?? direct);
	return {
		listing,
		single,
		headerText:
			single.ok && single.value.authorizationValue === undefined ? headerTextOf(text) : null,
		link: linkRequestOf(text, direct)
	};
}

// Where a header pasted alone starts: its `Authorization:` name, else the scheme.
const HEADER_START = /(?:\bauthorization[ \t]*:[ \t]*)?\bmac[ \t]/i;

function headerTextOf(text: string): string {
	const at = text.search(HEADER_START);
	return at < 0 ? text : text.slice(at);
}
