import { MacInputError, requireObject } from './errors';

/** What the base string is built from (spec §5.3). */
export interface BaseStringInput {
	ts: string;
	nonce: string;
	method: string;
	/** Path plus query string, exactly as sent. */
	uri: string;
	/** Host name without port. */
	host: string;
	port: string | number;
	/** Extra data; empty for this service. */
	ext?: string;
}

export type BaseStringKey = 'ts' | 'nonce' | 'method' | 'uri' | 'host' | 'port' | 'ext';

export interface BaseStringRule {
	key: BaseStringKey;
	/** The line's name as the spec words it. */
	name: string;
	/** Where the value comes from, and the mistake people make there. */
	explanation: string;
}

/** The seven lines in order, each with the one sentence a learner needs. */
export const BASE_STRING_RULES: readonly BaseStringRule[] = [
	{
		key: 'ts',
		name: 'ts',
		explanation:
			'The same ts as in the header, whole seconds since 1970; it must match the header byte for byte, padding included.'
	},
	{
		key: 'nonce',
		name: 'nonce',
		explanation:
			'The same random nonce as in the header, new for every request; whether the service rejects a reused nonce, the spec does not say.'
	},
	{
		key: 'method',
		name: 'HTTP method',
		explanation: 'Upper case: GET. A lower-case "get" signs a different string.'
	},
	{
		key: 'uri',
		name: 'request URI',
		explanation:
			'Path plus query string exactly as sent, without scheme or host; decoding or re-encoding the query breaks the signature.'
	},
	{
		key: 'host',
		name: 'host',
		explanation:
			'The host actually called, in lower case and without ":port"; signing any other host fails (the other deployment\'s, or the production host while calling a sandbox).'
	},
	{
		key: 'port',
		name: 'port',
		explanation:
			'The port from the URL; without one it is 443 for https (80 only for http), even though the URL does not show it.'
	},
	{
		key: 'ext',
		name: 'ext (extra data)',
		explanation:
			'Empty for this service, but the line and its LF are still there, so the string ends with two LFs.'
	}
];

export interface BaseStringLine extends BaseStringRule {
	/** 1-based position in the base string. */
	number: number;
	value: string;
}

/** The seven lines with their values, for a step-by-step view. */
export function baseStringLines(input: BaseStringInput): BaseStringLine[] {
	requireObject('base string input', input);
	return BASE_STRING_RULES.map((rule, index) => ({
		...rule,
		number: index + 1,
		value: lineValue(rule.key, input[rule.key])
	}));
}

/** A line's value: text as it is, a port also as a whole number; only ext may be left out. */
function lineValue(key: BaseStringKey, value: unknown): string {
	if (typeof value === 'string') return value;
	if (value === undefined && key === 'ext') return '';
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && key === 'port')
		return String(value);
	throw new MacInputError(
		key,
		value === undefined
			? { code: 'line_missing', params: { key } }
			: key === 'port'
				? { code: 'port_not_text', params: {} }
				: { code: 'line_not_text', params: { key } }
	);
}

/**
 * The signature base string: seven lines, each terminated by LF (spec §5.3). The same lines and
 * checks as baseStringLines, without building the step-by-step view: a triage signs millions.
 */
export function baseString(input: BaseStringInput): string {
	requireObject('base string input', input);
	let text = '';
	for (const rule of BASE_STRING_RULES) text += `${lineValue(rule.key, input[rule.key])}\n`;
	return text;
}
