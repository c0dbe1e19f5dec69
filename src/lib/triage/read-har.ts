// One HAR entry (its own JSON text, from the scanner) into a logged request. What /verify reads from
// an entry (the method, the URL rebuilt from HTTP/2's :path, the headers, startedDateTime) is read
// by its own reader, parseHar, given a HAR of this one entry.
import { MacInputError } from '$lib/mac';
import { parseHar } from '$lib/verify/paste/parse-har';
import { isObject, member } from '$lib/verify/paste/parsed-request';
import type { ReadItem } from './types';

const isMacAuthorization = (header: { name: string; value: string }) =>
	header.name.toLowerCase() === 'authorization' && /^mac(?:\s|$)/i.test(header.value.trim());

/** A HAR records 0 for a request that got no answer; that is no status. */
function statusOf(entry: Record<string, unknown>): number | null {
	const response = member(entry, 'response');
	const status = isObject(response) ? member(response, 'status') : undefined;
	return typeof status === 'number' && Number.isInteger(status) && status > 0 ? status : null;
}

export function readHarEntry(number: number, text: string): ReadItem {
	let entry: unknown;
	try {
		entry = JSON.parse(text);
	} catch {
		return { kind: 'unreadable', unreadable: { number, code: 'not-json' } };
	}
	if (!isObject(entry)) return { kind: 'unreadable', unreadable: { number, code: 'not-object' } };
	const request = member(entry, 'request');
	if (!isObject(request)) return { kind: 'unreadable', unreadable: { number, code: 'no-request' } };
	// Only what parseHar reads goes in: the request (bodies already left out) and its time.
	const one = JSON.stringify({
		log: { entries: [{ request, startedDateTime: member(entry, 'startedDateTime') }] }
	});
	let parsed: ReturnType<typeof parseHar>;
	try {
		parsed = parseHar(one);
	} catch (error) {
		// parseHar fails a one-entry HAR only when that entry is not signed with MAC.
		if (error instanceof MacInputError) return { kind: 'skipped', number };
		throw error;
	}
	const authorization = parsed.headers.find(isMacAuthorization);
	if (authorization === undefined) return { kind: 'skipped', number };
	if (parsed.url === undefined)
		return { kind: 'unreadable', unreadable: { number, code: 'no-url' } };
	return {
		kind: 'request',
		request: {
			number,
			method: parsed.method,
			url: parsed.url,
			authorization: authorization.value,
			uriForm: 'browser',
			status: statusOf(entry),
			sentAt: parsed.sentAt ?? null,
			loggedBaseString: null
		}
	};
}
