// What triage reads, decides and reports: plain data in no language, so that the worker can post it,
// the page can render it in English or Chinese, and the command line can print it.
import type { KeylessId } from '$lib/diagnosis/without-key';
import type { UriForm } from '$lib/mac';
import type { Refusal } from '$lib/diagnosis/service-answer';
import type { SentAt } from '$lib/read/sent-at';
import type { LogFormat, Unreadable, UnreadableCode } from '$lib/read/types';

/** The three kinds of file triage reads. */
export type TriageFormat = LogFormat;

/**
 * The five groups every request falls in. 'match' only when nothing seen says the service would
 * refuse it; 'refused': the signature is right, but the service would refuse it (or, for a nonce
 * used again, may: the spec does not say), see $lib/diagnosis/service-answer.
 */
export type VerdictKind = 'match' | 'refused' | 'mismatch' | 'no-key' | 'unreadable';

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
	/** For 'refused': why the service would refuse it. Null for the other verdicts. */
	refusal: Refusal | null;
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
	/**
	 * Which of the vendor's clients made it, where the evidence names one, as a code of
	 * $lib/diagnosis/likely-client (clientsOf, confidenceOf, clientGroupId, codeEvidence): from its
	 * header's shape, and for a mismatch from its mistake once known. UNKNOWN_CLIENT (0) for one the
	 * evidence names no client for, and for an unreadable one.
	 */
	client: number;
	/** Why it could not be read, for 'unreadable'. */
	unreadable: Unreadable | null;
	/**
	 * True when its Authorization header is not written as the spec shows it (header-format.ts), of
	 * whatever verdict: a request of a kid with no key says so too. Absent otherwise.
	 */
	headerFormat?: true;
}

export interface KidCount {
	kid: string;
	requests: number;
	mismatches: number;
	noKey: number;
	/** Its mismatches by mistake (a catalogue id, or 'unexplained'), most first; absent in older summaries. */
	mistakes?: { id: string; count: number }[];
}

/** Counts of everything, as the page's Summary table and the Markdown show them. */
export interface TriageSummary {
	/** The format detected; null when nothing was read as a log (`empty`, or `stopped` at once). */
	format: TriageFormat | null;
	/** The input holds nothing: no bytes, or white space only. Not an error of a record: of the run. */
	empty: boolean;
	/**
	 * Why reading ended before the end of the input, or refused it (binary, compressed, an encoding
	 * not read): its reason, `at` the byte offset where it stopped, its number the entry or line
	 * reached (0: the file). Also counted among the unreadable. Null when everything was read.
	 */
	stopped: Unreadable | null;
	bytesRead: number;
	/** Requests in the five groups (match + refused + mismatch + no key + unreadable). */
	requests: number;
	/** Lines or HAR entries with no MAC-signed request in them (other log lines, unsigned calls). */
	skipped: number;
	groups: Record<VerdictKind, number>;
	/** Mismatches per diagnosed mistake id, most first; 'unexplained' is counted apart. */
	mistakes: { id: string; count: number }[];
	unexplained: number;
	/** Refused requests (signature right) per reason, most first. */
	refusals: { id: Refusal; count: number }[];
	/** Requests whose ts is outside ±windowSeconds of their logged time, of those with a logged time. */
	clock: { outsideWindow: number; withLoggedTime: number; windowSeconds: number };
	/** Requests that reuse a nonce an earlier request of the same kid used. */
	noncesReused: number;
	/** Requests whose header is not written as the spec shows it, of every verdict (no key too). */
	headerFormat: number;
	/**
	 * Requests of a kid with no key, by what the request alone shows the service would not take
	 * (ts not in seconds, a mac not shaped as a Base64 HMAC-SHA-1: keylessFindings), most first.
	 */
	keyless: { id: KeylessId; count: number }[];
	/**
	 * Readable requests per likely client, most first: a client's id or 'unknown' (see
	 * $lib/diagnosis/likely-client).
	 */
	clients: { id: string; count: number }[];
	/** Unreadable ones per reason. */
	unreadable: { code: UnreadableCode; count: number }[];
	/** Per kid, most requests first (at most 10,000 kids; `otherKids` counts the requests past that). */
	kids: KidCount[];
	otherKids: number;
	/**
	 * The first request numbers of each group, to quote: keys are verdicts, mistake ids, 'clock',
	 * 'nonce', and `refused:<refusal>`.
	 */
	examples: Record<string, number[]>;
	/** Workers the log was split across (the pool: src/lib/triage/pool); 0 when one thread read it. */
	workers: number;
	elapsedMs: number;
	cancelled: boolean;
}

/** The Summary's counts so far: those of a summary that grow while the verdicts come. */
export type TriageCounts = Pick<
	TriageSummary,
	| 'requests'
	| 'groups'
	| 'mistakes'
	| 'unexplained'
	| 'refusals'
	| 'clock'
	| 'noncesReused'
	| 'headerFormat'
	| 'keyless'
	| 'clients'
	| 'unreadable'
>;

export interface TriageProgress {
	bytesRead: number;
	/** The input's size when known (a File, a file on disk), else null. */
	totalBytes: number | null;
	/** Requests in the five groups so far. */
	requests: number;
	/** Requests per second since the start. */
	rate: number;
	elapsedMs: number;
	/** The counts of the requests so far, verdicts reported up to here. */
	counts: TriageCounts;
}
