// A file that is not what it claims (issue 23 §2): huge, binary, compressed, in another encoding,
// cut short, or empty. Each ends in bounded memory with a message saying what was found and where
// reading stopped, and what was read before that point is reported, never dropped. 150 MB of `[`, read
// in a process of its own: tests/integration/records-flood.test.ts.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeText } from '$lib/read';
import { parseSignedRequests } from '$lib/read/parse-signed-request';
import { parseKeys } from '$lib/triage';
import { harEntry, harOf, logLine, ndjsonLine, rows, run } from './records-fixtures';
import { thrownEnglish } from './verify-english';
import { triage } from '$lib/triage';

const utf8 = (text: string) => new TextEncoder().encode(text);

const MB = 1 << 20;

/** Bytes from a seeded generator (xorshift), NULs among them: the same every run. */
function randomBytes(length: number, seed = 0x2545f491): Uint8Array {
	const bytes = new Uint8Array(length);
	let state = seed;
	for (let index = 0; index < length; index++) {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		bytes[index] = state & 0xff;
	}
	return bytes;
}

describe('a file that is not text', () => {
	it('binary data is refused at once, naming the byte of its first NUL', async () => {
		const bytes = randomBytes(MB);
		const result = await run(bytes);
		expect(result.summary).toMatchObject({
			format: null,
			empty: false,
			stopped: { number: 0, code: 'binary', at: bytes.indexOf(0) }
		});
		expect(rows(result)).toEqual({
			verdicts: 0,
			matches: 0,
			unreadable: [{ number: 0, code: 'binary' }]
		});
	});

	it('150 MB of binary data is not read past its first chunk: the stream is let go', async () => {
		let pulled = 0;
		const endless = new ReadableStream<Uint8Array>({
			pull(controller) {
				pulled += 1;
				if (pulled > 150) controller.close();
				else controller.enqueue(randomBytes(MB, pulled));
			}
		});
		const summary = await triage(endless, 'kid key');
		expect(summary.stopped?.code).toBe('binary');
		expect(summary.bytesRead).toBeLessThanOrEqual(2 * MB);
	});

	it.each([
		['zip', Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0)],
		['zstd', Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05)],
		['xz', Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04)]
	])('a %s file is refused by name', async (found, bytes) => {
		const { summary } = await run(bytes);
		expect(summary.stopped).toEqual({ number: 0, code: 'compressed', at: 0, found });
		expect(summary.format).toBeNull();
	});

	it.each([
		['UTF-32LE', [0xff, 0xfe, 0x00, 0x00]],
		['UTF-32BE', [0x00, 0x00, 0xfe, 0xff]]
	])('a %s file is refused by name', async (found, mark) => {
		const text = Array.from(`${ndjsonLine(1)}\n`, (char) => char.charCodeAt(0));
		const units = text.flatMap((code) =>
			found === 'UTF-32LE' ? [code, 0, 0, 0] : [0, 0, 0, code]
		);
		const { summary } = await run(Uint8Array.from([...mark, ...units]));
		expect(summary.stopped).toEqual({ number: 0, code: 'encoding', at: 0, found });
	});
});

/** The text in UTF-16, little or big end first, with a byte-order mark or without. */
function utf16(text: string, order: 'le' | 'be', mark: boolean): Uint8Array {
	const bytes = new Uint8Array(text.length * 2 + (mark ? 2 : 0));
	let at = 0;
	if (mark) {
		bytes.set(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]);
		at = 2;
	}
	for (let index = 0; index < text.length; index++, at += 2) {
		const unit = text.charCodeAt(index);
		bytes[order === 'le' ? at : at + 1] = unit & 0xff;
		bytes[order === 'le' ? at + 1 : at] = unit >> 8;
	}
	return bytes;
}

describe('encodings', () => {
	// Non-ASCII before each request (Chinese, and an emoji: a surrogate pair in UTF-16, four bytes
	// in UTF-8), so that a character split between two chunks is put back together.
	const log = Array.from({ length: 20 }, (_, index) => `日志 🙂 ${logLine(index + 1)}`).join(
		'\r\n'
	);
	const bom = Uint8Array.of(0xef, 0xbb, 0xbf);

	it.each([
		['UTF-8', utf8(log)],
		['UTF-8 with a byte-order mark', Uint8Array.from([...bom, ...utf8(log)])],
		['UTF-16 LE with a byte-order mark', utf16(log, 'le', true)],
		['UTF-16 BE with a byte-order mark', utf16(log, 'be', true)],
		// Told by its first characters: ASCII, each beside a zero byte.
		['UTF-16 LE without a mark', utf16(`logged: ${log}`, 'le', false)]
	])('%s is read, whatever the chunks its bytes come in', async (_, bytes) => {
		for (const size of [1, 3, 7, 65_536]) {
			const result = await run(bytes, size);
			expect(result.summary.format, `${size} a chunk`).toBe('log-lines');
			expect(rows(result), `${size} a chunk`).toEqual({
				verdicts: 20,
				matches: 20,
				unreadable: []
			});
		}
	});

	it('says at which byte a HAR broke, counting the bytes of the characters before it', async () => {
		const body = { ...harEntry(1), response: { status: 200, content: { text: '漢字 🙂 "]}' } } };
		const text = `${harOf([JSON.stringify(body)])}`.replace('"entries":[', '"pages":[}"entries":[');
		const at = text.indexOf('}"entries"');
		for (const [bytes, offset] of [
			[utf8(text), utf8(text.slice(0, at)).length],
			[utf16(text, 'le', true), 2 + 2 * at]
		] as const) {
			const { summary } = await run(bytes, 5);
			expect(summary.stopped).toEqual({ number: 0, code: 'har-broken', at: offset });
		}
		// And after the first entry, in the middle of a body with multi-byte characters.
		const after = harOf([JSON.stringify(body), JSON.stringify(harEntry(2))]).replace(
			',{"startedDateTime"',
			'}],{"startedDateTime"'
		);
		const { summary, records } = await run(after, 5);
		expect(records.map((record) => record.verdict)).toEqual(['match', 'unreadable']);
		expect(summary.stopped).toEqual({
			number: 2,
			code: 'har-broken',
			at: utf8(after.slice(0, after.indexOf('],{"startedDateTime"') + 2)).length
		});
	});
});

describe('a HAR cut short in the middle of an entry', () => {
	const whole = harOf(
		Array.from({ length: 1002 }, (_, index) => JSON.stringify(harEntry(index + 1)))
	);
	// Cut inside entry 501's URL.
	const cut = whole.slice(0, whole.indexOf('c501') + 2);

	it('/triage judges the 500 entries before it and says where it was cut', async () => {
		const result = await run(cut);
		expect(rows(result)).toEqual({
			verdicts: 500,
			matches: 500,
			unreadable: [{ number: 501, code: 'har-cut-short' }]
		});
		expect(result.summary.stopped).toEqual({
			number: 501,
			code: 'har-cut-short',
			at: utf8(cut).length
		});
	});

	it('/verify lists the 500 requests before it and a last row saying it is cut short', () => {
		const listed = parseSignedRequests(cut);
		expect(listed).toHaveLength(501);
		expect(listed?.slice(0, 500).every((row) => row.parsed.ok)).toBe(true);
		const last = listed?.[500];
		expect(last?.number).toBe(501);
		if (last?.parsed.ok === false) {
			const { error } = last.parsed;
			expect(
				thrownEnglish(() => {
					throw error;
				})
			).toBe(
				'The HAR is cut short: it ends at entry 501. The entries before it are read; export the HAR again for the rest.'
			);
		} else expect.unreachable('the last row is the cut');
	});
});

describe('an empty file', () => {
	it.each([
		['no bytes', new Uint8Array(0)],
		['white space and line breaks', utf8(' \r\n\t\n\r  ')],
		['a byte-order mark alone', Uint8Array.of(0xef, 0xbb, 0xbf)],
		['a UTF-16 byte-order mark and blank lines', utf16('\r\n\r\n', 'le', true)]
	])('%s: says it is empty, with nothing stopped and nothing read', async (_, bytes) => {
		const { summary, records } = await run(bytes);
		expect(summary).toMatchObject({ empty: true, format: null, stopped: null, requests: 0 });
		expect(records).toEqual([]);
	});

	it('a file that only starts with a megabyte of blank lines is not empty, and its lines keep their numbers', async () => {
		const blanks = '\r\n'.repeat(MB / 2);
		const { summary, records } = await run(`${blanks}${ndjsonLine(1)}\n${ndjsonLine(2)}`);
		expect(summary).toMatchObject({ empty: false, format: 'ndjson', stopped: null });
		expect(records.map((record) => [record.number, record.verdict])).toEqual([
			[MB / 2 + 1, 'match'],
			[MB / 2 + 2, 'match']
		]);
	});
});

describe('a keys file (the command line reads it whole)', () => {
	const keys = '# desk keys\rkid-one key-one\rkid-two key-two\r';

	it('in UTF-16 LE with a mark and lines ended by CR alone: the same keys as in UTF-8', () => {
		for (const bytes of [utf8(keys), utf16(keys, 'le', true), utf16(keys, 'be', true)]) {
			const decoded = decodeText(bytes);
			const text = 'text' in decoded ? decoded.text : '';
			const { keyring, problems } = parseKeys(text);
			expect(problems).toEqual([]);
			expect([keyring.kids, keyring.keyFor('kid-one'), keyring.keyFor('kid-two')]).toEqual([
				2,
				'key-one',
				'key-two'
			]);
		}
	});

	it('compressed or binary: refused by name, not read as keys', () => {
		expect(decodeText(gzipSync(utf8(keys)))).toEqual({
			refused: { refused: 'compressed', found: 'gzip', at: 0 }
		});
		expect(decodeText(Uint8Array.of(0x6b, 0x00, 0x01, 0xff, 0x00))).toMatchObject({
			refused: { refused: 'binary', at: 1 }
		});
	});
});

describe('a log rotated as .gz, a stray mark, NUL bytes, no request at all', () => {
	const log = Array.from({ length: 20 }, (_, index) => logLine(index + 1)).join('\n');

	it('a .gz log (gzip by node:zlib) is read as the log inside, whatever the chunks', async () => {
		const lines = Array.from({ length: 20 }, (_, index) => ndjsonLine(index + 1)).join('\n');
		for (const size of [1, 7, 65_536]) {
			const result = await run(gzipSync(utf8(lines)), size);
			expect(result.summary.format, `${size} a chunk`).toBe('ndjson');
			expect(rows(result)).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
		}
	});

	it('a .gz of several members (cat a.gz b.gz) is read whole', async () => {
		const first = Array.from({ length: 10 }, (_, index) => logLine(index + 1)).join('\n');
		const second = Array.from({ length: 10 }, (_, index) => logLine(index + 11)).join('\n');
		const bytes = Uint8Array.from([...gzipSync(utf8(`${first}\n`)), ...gzipSync(utf8(second))]);
		expect(rows(await run(bytes, 100))).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
	});

	it('a .gz cut short: what was read before counts, and reading says it failed', async () => {
		const big = Array.from({ length: 2000 }, (_, index) => logLine(index + 1)).join('\n');
		const gz = gzipSync(utf8(big));
		const result = await run(gz.subarray(0, Math.floor(gz.length / 2)), 4096);
		expect(result.summary.stopped?.code).toBe('read-failed');
		expect(rows(result).matches).toBeGreaterThan(0);
		expect(rows(result).matches).toBeLessThan(2000);
	});

	it('a gzip bomb of blank lines is read through to its end, found empty', async () => {
		// 8 MiB of line breaks in a few KiB.
		const bomb = gzipSync(new Uint8Array(8 * MB).fill(0x0a), { level: 9 });
		expect(bomb.length).toBeLessThan(64 * 1024);
		const { summary } = await run(bomb);
		expect(summary.empty).toBe(true);
		expect(summary.bytesRead).toBe(8 * MB);
	});

	it.each([
		['FF FE', [0xff, 0xfe]],
		['FE FF', [0xfe, 0xff]]
	])(
		'a UTF-16 mark (%s) before lines in UTF-8 is a stray mark: the lines are read',
		async (_, mark) => {
			for (const size of [1, 3, 65_536]) {
				const result = await run(Uint8Array.from([...mark, ...utf8(log)]), size);
				expect(result.summary.format).toBe('log-lines');
				expect(rows(result)).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
			}
		}
	);

	it('a UTF-16 mark before UTF-16 text in Chinese and ASCII is still UTF-16', async () => {
		const text = `日志日志日志 ${log}`;
		const bytes = new Uint8Array(2 + text.length * 2);
		bytes.set([0xff, 0xfe]);
		for (let index = 0; index < text.length; index++) {
			bytes[2 + index * 2] = text.charCodeAt(index) & 0xff;
			bytes[3 + index * 2] = text.charCodeAt(index) >> 8;
		}
		expect(rows(await run(bytes))).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
	});

	it('NUL bytes cost the line they fall in, not the file', async () => {
		const lines = log.split('\n');
		// A request line with NULs in it; then the padding a crash leaves, the next run's first line
		// written after it on the same line, and a line after that.
		lines[4] = `${lines[4]?.slice(0, 40)}\0\0\0${lines[4]?.slice(40)}`;
		const padded = `${lines.join('\n')}\n${'\0'.repeat(10_000)}${logLine(21)}\n${logLine(22)}\n`;
		for (const size of [5, 65_536]) {
			const result = await run(padded, size);
			expect(result.summary.stopped).toBeNull();
			expect(rows(result)).toEqual({
				verdicts: 20,
				matches: 20,
				unreadable: [
					{ number: 5, code: 'nul-bytes' },
					{ number: 21, code: 'nul-bytes' }
				]
			});
		}
		// Padding alone at the end (or at the start) costs nothing.
		const tail = await run(`${log}\n${'\0'.repeat(8192)}`);
		expect(rows(tail)).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
		const head = await run(`${'\0'.repeat(600)}\n${log}`);
		expect(rows(head)).toEqual({ verdicts: 20, matches: 20, unreadable: [] });
	});

	it('a file of NULs only is refused as binary, and random bytes still are', async () => {
		const { summary } = await run(new Uint8Array(5000));
		expect(summary.stopped).toMatchObject({ code: 'binary', at: 0 });
	});

	it('text with no signed request is read to its end and counts no request', async () => {
		const { summary } = await run('GET /health 200\nGET /ready 200\nhello\n');
		expect(summary).toMatchObject({ requests: 0, skipped: 3, stopped: null, empty: false });
	});
});
