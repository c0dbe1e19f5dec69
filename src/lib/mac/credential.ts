import { MacInputError, requireText } from './errors';
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

export interface FieldIssue {
	field: keyof Credential;
	message: string;
}

/** Thrown by parseCredential: every bad field, and the good ones so a page can still fill those. */
export class CredentialError extends MacInputError {
	override name = 'CredentialError';
	constructor(
		readonly issues: FieldIssue[],
		readonly partial: Partial<Credential>
	) {
		super(issues[0]?.field ?? 'credential', issues.map((issue) => issue.message).join(' '));
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

/**
 * Reads the SDK login result pasted as JSON. Accepts the object itself or one wrapped in `data`
 * (as the service wraps its bodies), snake_case or camelCase names.
 */
export function parseCredential(text: string): Credential {
	requireText('credential', text);
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new MacInputError(
			'credential',
			'This is not JSON: paste the login result object, {"kid": …, "mac_key": …}.'
		);
	}
	const root = isRecord(json) && isRecord(json.data) && !('kid' in json) ? json.data : json;
	if (!isRecord(root))
		throw new MacInputError(
			'credential',
			'Expected a JSON object with kid, mac_key and the other login fields.'
		);

	const issues: FieldIssue[] = [];
	const partial: Partial<Credential> = {};
	const pick = (field: keyof Credential): unknown =>
		ALIASES[field].map((name) => root[name]).find((v) => v !== undefined);

	for (const field of ['kid', 'access_token', 'token_type', 'mac_key', 'mac_algorithm'] as const) {
		const value = pick(field);
		if (value === undefined || value === null) {
			// access_token only repeats kid (spec §2.3), so its absence costs nothing.
			if (field !== 'access_token') issues.push({ field, message: `${field} is missing.` });
		} else if (typeof value !== 'string') {
			issues.push({
				field,
				message: `${field} must be a string, not ${Array.isArray(value) ? 'an array' : typeof value}.`
			});
		} else if (value.trim() === '' && (field === 'kid' || field === 'mac_key')) {
			issues.push({ field, message: `${field} is empty.` });
		} else {
			partial[field] = value;
		}
	}
	if (partial.mac_algorithm !== undefined && !isSupportedAlgorithm(partial.mac_algorithm)) {
		issues.push({
			field: 'mac_algorithm',
			message: `mac_algorithm "${partial.mac_algorithm}" is not supported: the service signs with ${MAC_ALGORITHM}.`
		});
	}
	partial.access_token ??= partial.kid;

	const rawScopes = pick('scopes');
	const scopes = rawScopes === undefined ? [] : readScopes(rawScopes);
	if (scopes === null)
		issues.push({
			field: 'scopes',
			message: 'scopeSet must be a list of strings such as ["basic_info"].'
		});
	else partial.scopes = scopes;

	if (issues.length > 0) throw new CredentialError(issues, partial);
	return partial as Credential;
}
