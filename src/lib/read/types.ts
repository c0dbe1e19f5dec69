// What a log reader yields: one request as a log or HAR recorded it, or why a line or entry could
// not be read. Plain data, so that a worker can post it and both pages and the CLI can read it.
import type { MacErrorDetail, UriForm } from '$lib/mac';
import type { SentAt } from './sent-at';

/** The three kinds of log file the readers read; detected from the first bytes. */
export type LogFormat = 'har' | 'ndjson' | 'log-lines';

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
	/** The base string the client logged (NDJSON `base_string`, a HAR entry's `_base_string`), when it did. */
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
	/** A HAR entry nested deeper than the reader follows (MAX_ENTRY_DEPTH levels). */
	| 'too-deep'
	/** The HAR's JSON is broken outside any entry: the scanner cannot find the entries after it. */
	| 'har-broken'
	/** The file ends inside the HAR (cut short). */
	| 'har-cut-short'
	/** The HAR has no `log.entries` list. */
	| 'har-no-entries'
	/** The file is in a text encoding not read (`found` names it: UTF-32LE, UTF-32BE). */
	| 'encoding'
	/** The file is compressed or an archive (`found` names it: gzip, zip, zstd, xz, bzip2, 7z). */
	| 'compressed'
	/** The file is binary data, not text: a NUL byte in its first kilobytes (`at`), among no text. */
	| 'binary'
	/** NUL bytes in the line (a log cut short by a crash is padded with them). */
	| 'nul-bytes'
	/** Reading failed: the browser or the disk said so, or the record's reader did. */
	| 'read-failed';

export interface Unreadable {
	/** Line or entry number, from 1; 0 for the file as a whole. */
	number: number;
	code: UnreadableCode;
	/** The NDJSON field, for 'bad-field'. */
	field?: string;
	/** The protocol core's error, for 'bad-header' and 'bad-url': render it with the page's table. */
	detail?: MacErrorDetail;
	/**
	 * Set on the item that ended the reading of the file (or refused it), and on it alone: the byte
	 * offset where reading stopped. Its number is then the entry or line reached (0: the file).
	 */
	at?: number;
	/** For 'encoding' and 'compressed': the encoding or format found. */
	found?: string;
}

/** What a reader yields for each line or entry. Lines with no signed request in them are skipped. */
export type ReadItem =
	| { kind: 'request'; request: LoggedRequest }
	| { kind: 'unreadable'; unreadable: Unreadable }
	| { kind: 'skipped'; number: number };
