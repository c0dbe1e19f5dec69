// The /verify page's logic: plain TypeScript over the protocol core, so Node tests run it as is.
export { SIGNED_REQUEST_FIELD, detectDialect, shellWords, type ShellDialect } from './shell-words';
export {
	parseCurl,
	parseCurlCommand,
	type CurlRequest,
	type HeaderField,
	type ParsedRequest
} from './parse-curl';
export { parseRawRequest, type RawRequest } from './parse-raw-request';
export { parseHar } from './parse-har';
export { FETCH_CALL, parseFetch } from './parse-fetch';
export { looksLikePowerShell, parsePowerShell } from './parse-powershell';
export {
	detectKind,
	parseSignedRequest,
	type MissingInput,
	type SignedRequest,
	type SignedRequestKind
} from './parse-signed-request';
export {
	canProduce,
	decodedLength,
	encodeDigest,
	renderBaseString,
	type DigestEncoding,
	type HashName,
	type SigningInputs
} from './signing-inputs';
export {
	MISTAKES,
	mistakeById,
	type Candidate,
	type Mistake,
	type MistakeContext,
	type MistakeId,
	type Slot
} from './mistakes';
export {
	KNOWN_HOSTS,
	diagnose,
	type DiagnoseInput,
	type Diagnosis,
	type Explanation,
	type MistakeSummary,
	type Verdict
} from './diagnose';
export { clockCheck, formatDuration, type ClockCheck } from './clock-check';
export {
	diffBaseString,
	diffLoggedBaseString,
	readLoggedBaseString,
	hasEscapedLineBreaks,
	segmentDiff,
	unescapeBaseString,
	type BaseStringDiff,
	type DiffSegment,
	type Invisible,
	type InvisibleKind,
	type LineDiff,
	type LoggedBaseString
} from './base-string-diff';
export {
	formatInstant,
	httpDate,
	isoTime,
	logLineTime,
	type LogTime,
	type SentAt
} from './sent-at';
export {
	caseFileMarkdown,
	maskKid,
	testVector,
	type CaseInput,
	type CaseOptions,
	type TestVector
} from './case-file';
export {
	KID_PLACEHOLDER,
	decodeShareState,
	encodeShareState,
	requestForLink,
	type ShareEncodeOptions,
	type ShareOption,
	type ShareState
} from './share-state';
