import { SCOPES } from '$lib/account-api/operations';
import { givenToken, type SandboxToken } from '$lib/sandbox/state';

/** One account of `--accounts FILE`, as --help (options.ts) documents it. */
export interface AccountRecord {
	kid: string;
	mac_key: string;
	client_id: string;
	scopes: string[];
	/** `active` when left out. */
	state?: 'active' | 'revoked';
	openid?: string;
	unionid?: string;
	name?: string;
	avatar?: string;
}

const REQUIRED = ['kid', 'mac_key', 'client_id', 'scopes'] as const;
const OPTIONAL = ['state', 'openid', 'unionid', 'name', 'avatar'] as const;
const FIELDS = new Set<string>([...REQUIRED, ...OPTIONAL]);

/**
 * The sandbox's tokens from an accounts file's text, or the message that refuses it, naming the file,
 * the account (1 for the first) and the field: `accounts.json: account 3: mac_key is missing`.
 */
export function readAccounts(text: string, file: string): SandboxToken[] | string {
	let json: unknown;
	try {
		json = JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch (error) {
		return `${file}: not JSON (${(error as Error).message})`;
	}
	if (!Array.isArray(json)) return `${file}: not a JSON array of accounts`;
	if (json.length === 0) return `${file}: the array holds no account`;
	const tokens: SandboxToken[] = [];
	const kids = new Map<string, number>();
	for (const [index, account] of json.entries()) {
		const at = `${file}: account ${index + 1}`;
		if (typeof account !== 'object' || account === null || Array.isArray(account))
			return `${at}: not an object`;
		const record = account as Record<string, unknown>;
		const unknown = Object.keys(record).find((name) => !FIELDS.has(name));
		if (unknown !== undefined)
			return `${at}: ${JSON.stringify(unknown)} is not a field (${[...FIELDS].join(', ')})`;
		for (const field of REQUIRED) if (!(field in record)) return `${at}: ${field} is missing`;
		for (const field of ['kid', 'mac_key', 'client_id'] as const) {
			const value = record[field];
			if (typeof value !== 'string') return `${at}: ${field} must be a string`;
			if (value === '') return `${at}: ${field} is empty`;
		}
		for (const field of ['openid', 'unionid', 'name', 'avatar'] as const) {
			if (field in record && typeof record[field] !== 'string')
				return `${at}: ${field} must be a string`;
		}
		const scopes = record.scopes;
		if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string'))
			return `${at}: scopes must be an array of strings`;
		const unknownScope = scopes.find((scope) => !(SCOPES as readonly string[]).includes(scope));
		if (unknownScope !== undefined)
			return `${at}: scopes: ${JSON.stringify(unknownScope)} is not ${SCOPES.join(' or ')}`;
		const state = record.state ?? 'active';
		if (state !== 'active' && state !== 'revoked')
			return `${at}: state must be "active" or "revoked"`;
		const kid = record.kid as string;
		const earlier = kids.get(kid);
		if (earlier !== undefined) return `${at}: kid is also account ${earlier}'s`;
		kids.set(kid, index + 1);
		tokens.push(
			givenToken({
				kid,
				macKey: record.mac_key as string,
				clientId: record.client_id as string,
				scopes: scopes as string[],
				revoked: state === 'revoked',
				identity: {
					openid: record.openid as string | undefined,
					unionid: record.unionid as string | undefined,
					name: record.name as string | undefined,
					avatar: record.avatar as string | undefined
				}
			})
		);
	}
	return tokens;
}
