// Requests signed with node:crypto (not the core under test), written as a HAR entry, an NDJSON
// line and a log line, and the triage engine run over bytes: what the record tests feed the readers.
import { createHmac } from 'node:crypto';
import { triage, type TriageSummary, type VerdictRecord } from '$lib/triage';

export const KID = 'kid-records-01';
export const KEY = 'records-mac-key-0123456789';
export const KEYS = `${KID} ${KEY}`;
const HOST = 'open.tapapis.cn';
const TS = '1763800000';

/** The MAC header of request `n` (its own nonce and path), signed as the spec says. */
export function header(n: number): string {
	const nonce = `nonce${n}`;
	const base = `${TS}\n${nonce}\nGET\n${path(n)}\n${HOST}\n443\n\n`;
	const mac = createHmac('sha1', KEY).update(base, 'utf8').digest('base64');
	return `MAC id="${KID}",ts="${TS}",nonce="${nonce}",mac="${mac}"`;
}

const path = (n: number) => `/account/profile/v1?client_id=c${n}`;
export const url = (n: number) => `https://${HOST}${path(n)}`;

/** A HAR entry as devtools writes it, with a response body. */
export function harEntry(n: number): object {
	return {
		// When ts was signed: sent within the window, so a right signature is a match.
		startedDateTime: '2025-11-22T08:26:40.123Z',
		request: {
			method: 'GET',
			url: url(n),
			headers: [{ name: 'Authorization', value: header(n) }]
		},
		response: { status: 200, content: { mimeType: 'application/json', text: '{"ok":[1]}' } }
	};
}

/** A HAR whose entries are these JSON texts, in order. */
export const harOf = (entries: string[]) =>
	`{"log":{"version":"1.2","creator":{"name":"test"},"entries":[${entries.join(',')}]}}`;

/** `count` signed entries, entry `bad` replaced by the text given. */
export function harWithBad(count: number, bad: number, badText: string): string {
	return harOf(
		Array.from({ length: count }, (_, index) =>
			index + 1 === bad ? badText : JSON.stringify(harEntry(index + 1))
		)
	);
}

export const ndjsonLine = (n: number) =>
	JSON.stringify({ method: 'GET', url: url(n), authorization: header(n), status: 200 });

export const logLine = (n: number) =>
	`2025-11-22 08:26:40,118 INFO GET ${url(n)} status=200 Authorization: ${header(n)}`;

/** The bytes as a stream, `size` bytes a chunk (a file is read 64 KiB at a time). */
export function streamOf(bytes: Uint8Array, size = 65_536): ReadableStream<Uint8Array> {
	let at = 0;
	return new ReadableStream({
		pull(controller) {
			if (at >= bytes.length) controller.close();
			else {
				controller.enqueue(bytes.slice(at, at + size));
				at += size;
			}
		}
	});
}

export interface Run {
	summary: TriageSummary;
	records: VerdictRecord[];
}

/** Triage of `input` (text is written as UTF-8) with the keys above, every verdict kept. */
export async function run(input: string | Uint8Array, size?: number): Promise<Run> {
	const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
	const records: VerdictRecord[] = [];
	const summary = await triage(streamOf(bytes, size), KEYS, {
		onVerdicts: (batch) => void records.push(...batch)
	});
	return { summary, records };
}

/** The records as the rows a person reads: verdicts counted, unreadable ones by number and reason. */
export function rows({ records }: Run) {
	const unreadable = records
		.filter((record) => record.verdict === 'unreadable')
		.map((record) => ({ number: record.number, code: record.unreadable?.code }));
	const matches = records.filter((record) => record.verdict === 'match').length;
	return { verdicts: records.length - unreadable.length, matches, unreadable };
}
