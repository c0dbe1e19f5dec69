// The /verify page's own logic: the case file and the share link, over the readers ($lib/read) and
// the diagnosis ($lib/diagnosis); desk/ is the page that shows it.

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
	linkRequestOf,
	readShareLink,
	requestForLink,
	shareLink,
	type LinkRequest,
	type ShareEncodeOptions,
	type ShareLink,
	type ShareLinkReading,
	type ShareOption,
	type ShareState
} from './case/share-state';
