// Reading what customers send: a paste (curl, cmd, PowerShell, fetch, a raw request, a HAR, one
// log line) into one signed request, and a log (HAR, NDJSON, log lines) streamed into many. Plain
// TypeScript over the protocol core: /verify, /triage, the CLI and the sandbox all read with it.
// Imports run mac → account-api → read → diagnosis → {verify, triage, sandbox}.

export { SIGNED_REQUEST_FIELD, type HeaderField, type ParsedRequest } from './parsed-request';
export { detectDialect, shellWords, type ShellDialect } from './shell-words';
export { parseCurl, parseCurlCommand, type CurlRequest } from './parse-curl';
export { parseRawRequest, type RawRequest } from './parse-raw-request';
export { parseHar } from './parse-har';
export { FETCH_CALL, parseFetch } from './parse-fetch';
export { looksLikePowerShell, parsePowerShell } from './powershell/parse-powershell';
export {
	detectKind,
	parseSignedRequest,
	type MissingInput,
	type SignedRequest,
	type SignedRequestKind
} from './parse-signed-request';
export {
	formatInstant,
	httpDate,
	isoTime,
	logLineTime,
	type LogTime,
	type SentAt
} from './sent-at';

export { detectFormat, readLines, readRequests, type Reading } from './readers';
export { decodeText, type Refusal } from './text-source';
export type { TextEncoding } from './encoding';
export type { LogFormat, LoggedRequest, ReadItem, Unreadable, UnreadableCode } from './types';
