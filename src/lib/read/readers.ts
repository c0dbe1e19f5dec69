// Stage 1 of triage: a stream of bytes into signed requests, one chunk at a time, whatever the file
// holds. The format is told from the first bytes; nothing read ever throws out of here: a line or
// entry that cannot be read is an unreadable item and costs that line or entry alone; a file that
// stops being readable (a HAR broken or cut short, a stream that fails) or is refused (binary, an
// encoding not read) ends with one unreadable item that says where (`at`, a byte offset).
import { HarScanner, type HarScan } from './har-scanner';
import { harLoggedBaseString, macAuthorization, readHarEntry, readSigned } from './parse-har';
import { readLogLine, readNdjsonLine } from './read-lines';
import { LineSplitter, TextSource, linesOf } from './text-source';
import { gunzipped } from './gzip';
import type { TextEncoding } from './encoding';
import type { LogFormat, LoggedRequest, ReadItem, Unreadable, UnreadableCode } from './types';

/** How much of the start detection looks at, past the first character that is not white space. */
const SNIFF_LENGTH = 16_384;
/** Lines detection looks at, the first included. */
const SNIFF_LINES = 6;

/**
 * The format a file's start says: a JSON object whose first key is "log", or a lone `{` on the
 * first line followed by a name (a HAR printed with indentation) is a HAR; any other JSON object on
 * the first line starts NDJSON, and so do JSON objects on most of the next lines (the first one
 * being a heading or a line cut short); anything else is read as log lines. Null for a file of white
 * space only.
 */
export function detectFormat(start: string): LogFormat | null {
	const text = start.replace(/^\s+/, '');
	if (text === '') return null;
	if (text.startsWith('{')) {
		if (/^\{\s*"log"\s*:/.test(text)) return 'har';
		const lineEnd = text.search(/[\r\n]/);
		if (lineEnd === -1 || text.slice(0, lineEnd).trim() !== '{') return 'ndjson';
		// What follows a lone `{`: a name in a HAR; another object when the line is a record cut short.
		const next = text.slice(lineEnd).replace(/^\s+/, '').charAt(0);
		return next === '' || next === '"' || next === '}' ? 'har' : 'ndjson';
	}
	const next = text
		.split(/\r\n|\n|\r/, SNIFF_LINES)
		.slice(1)
		.map((line) => line.trim())
		.filter((line) => line !== '');
	const objects = next.filter((line) => line.startsWith('{')).length;
	return next.length >= 2 && objects * 2 > next.length ? 'ndjson' : 'log-lines';
}

/**
 * The MAC-signed requests of a paste of one request a line (NDJSON or log lines), read line by line
 * as a log on /triage is; null for a HAR or an empty paste.
 */
export function readLines(
	text: string
): { format: Exclude<LogFormat, 'har'>; requests: LoggedRequest[] } | null {
	const format = detectFormat(text.slice(0, SNIFF_LENGTH));
	if (format === null || format === 'har') return null;
	const read = format === 'ndjson' ? readNdjsonLine : readLogLine;
	const requests: LoggedRequest[] = [];
	const splitter = new LineSplitter();
	for (const line of [...splitter.feed(text), ...splitter.end()]) {
		const item = lineItem(line, read);
		if (item.kind === 'request') requests.push(item.request);
	}
	return { format, requests };
}

/** The line breaks in `text` from `from` on (CRLF is one). */
function breaksIn(text: string, from: number): number {
	let breaks = 0;
	for (let index = from; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === 0x0a || (code === 0x0d && text.charCodeAt(index + 1) !== 0x0a)) breaks += 1;
	}
	return breaks;
}

/**
 * Reads ahead until detection has seen enough, all of it to be read again. White space before the
 * first character is counted as lines by `splitter` and let go, so a file of blanks stays small.
 */
async function sniff(source: TextSource, splitter: LineSplitter): Promise<LogFormat | null> {
	let seen = '';
	let breaks = 0;
	while (seen === '' || (breaks < SNIFF_LINES && seen.length < SNIFF_LENGTH)) {
		let piece: string | null;
		try {
			piece = await source.peek();
		} catch (error) {
			// The stream failed: the reader says so after what came before it.
			if (seen === '') throw error;
			break;
		}
		if (piece === null) break;
		if (seen === '') {
			const first = piece.search(/\S/);
			if (first === -1) {
				splitter.feed(piece);
				source.dropAhead();
				continue;
			}
			breaks += breaksIn(piece, first);
		} else breaks += breaksIn(piece, 0);
		seen += piece;
	}
	return detectFormat(seen);
}

export interface Reading {
	/** The format detected; null when there is nothing to read (empty, or refused: see items). */
	format: LogFormat | null;
	/** The file holds nothing: no bytes, or white space only (a byte-order mark counts as none). */
	empty: boolean;
	/**
	 * The items, a chunk's worth at a time. Never throws; the item that ends the reading early (or
	 * refuses the file) is the last, its `at` the byte offset where reading stopped.
	 */
	items: AsyncGenerator<ReadItem[]>;
	source: TextSource;
}

/**
 * A part of a file of lines whose start told its encoding and format already (the triage's pool
 * reads a log a part at a time): its lines are numbered on from `linesBefore`, nothing is sniffed.
 */
export interface LinesPart {
	format: Exclude<LogFormat, 'har'>;
	encoding: TextEncoding;
	linesBefore: number;
}

/** Detects the format, then reads the stream's requests (or a part's, as it says). */
export async function readRequests(
	stream: ReadableStream<Uint8Array>,
	part?: LinesPart
): Promise<Reading> {
	if (part !== undefined) {
		const source = new TextSource(stream, part.encoding);
		const splitter = new LineSplitter(undefined, part.linesBefore);
		const read = part.format === 'ndjson' ? readNdjsonLine : readLogLine;
		return { format: part.format, empty: false, source, items: lineItems(source, splitter, read) };
	}
	// A log rotated as .gz is read as the log inside.
	const source = new TextSource(gunzipped(stream));
	const splitter = new LineSplitter();
	let format: LogFormat | null;
	try {
		format = await sniff(source, splitter);
	} catch {
		return { format: null, empty: false, source, items: failed(source, 0) };
	}
	const { refused } = source;
	if (refused !== null) {
		const unreadable: Unreadable = { number: 0, code: refused.refused, at: refused.at };
		if (refused.found !== '') unreadable.found = refused.found;
		return {
			format: null,
			empty: false,
			source,
			items: once([{ kind: 'unreadable', unreadable }])
		};
	}
	const items =
		format === 'har'
			? harItems(source)
			: format === null
				? once([])
				: lineItems(source, splitter, format === 'ndjson' ? readNdjsonLine : readLogLine);
	return { format, empty: format === null, source, items };
}

async function* once(items: ReadItem[]): AsyncGenerator<ReadItem[]> {
	if (items.length > 0) yield items;
}

/** The stream failed: the item that says so, at the record reading had reached. */
async function* failed(source: TextSource, number: number): AsyncGenerator<ReadItem[]> {
	const unreadable: Unreadable = { number, code: 'read-failed', at: source.bytesRead };
	yield [{ kind: 'unreadable', unreadable }];
}

const unreadable = (number: number, code: UnreadableCode): ReadItem => ({
	kind: 'unreadable',
	unreadable: { number, code }
});

/**
 * One line: a line too long, a blank one, or what its reader says. A reader that throws costs its
 * line alone (no reader is meant to: this is the guard that one bad line costs one line).
 */
function lineItem(
	line: { number: number; text: string; tooLong: boolean },
	read: (number: number, line: string) => ReadItem
): ReadItem {
	if (line.tooLong) return unreadable(line.number, 'too-long');
	// NUL bytes (a log cut short by a crash is padded with them) cost the line they fall in: a line
	// that would hold a request without them is unreadable; padding alone, or other text, is skipped.
	const text = line.text.includes('\0') ? line.text.replaceAll('\0', '') : line.text;
	if (text.trim() === '') return { kind: 'skipped', number: line.number };
	try {
		const item = read(line.number, text);
		return text === line.text || item.kind === 'skipped'
			? item
			: unreadable(line.number, 'nul-bytes');
	} catch {
		return unreadable(line.number, 'read-failed');
	}
}

async function* lineItems(
	source: TextSource,
	splitter: LineSplitter,
	read: (number: number, line: string) => ReadItem
): AsyncGenerator<ReadItem[]> {
	let last = 0;
	try {
		for await (const lines of linesOf(source, splitter)) {
			// Made by push, not by map(): see search.ts's singles (the triage's loop over the items was
			// compiled again when this one was).
			const items: ReadItem[] = [];
			for (const line of lines) items.push(lineItem(line, read));
			last = lines.at(-1)?.number ?? last;
			yield items;
		}
	} catch {
		yield* failed(source, last + 1);
	}
}

/** One HAR entry (its own JSON text, from the scanner) into a logged request, as /verify reads it. */
function harEntryItem(number: number, text: string): ReadItem {
	const entry = readHarEntry(number, text);
	if (entry.kind === 'unreadable') return unreadable(number, entry.code);
	if (entry.kind === 'other') return { kind: 'skipped', number };
	const read = readSigned(entry.signed, []);
	const authorization = macAuthorization(read.headers);
	if (authorization === undefined) return { kind: 'skipped', number };
	if (read.url === undefined) return unreadable(number, 'no-url');
	return {
		kind: 'request',
		request: {
			number,
			method: read.method,
			url: read.url,
			authorization: authorization.value,
			uriForm: 'browser',
			status: read.status,
			sentAt: read.sentAt ?? null,
			loggedBaseString: harLoggedBaseString(entry.signed)
		}
	};
}

/** What the scanner found, read; a stop says at which byte of the file. */
function harItem(scan: HarScan, source: TextSource): ReadItem {
	if (scan.kind === 'unreadable') return unreadable(scan.number, scan.code);
	if (scan.kind === 'stop') {
		const at = scan.index < 0 ? source.bytesRead : source.offsetOf(scan.index);
		return { kind: 'unreadable', unreadable: { number: scan.number, code: scan.code, at } };
	}
	try {
		return harEntryItem(scan.number, scan.text);
	} catch {
		return unreadable(scan.number, 'read-failed');
	}
}

async function* harItems(source: TextSource): AsyncGenerator<ReadItem[]> {
	const scanner = new HarScanner();
	try {
		for (let piece = await source.next(); piece !== null; piece = await source.next()) {
			const items = scanner.feed(piece).map((scan) => harItem(scan, source));
			if (items.length > 0) yield items;
		}
		const tail = scanner.end().map((scan) => harItem(scan, source));
		if (tail.length > 0) yield tail;
	} catch {
		yield* failed(source, scanner.current);
	}
}
