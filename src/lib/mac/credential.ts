import type { CredentialIssueCode, MacErrorDetail } from './error-codes';
import { MacInputError, describeMacError, kindOf, requireText } from './errors';
import { MAC_ALGORITHM, isSupportedAlgorithm } from './sign';

/** The SDK login result's fields (spec §2.3). */
export interface Credential {
	kid: string;
	access_token: string;
	token_type: string;
	mac_key: string;
	mac_algorithm: string;
	scopes: string[];
}

type FieldIssueDetail = MacErrorDetail<CredentialIssueCode>;

/** One bad field: its code and parameters, and their English text (see describeMacError). */
export type FieldIssue = FieldIssueDetail & {
	field: keyof Credential;
	message: string;
};

/** Thrown by parseCredential: every bad field, and the good ones so a page can still fill those. */
export class CredentialError extends MacInputError {
	override name = 'CredentialError';
	constructor(
		readonly issues: FieldIssue[],
		readonly partial: Partial<Credential>
	) {
		super(issues[0]?.field ?? 'credential', {
			code: 'credential',
			params: {
				issues: issues.map(({ code, params }) => ({ code, params }) as FieldIssueDetail)
			}
		});
	}
}

// SDKs name the same field in snake_case or camelCase; the first name is the spec's.
const ALIASES: Record<keyof Credential, string[]> = {
	kid: ['kid'],
	access_token: ['access_token', 'accessToken'],
	token_type: ['token_type', 'tokenType'],
	mac_key: ['mac_key', 'macKey'],
	mac_algorithm: ['mac_algorithm', 'macAlgorithm'],
	scopes: ['scopeSet', 'scope_set', 'scopes', 'scope']
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** scopeSet as an array, as Java's Set#toString writes it (`[a, b]`), or space/comma separated. */
function readScopes(value: unknown): string[] | null {
	if (Array.isArray(value))
		return value.every((item) => typeof item === 'string')
			? value.map((s) => s.trim()).filter(Boolean)
			: null;
	if (typeof value !== 'string') return null;
	return value
		.replace(/^\s*\[|\]\s*$/g, '')
		.split(/[\s,]+/)
		.filter(Boolean);
}

/** How many `{` a paste is searched from: a log line has few; a hostile paste must not cost n². */
const MAX_OBJECT_STARTS = 20;

/** Where a balanced `{…}` starting at `start` ends (after its `}`), strings skipped; -1 if never. */
function objectEnd(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index++) {
		const char = text.charAt(index);
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{') depth++;
		else if (char === '}' && --depth === 0) return index + 1;
	}
	return -1;
}

/** The JSON of a paste, and the text around it that was not read. */
export interface PastedJson {
	json: string;
	/** What came before the JSON object (a logcat line's prefix), trimmed; empty when nothing. */
	before: string;
	after: string;
}

/**
 * What logcat writes before each line's message, in its common formats: `adb logcat`'s threadtime
 * (`11-21 10:00:01.123  1234  1234 D TapLogin: `), Android Studio's older one
 * (`11-21 10:00:01.123 1234-1234/com.example.game D/TapLogin: `) and newer one
 * (`2026-11-21 10:00:01.123  1234-1234  TapLogin  com.example.game  D  `), and brief
 * (`D/TapLogin( 1234): `).
 */
const LOGCAT_PREFIX =
	/^(?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+(?:[-\s]+\d+)?(?:\/\S+)?\s+(?:[VDIWEFA][/\s]\s*(?:[^:\s]+\s*)?(?:\(\s*\d+\))?:|\S+\s+\S+\s+[VDIWEFA]\s)|[VDIWEFA]\/[^:(]*(?:\(\s*\d+\))?:) ?/;

/**
 * A login result that an app logged over several lines (pretty-printed, or cut by logcat's line
 * limit) comes pasted with logcat's prefix on each line: the lines' messages, joined. Line breaks
 * fall between JSON's tokens or inside a string that logcat cut, so they are joined with nothing.
 * Null unless two lines or more carry a prefix.
 */
function logcatMessages(text: string): string | null {
	const lines = text.split(/\r\n|\n|\r/);
	if (lines.length < 2) return null;
	let prefixed = 0;
	const messages = lines.map((line) => {
		const prefix = LOGCAT_PREFIX.exec(line);
		if (prefix === null) return line;
		prefixed++;
		return line.slice(prefix[0].length);
	});
	return prefixed >= 2 ? messages.join('') : null;
}

/**
 * The JSON in a paste: the whole text when it is JSON, else the first `{…}` inside it that is a
 * JSON object, as a logcat line carries it (`… D/TapLogin: onLoginSuccess: {…}`), or as several
 * logcat lines carry it once their prefixes are taken off. When neither, the whole text, for the
 * parser to report.
 */
export function pastedJson(text: string): PastedJson {
	requireText('text', text);
	const whole = { json: text, before: '', after: '' };
	try {
		JSON.parse(text);
		return whole;
	} catch {
		// Not JSON as a whole: look for an object inside.
	}
	const found = objectIn(text);
	if (found !== null) return found;
	const joined = logcatMessages(text);
	return (joined === null ? null : objectIn(joined)) ?? whole;
}

/** The first `{…}` in `text` that is a JSON object, with the text around it; null when none. */
function objectIn(text: string): PastedJson | null {
	let start = text.indexOf('{');
	for (let tries = 0; start >= 0 && tries < MAX_OBJECT_STARTS; tries++) {
		const end = objectEnd(text, start);
		const json = end < 0 ? '' : text.slice(start, end);
		try {
			if (json !== '' && isRecord(JSON.parse(json)))
				return { json, before: text.slice(0, start).trim(), after: text.slice(end).trim() };
		} catch {
			// Braces that are not JSON (a log's {tag}): try the next one.
		}
		start = text.indexOf('{', start + 1);
	}
	return null;
}

/**
 * Reads the SDK login result pasted as JSON. Accepts the object itself or one wrapped in `data`
 * (as the service wraps its bodies), snake_case or camelCase names, and the object inside a log
 * line (see pastedJson).
 */
export function parseCredential(text: string): Credential {
	requireText('credential', text);
	let json: unknown;
	try {
		json = JSON.parse(pastedJson(text).json);
	} catch {
		throw new MacInputError('credential', { code: 'not_json', params: {} });
	}
	const root = isRecord(json) && isRecord(json.data) && !('kid' in json) ? json.data : json;
	if (!isRecord(root))
		throw new MacInputError('credential', { code: 'not_json_object', params: {} });

	const issues: FieldIssue[] = [];
	const issue = (field: keyof Credential, detail: FieldIssueDetail): void => {
		issues.push({
			...detail,
			field,
			get message() {
				return describeMacError(detail);
			}
		});
	};
	const partial: Partial<Credential> = {};
	const pick = (field: keyof Credential): unknown =>
		ALIASES[field].map((name) => root[name]).find((v) => v !== undefined);

	for (const field of ['kid', 'access_token', 'token_type', 'mac_key', 'mac_algorithm'] as const) {
		const value = pick(field);
		if (value === undefined || value === null) {
			// access_token only repeats kid (spec §2.3), so its absence costs nothing.
			if (field !== 'access_token') issue(field, { code: 'missing', params: { field } });
		} else if (typeof value !== 'string') {
			issue(field, { code: 'credential_not_string', params: { field, kind: kindOf(value) } });
		} else if (value.trim() === '' && (field === 'kid' || field === 'mac_key')) {
			issue(field, { code: 'empty', params: { field } });
		} else {
			partial[field] = value;
		}
	}
	if (partial.mac_algorithm !== undefined && !isSupportedAlgorithm(partial.mac_algorithm)) {
		issue('mac_algorithm', {
			code: 'unsupported_algorithm',
			params: { algorithm: partial.mac_algorithm, supported: MAC_ALGORITHM }
		});
	}
	partial.access_token ??= partial.kid;

	const rawScopes = pick('scopes');
	const scopes = rawScopes === undefined ? [] : readScopes(rawScopes);
	if (scopes === null) issue('scopes', { code: 'bad_scopes', params: {} });
	else partial.scopes = scopes;

	if (issues.length > 0) throw new CredentialError(issues, partial);
	return partial as Credential;
}
