// The /verify page's logic: plain TypeScript over the protocol core, so Node tests run it as is.
// It flows paste/ (read what the customer sent) → diagnosis/ (the verdict and the mistakes that
// reproduce their mac) → case/ (the case file, the share link); desk/ is the page that shows it.

// 1. The paste
export { SIGNED_REQUEST_FIELD, type HeaderField, type ParsedRequest } from './paste/parsed-request';
export { detectDialect, shellWords, type ShellDialect } from './paste/shell-words';
export { parseCurl, parseCurlCommand, type CurlRequest } from './paste/parse-curl';
export { parseRawRequest, type RawRequest } from './paste/parse-raw-request';
export { parseHar } from './paste/parse-har';
export { FETCH_CALL, parseFetch } from './paste/parse-fetch';
export { looksLikePowerShell, parsePowerShell } from './paste/powershell/parse-powershell';
export {
	detectKind,
	parseSignedRequest,
	type MissingInput,
	type SignedRequest,
	type SignedRequestKind
} from './paste/parse-signed-request';
export {
	formatInstant,
	httpDate,
	isoTime,
	logLineTime,
	type LogTime,
	type SentAt
} from './paste/sent-at';

// 2. The diagnosis and its verdict
export {
	canProduce,
	decodedLength,
	encodeDigest,
	renderBaseString,
	type DigestEncoding,
	type HashName,
	type SigningInputs
} from './diagnosis/signing-inputs';
export {
	MISTAKES,
	mistakeById,
	type Candidate,
	type Mistake,
	type MistakeContext,
	type MistakeId,
	type Slot
} from './diagnosis/mistakes/catalogue';
export { diagnose, type DiagnoseInput } from './diagnosis/diagnose';
export {
	type Diagnosis,
	type MistakeSummary,
	type Reproduction,
	type Verdict
} from './diagnosis/verdict';
export { clockCheck, formatDuration, type ClockCheck } from './diagnosis/clock-check';
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
} from './diagnosis/base-string-diff';

// 3. The case
export { maskKid, masker } from './case/mask-kid';
export {
	caseFileMarkdown,
	testVector,
	type CaseInput,
	type CaseOptions,
	type TestVector
} from './case/case-file';
export {
	KID_PLACEHOLDER,
	decodeShareState,
	encodeShareState,
	requestForLink,
	type ShareEncodeOptions,
	type ShareOption,
	type ShareState
} from './case/share-state';
