// What triage reads, decides and reports: plain data in no language, so that the worker can post it,
// the page can render it in English or Chinese, and the command line can print it.
import type { MacErrorDetail, UriForm } from '$lib/mac';
import type { SentAt } from '$lib/verify/paste/sent-at';

/** The three kinds of file triage reads; detected from the first bytes. */
export type TriageFormat = 'har' | 'ndjson' | 'log-lines';

/** One request as a log or HAR recorded it, before anything is verified. */
export interface LoggedRequest {
	/** The line number (NDJSON, log lines) or entry number (HAR), from 1. */
	number: number;
	method: string;
	url: string;
	/** The Authorization header's value as logged. */
	authorization: string;
	/** Which bytes the URL's path and query went out as (HAR: a browser's; logs: as written). */
	uriForm: UriForm;
	/** The HTTP status logged with it, when there is one. */
	status: number | null;
	/** When the log says it was sent: NDJSON `time`, a HAR entry's startedDateTime, a log line's time. */
	sentAt: SentAt | null;
	/** The base string the client logged (NDJSON `base_string`), when it did. */
	loggedBaseString: string | null;
}

/** Why a line or entry could not be read as a signed request. */
export type UnreadableCode =
	/** Not JSON (NDJSON line, HAR entry). */
	| 'not-json'
	/** JSON, but not an object. */
	| 'not-object'
	/** A field of the NDJSON object has the wrong type or an unreadable value (`field` says which). */
	| 'bad-field'
	/** No URL: NDJSON without `url`, a log line with a MAC header but no http(s) URL, a HAR entry without one. */
	| 'no-url'
	/** NDJSON without `authorization`. */
	| 'no-authorization'
	/** The Authorization header cannot be read (`detail` holds the core's code). */
	| 'bad-header'
	/** The URL cannot be signed (`detail` holds the core's code). */
	| 'bad-url'
	/** A HAR entry without its `request` object. */
	| 'no-request'
	/** A line longer than the reader keeps (1 MiB), or a HAR entry larger than 16 MiB. */
	| 'too-long'
	/** The HAR's JSON is broken here: the scanner cannot find the next entry after it. */
	| 'har-broken'
	/** The file ends inside the HAR (cut short). */
	| 'har-cut-short'
	/** The HAR has no `log.entries` list. */
	| 'har-no-entries'
	/** Reading the file failed (the browser or the disk said so). */
	| 'read-failed';

export interface Unreadable {
	/** Line or entry number, from 1; 0 for the file as a whole. */
	number: number;
	code: UnreadableCode;
	/** The NDJSON field, for 'bad-field'. */
	field?: string;
	/** The protocol core's error, for 'bad-header' and 'bad-url': render it with the page's table. */
	detail?: MacErrorDetail;
}

/** What a reader yields for each line or entry. Lines with no signed request in them are skipped. */
export type ReadItem =
	| { kind: 'request'; request: LoggedRequest }
	| { kind: 'unreadable'; unreadable: Unreadable }
	| { kind: 'skipped'; number: number };

/** The four groups every request falls in. */
export type VerdictKind = 'match' | 'mismatch' | 'no-key' | 'unreadable';

/** The mistake group of a mismatch that no catalogued mistake reproduces. */
export const UNEXPLAINED = 'unexplained';

/** One row of the verdicts: what a page's table, the CSV and the hand-over to /verify need. */
export interface VerdictRecord {
	number: number;
	/** Empty for an unreadable line. */
	method: string;
	url: string;
	/** The header's kid; empty when the header could not be read. */
	kid: string;
	verdict: VerdictKind;
	/**
	 * For a mismatch: the catalogue's id of the most likely mistake that reproduces it (two ids joined
	 * by "+" for a pair), or 'unexplained'. Null for the other verdicts.
	 */
	mistake: string | null;
	status: number | null;
	/** The Authorization header as logged, for the hand-over to /verify; empty when unreadable. */
	authorization: string;
	uriForm: UriForm;
	sentAt: SentAt | null;
	/**
	 * How far ts is from the logged time, in seconds (positive: ts is older), and whether that is
	 * outside the server's window; null without a logged time.
	 */
	clock: { ageSeconds: number | null; outsideWindow: boolean } | null;
	/** The number of the earlier request that used the same kid and nonce, or null. */
	nonceFirstUsedAt: number | null;
	/** Why it could not be read, for 'unreadable'. */
	unreadable: Unreadable | null;
}

export interface KidCount {
	kid: string;
	requests: number;
	mismatches: number;
	noKey: number;
}

/** Counts of everything, as the page's Summary table and the Markdown show them. */
export interface TriageSummary {
	format: TriageFormat | null;
	bytesRead: number;
	/** Requests in the four groups (match + mismatch + no key + unreadable). */
	requests: number;
	/** Lines or HAR entries with no MAC-signed request in them (other log lines, unsigned calls). */
	skipped: number;
	groups: Record<VerdictKind, number>;
	/** Mismatches per diagnosed mistake id, most first; 'unexplained' is counted apart. */
	mistakes: { id: string; count: number }[];
	unexplained: number;
	/** Requests whose ts is outside ±windowSeconds of their logged time, of those with a logged time. */
	clock: { outsideWindow: number; withLoggedTime: number; windowSeconds: number };
	/** Requests that reuse a nonce an earlier request of the same kid used. */
	noncesReused: number;
	/** Unreadable ones per reason. */
	unreadable: { code: UnreadableCode; count: number }[];
	/** Per kid, most requests first (at most 10,000 kids; `otherKids` counts the requests past that). */
	kids: KidCount[];
	otherKids: number;
	/** The first request numbers of each group, to quote: keys are verdicts, mistake ids, 'clock', 'nonce'. */
	examples: Record<string, number[]>;
	hmac: HmacEngine;
	elapsedMs: number;
	cancelled: boolean;
}

/**
 * Which HMAC-SHA-1 the bulk path uses: hmac/sha1.ts's ('own', the figures favour it), @noble/hashes's or
 * SubtleCrypto's (both kept for comparison).
 */
export type HmacEngine = 'own' | 'noble' | 'subtle';

/** The Summary's counts so far: those of a summary that grow while the verdicts come. */
export type TriageCounts = Pick<
	TriageSummary,
	'requests' | 'groups' | 'mistakes' | 'unexplained' | 'clock' | 'noncesReused' | 'unreadable'
>;

export interface TriageProgress {
	bytesRead: number;
	/** The input's size when known (a File, a file on disk), else null. */
	totalBytes: number | null;
	/** Requests in the four groups so far. */
	requests: number;
	/** Requests per second since the start. */
	rate: number;
	elapsedMs: number;
	/** The counts of the requests so far, verdicts reported up to here. */
	counts: TriageCounts;
}
