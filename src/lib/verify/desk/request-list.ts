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

/** A listed request's verdict: 'no-key' until a mac_key is given, 'unreadable' when it cannot be checked. */
export type ListedVerdict = 'match' | 'mismatch' | 'no-key' | 'unreadable';

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

/** The verdicts of a list, in its order. */
export function listedVerdicts(
	requests: readonly ListedRequest[],
	macKey: string
): Promise<ListedVerdict[]> {
	return Promise.all(requests.map((listed) => listedVerdict(listed, macKey)));
}

/**
 * The request to open first: the first whose mac does not match; without verdicts (no mac_key yet),
 * the first the server refused (a status of 400 or more); else the first.
 */
export function firstToOpen(
	requests: readonly ListedRequest[],
	verdicts: readonly ListedVerdict[] | null
): number | null {
	const mismatch = verdicts?.findIndex((verdict) => verdict === 'mismatch') ?? -1;
	if (mismatch >= 0) return requests[mismatch]?.number ?? null;
	const refused = requests.find((listed) => listed.status !== null && listed.status >= 400);
	return (refused ?? requests[0])?.number ?? null;
}
