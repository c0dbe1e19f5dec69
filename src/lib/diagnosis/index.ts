// The diagnosis: the expected mac, the verdict, and which catalogued mistakes reproduce the
// customer's mac; beside it the clock check and the comparison with a logged base string. Plain
// TypeScript shared by /verify, /triage, the CLI and the sandbox server.

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
} from './mistakes/catalogue';
export { diagnose, type DiagnoseInput } from './diagnose';
export { DIAGNOSIS_BUDGET } from './search';
export {
	DIAGNOSIS_STOPPED,
	type Diagnosis,
	type MistakeSummary,
	type Reproduction,
	type Verdict
} from './verdict';
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

export { maskKid, masker } from './mask-kid';
