// Stage 1 of triage: a stream of bytes into signed requests, one chunk at a time, whatever the file
// holds. The format is told from the first bytes; nothing read ever throws out of here: a line that
// cannot be read is an unreadable item, and so is a stream that fails.
import { MacInputError } from '$lib/mac';
import { harStatus, parseHar } from '$lib/read/parse-har';
import { isObject, member } from '$lib/read/parsed-request';
import { HarScanner, type HarScan } from './har-scanner';
import { readLogLine, readNdjsonLine } from './read-lines';
import { TextSource, linesOf } from './text-source';
import type { LogFormat, LoggedRequest, ReadItem } from './types';

/** How much of the start detection looks at, past the first character that is not white space. */
const SNIFF_LENGTH = 256;

/**
 * The format a file's start says: a JSON object whose first key is "log", or a lone `{` on the
 * first line (a HAR printed with indentation) is a HAR; any other JSON object on the first line
 * starts NDJSON; anything else is read as log lines. Null for a file of white space only.
 */
export function detectFormat(start: string): LogFormat | null {
	const text = start.replace(/^\s+/, '');
	if (text === '') return null;
	if (!text.startsWith('{')) return 'log-lines';
	if (/^\{\s*"log"\s*:/.test(text)) return 'har';
	const firstLine = text.slice(0, (text.indexOf('\n') + 1 || text.length + 1) - 1).trim();
	return firstLine === '{' ? 'har' : 'ndjson';
}

/**
 * The MAC-signed requests of a paste of one request a line (NDJSON or log lines), read line by line
 * as a log on /triage is; null for a HAR or an empty paste.
 */
export function readLines(
	text: string
): { format: Exclude<LogFormat, 'har'>; requests: LoggedRequest[] } | null {
	const format = detectFormat(text.slice(0, 4096));
	if (format === null || format === 'har') return null;
	const read = format === 'ndjson' ? readNdjsonLine : readLogLine;
	const requests: LoggedRequest[] = [];
	text.split(/\r\n|\n|\r/).forEach((line, index) => {
		const item = read(index + 1, line);
		if (item.kind === 'request') requests.push(item.request);
	});
	return { format, requests };
}

/** Reads until detection has seen enough, then puts it all back. */
async function sniff(source: TextSource): Promise<LogFormat | null> {
	let seen = '';
	for (;;) {
		const trimmed = seen.replace(/^\s+/, '');
		const enough = trimmed.length > SNIFF_LENGTH || (trimmed.length > 0 && trimmed.includes('\n'));
		if (enough) break;
		const next = await source.next();
		if (next === null) break;
		seen += next;
		// White space alone is dropped as it comes, so a hostile file of blanks stays small here.
		if (seen.trim() === '' && seen.length > SNIFF_LENGTH) seen = '';
	}
	source.unshift(seen);
	return detectFormat(seen);
}

export interface Reading {
	format: LogFormat | null;
	/** The items, a chunk's worth at a time. Never throws; a failing stream ends with 'read-failed'. */
	items: AsyncGenerator<ReadItem[]>;
	source: TextSource;
}

/** Detects the format, then reads the stream's requests. */
export async function readRequests(stream: ReadableStream<Uint8Array>): Promise<Reading> {
	const source = new TextSource(stream);
	let format: LogFormat | null;
	try {
		format = await sniff(source);
	} catch {
		return { format: null, source, items: failed(0) };
	}
	const items =
		format === 'har'
			? harItems(source)
			: format === null
				? empty()
				: lineItems(source, format === 'ndjson' ? readNdjsonLine : readLogLine);
	return { format, source, items };
}

async function* empty(): AsyncGenerator<ReadItem[]> {}

async function* failed(number: number): AsyncGenerator<ReadItem[]> {
	yield [{ kind: 'unreadable', unreadable: { number, code: 'read-failed' } }];
}

async function* lineItems(
	source: TextSource,
	read: (number: number, line: string) => ReadItem
): AsyncGenerator<ReadItem[]> {
	let last = 0;
	try {
		for await (const lines of linesOf(source)) {
			const items: ReadItem[] = [];
			for (const line of lines) {
				last = line.number;
				if (line.tooLong)
					items.push({ kind: 'unreadable', unreadable: { number: line.number, code: 'too-long' } });
				else if (line.text.trim() === '') items.push({ kind: 'skipped', number: line.number });
				else items.push(read(line.number, line.text));
			}
			yield items;
		}
	} catch {
		yield* failed(last + 1);
	}
}

// One HAR entry (its own JSON text, from the scanner) into a logged request. What /verify reads
// from an entry (the method, the URL rebuilt from HTTP/2's :path, the headers, startedDateTime) is
// read by its own reader, parseHar, given a HAR of this one entry.
const isMacAuthorization = (header: { name: string; value: string }) =>
	header.name.toLowerCase() === 'authorization' && /^mac(?:\s|$)/i.test(header.value.trim());

/** A HAR records 0 for a request that got no answer; that is no status. */
function readHarEntry(number: number, text: string): ReadItem {
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
			status: harStatus(entry),
			sentAt: parsed.sentAt ?? null,
			loggedBaseString: null
		}
	};
}

function harItem(scan: HarScan): ReadItem {
	return scan.kind === 'entry'
		? readHarEntry(scan.number, scan.text)
		: { kind: 'unreadable', unreadable: { number: scan.number, code: scan.code } };
}

async function* harItems(source: TextSource): AsyncGenerator<ReadItem[]> {
	const scanner = new HarScanner();
	let last = 0;
	try {
		for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
			const items = scanner.feed(chunk).map(harItem);
			for (const item of items) last = item.kind === 'request' ? item.request.number : last;
			if (items.length > 0) yield items;
		}
		const tail = scanner.end().map(harItem);
		if (tail.length > 0) yield tail;
	} catch {
		yield* failed(last + 1);
	}
}
