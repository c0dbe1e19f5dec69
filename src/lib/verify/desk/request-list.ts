// The list of a paste that holds several signed requests: each one's verdict against the mac_key,
// and which one the desk opens first.
import {
	attempt,
	baseString,
	hmac,
	requestTarget,
	type BaseStringInput,
	type RequestTarget
} from '$lib/mac';
import type { ListedRequest, SignedRequest } from '$lib/read/parse-signed-request';
import { clockCheck } from '$lib/diagnosis/clock-check';
import { refusalOf, refusalUncertain } from '$lib/diagnosis/service-answer';

/**
 * A listed request's verdict: 'no-key' until a mac_key is given, 'no-key-for-kid' for a request of
 * another kid than the key's (a paste of several kids), 'unreadable' when it cannot be checked.
 */
export type ListedVerdict =
	| 'match'
	/** The signature is right, but the service would refuse it (service-answer.ts). */
	| 'refused'
	/** The signature is right, but its nonce an earlier request used: the spec does not say. */
	| 'refused-maybe'
	| 'mismatch'
	| 'no-key'
	| 'no-key-for-kid'
	| 'unreadable';

/** The base string's inputs as the customer should have signed them, from their own header and URL. */
export function expectedInputOf(request: SignedRequest, target: RequestTarget): BaseStringInput {
	return {
		ts: request.authorization.ts,
		nonce: request.authorization.nonce,
		method: (request.method ?? 'GET').toUpperCase(),
		uri: target.uri,
		host: target.host,
		port: target.port,
		ext: request.authorization.ext ?? ''
	};
}

/** Whether a listed request's mac is the one its own header, URL and the mac_key give. */
export async function listedVerdict(listed: ListedRequest, macKey: string): Promise<ListedVerdict> {
	if (!listed.parsed.ok) return 'unreadable';
	const request = listed.parsed.value;
	if (request.url === undefined) return 'unreadable';
	const url = request.url;
	const target = attempt(() => requestTarget(url, { uri: request.uriForm }));
	if (!target.ok) return 'unreadable';
	if (macKey === '') return 'no-key';
	try {
		const expected = await hmac(macKey, baseString(expectedInputOf(request, target.value)));
		return expected.base64 === request.authorization.mac.trim() ? 'match' : 'mismatch';
	} catch {
		// A mac_key the core refuses: the desk says why under the field.
		return 'no-key';
	}
}

/**
 * The verdicts of a list, in its order: a right signature the service would refuse is 'refused'
 * (its window judged against its logged time only, its nonce against the requests before it), as
 * the desk judges the request it opens.
 */
export async function listedVerdicts(
	requests: readonly ListedRequest[],
	macKey: string,
	nowMs = Date.now()
): Promise<ListedVerdict[]> {
	const verdicts = await Promise.all(requests.map((listed) => listedVerdict(listed, macKey)));
	const used = new Map<string, number>();
	return verdicts.map((verdict, index) => {
		const listed = requests[index];
		if (!listed?.parsed.ok) return verdict;
		const { authorization, sentAt } = listed.parsed.value;
		const pair = `${authorization.id}\n${authorization.nonce}`;
		const first = used.get(pair) ?? null;
		if (first === null) used.set(pair, listed.number);
		if (verdict !== 'match') return verdict;
		const refusal = refusalOf({
			ts: authorization.ts,
			ext: authorization.ext,
			outsideWindow: sentAt
				? clockCheck(authorization.ts, nowMs, undefined, sentAt).likelyInvalidTime
				: null,
			nonceFirstUsedAt: first,
			headerFormat: listed.parsed.value.headerFormat ?? null
		});
		if (refusal === null) return verdict;
		return refusalUncertain(refusal) ? 'refused-maybe' : 'refused';
	});
}

/** Whether the mac_key gave the listed request's mac: a match, or a right signature refused. */
export function signedRight(verdict: ListedVerdict | undefined): boolean {
	return verdict === 'match' || verdict === 'refused' || verdict === 'refused-maybe';
}

/**
 * The request to open first: the first whose mac does not match, else the first the service would
 * refuse though its signature is right; without verdicts (no mac_key yet),
 * the first the server refused (a status of 400 or more); else the first.
 */
export function firstToOpen(
	requests: readonly ListedRequest[],
	verdicts: readonly ListedVerdict[] | null
): number | null {
	const mismatch = verdicts?.findIndex((verdict) => verdict === 'mismatch') ?? -1;
	if (mismatch >= 0) return requests[mismatch]?.number ?? null;
	const refusedRight =
		verdicts?.findIndex((verdict) => signedRight(verdict) && verdict !== 'match') ?? -1;
	if (refusedRight >= 0) return requests[refusedRight]?.number ?? null;
	const refused = requests.find((listed) => listed.status !== null && listed.status >= 400);
	return (refused ?? requests[0])?.number ?? null;
}

/** The kid a listed request's header names; null when its header cannot be read. */
export function kidOf(listed: ListedRequest): string | null {
	return listed.parsed.ok ? listed.parsed.value.authorization.id : null;
}

/**
 * Which kid the mac_key is for, in a paste of requests from several kids: the one kid whose requests
 * it matches; when it matches none, the kid of the request the agent opened (`chosen`), else of the
 * first request. Null for a paste of one kid, before a key is given, or when the key matches the
 * requests of more than one kid (then no kid is told it has no key).
 */
export function keyKidOf(
	requests: readonly ListedRequest[],
	verdicts: readonly ListedVerdict[] | null,
	chosen: number | null
): string | null {
	const kids = new Set(requests.map(kidOf).filter((kid) => kid !== null));
	if (kids.size < 2 || verdicts === null || verdicts.every((verdict) => verdict === 'no-key'))
		return null;
	const matched = new Set(requests.filter((_, index) => signedRight(verdicts[index])).map(kidOf));
	if (matched.size > 1) return null;
	const [only] = matched;
	if (only !== undefined) return only;
	const opened = requests.find((listed) => listed.number === chosen) ?? requests[0];
	return opened ? kidOf(opened) : null;
}

/** The verdicts with each request of another kid than the key's said to have no key for its kid. */
export function verdictsForKeyKid(
	requests: readonly ListedRequest[],
	verdicts: readonly ListedVerdict[],
	keyKid: string | null
): ListedVerdict[] {
	if (keyKid === null) return [...verdicts];
	return verdicts.map((verdict, index) => {
		const listed = requests[index];
		const kid = listed ? kidOf(listed) : null;
		return verdict === 'mismatch' && kid !== null && kid !== keyKid ? 'no-key-for-kid' : verdict;
	});
}
