// The protocol core: plain TypeScript, no Svelte, so the browser, the sandbox, the relay and Node tests share it.
export { MacInputError, attempt, type Outcome } from './errors';
export { MAC_ERROR_MESSAGES, macErrorMessage } from './error-messages';
export type {
	CredentialIssueCode,
	MacErrorCode,
	MacErrorDetail,
	MacErrorMessages,
	MacErrorParams,
	MacErrorParamsMap,
	ValueKind
} from './error-codes';
export { toBase64, toHex, utf8Bytes } from './encoding';
export { fromBase64, isBase64, toBase64Url } from './base64-forms';
export {
	BASE_STRING_RULES,
	baseString,
	baseStringLines,
	type BaseStringInput,
	type BaseStringKey,
	type BaseStringLine,
	type BaseStringRule
} from './base-string';
export { MAC_ALGORITHM, hmac, isSupportedAlgorithm, sign, type Digest } from './sign';
export {
	authorizationHeader,
	checkHeaderValue,
	type HeaderStyle,
	type MacHeaderParams
} from './header';
export { findMacHeader, parseAuthorization } from './header-parse';
export {
	browserRewrites,
	urlRewrites,
	type UrlRewrite,
	requestTarget,
	writtenTarget,
	type RequestTarget,
	type RequestTargetOptions,
	type UriForm,
	type WrittenTarget
} from './request-target';
export {
	isTimestamp,
	padTimestamp,
	randomNonce,
	timestamp,
	timestampToDate,
	type NonceKind
} from './ts-nonce';
export {
	CredentialError,
	parseCredential,
	pastedJson,
	type Credential,
	type FieldIssue,
	type PastedJson
} from './credential';
export { curlCommand, shellQuote } from './curl';
export { cmdCurlCommand, cmdQuote, powershellCommand, powershellQuote } from './windows';
