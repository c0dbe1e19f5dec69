import { isErrorCode, type ErrorCode } from '$lib/account-api/error-codes';
import { seededRandom } from './seeded-random.js';

/**
 * Faults the sandbox server injects (`--fault CODE:first=N`, `CODE:rate=P`, `CODE:kid=K`): the
 * answer of an error of spec §7 instead of the service's, to test how a client copes. Random
 * choices come from a seeded generator, so two runs given the same requests fail the same ones.
 */
export type FaultRule =
	| { code: ErrorCode; first: number; spec: string }
	| { code: ErrorCode; rate: number; spec: string }
	| { code: ErrorCode; kid: string; spec: string };

/** Reads one `--fault` value; a message instead when it is not one. */
export function parseFault(text: string): FaultRule | string {
	const colon = text.indexOf(':');
	const code = colon < 0 ? text : text.slice(0, colon);
	if (!isErrorCode(code))
		return `--fault ${text}: ${JSON.stringify(code)} is not an error code of the spec (invalid_request, invalid_time, invalid_client, access_denied, forbidden, not_found, server_error)`;
	const rule = text.slice(colon + 1);
	const equals = rule.indexOf('=');
	const [name, value] = equals < 0 ? [rule, ''] : [rule.slice(0, equals), rule.slice(equals + 1)];
	if (colon < 0 || equals < 0 || value === '')
		return `--fault ${text}: say which requests, as ${code}:first=N, ${code}:rate=P or ${code}:kid=K`;
	if (name === 'first') {
		const first = Number(value);
		if (!/^\d+$/.test(value) || !Number.isSafeInteger(first))
			return `--fault ${text}: first= takes a whole number`;
		return { code, first, spec: text };
	}
	if (name === 'rate') {
		const rate = Number(value);
		if (!/^(?:0|1|0?\.\d+|1\.0*)$/.test(value) || rate < 0 || rate > 1)
			return `--fault ${text}: rate= takes a probability from 0 to 1`;
		return { code, rate, spec: text };
	}
	if (name === 'kid') return { code, kid: value, spec: text };
	return `--fault ${text}: ${JSON.stringify(name)} is not first, rate or kid`;
}

/** Decides, request by request, which fault (if any) a request gets. */
export class Faults {
	/** Requests seen per kid, for `first=`; bounded by the accounts a client can name. */
	#seen = new Map<string, number>();
	readonly #random: () => number;

	constructor(
		readonly rules: readonly FaultRule[],
		seed: number
	) {
		this.#random = seededRandom(seed);
	}

	/**
	 * The fault for the next request of `kid` ('' when its header names none), or null. Every rate
	 * rule draws once per request, whichever rule wins, so the draws depend on the requests alone.
	 */
	next(kid: string): FaultRule | null {
		if (this.rules.length === 0) return null;
		const count = (this.#seen.get(kid) ?? 0) + 1;
		// An unknown kid's count is kept too; a flood of made-up kids is capped by forgetting them all.
		if (this.#seen.size >= 100_000 && !this.#seen.has(kid)) this.#seen.clear();
		this.#seen.set(kid, count);
		let chosen: FaultRule | null = null;
		for (const rule of this.rules) {
			const hit =
				'first' in rule
					? count <= rule.first
					: 'rate' in rule
						? this.#random() < rule.rate
						: rule.kid === kid;
			chosen ??= hit ? rule : null;
		}
		return chosen;
	}
}
