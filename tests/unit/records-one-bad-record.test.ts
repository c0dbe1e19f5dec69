// One bad record costs one record (issue 23 §2): a HAR entry, an NDJSON line or a log line that
// cannot be read is one unreadable row with its number and reason, and every other record is
// judged, on /triage (the engine over a file) and on /verify (a paste of several requests).
import { describe, expect, it } from 'vitest';
import { parseSignedRequest, parseSignedRequests } from '$lib/read/parse-signed-request';
import { listedVerdicts } from '$lib/verify/desk/request-list';
import { englishAll, thrownEnglish } from './verify-english';
import { KEY, harEntry, harWithBad, logLine, ndjsonLine, rows, run } from './records-fixtures';

const DEEP = 100_000;
const entry = (n: number) => JSON.stringify(harEntry(n));

/** Entry 2's text for each way an entry can be bad, and the reason the row gives. */
const BAD_ENTRIES: [string, string, string][] = [
	['nested 100,000 deep', '['.repeat(DEEP) + ']'.repeat(DEEP), 'too-deep'],
	[
		'nested 100,000 deep inside its request',
		`{"request":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`,
		'too-deep'
	],
	['closed with the wrong bracket', '{"request": {"url": "x"]}', 'not-json'],
	['a bracket too many inside it', '{"request": {"url": "x"}]}', 'not-json'],
	['a value where a name belongs', '{"request": {"url": "x", 7: 8}}', 'not-json'],
	['a trailing comma', '{"request": {"url": "x",}}', 'not-json'],
	['not an object', '"just a string"', 'not-object']
];

describe('a HAR of 1,002 entries with one bad entry, entry 2', () => {
	it.each(BAD_ENTRIES)(
		'%s: /triage gives 1,001 verdicts and one unreadable row',
		async (_, bad, code) => {
			const result = await run(harWithBad(1002, 2, bad));
			expect(rows(result)).toEqual({
				verdicts: 1001,
				matches: 1001,
				unreadable: [{ number: 2, code }]
			});
			expect(result.summary.stopped).toBeNull();
		},
		60_000
	);

	it('an entry too long to keep (17 MiB outside any body) is one row too', async () => {
		const long = JSON.stringify({ ...harEntry(2), _note: 'x'.repeat(17 << 20) });
		expect(rows(await run(harWithBad(1002, 2, long)))).toEqual({
			verdicts: 1001,
			matches: 1001,
			unreadable: [{ number: 2, code: 'too-long' }]
		});
	}, 60_000);

	it('a closing bracket too many between two entries costs nothing; one that closes the list early stops loudly', async () => {
		const extraBrace = harWithBad(1002, 2, `${entry(2)}}`);
		expect(rows(await run(extraBrace))).toEqual({ verdicts: 1002, matches: 1002, unreadable: [] });
		// `]` ends the list after entry 2: what follows cannot be taken for entries, and is not dropped
		// without a word.
		const early = await run(harWithBad(1002, 2, `${entry(2)}]`));
		expect(rows(early)).toEqual({
			verdicts: 2,
			matches: 2,
			unreadable: [{ number: 3, code: 'har-broken' }]
		});
		expect(early.summary.stopped).toMatchObject({ number: 3, code: 'har-broken' });
	});

	it.each(BAD_ENTRIES.filter(([, , code]) => code !== 'not-object'))(
		'%s: /verify lists 1,001 requests that match and entry 2 as unreadable, saying why',
		async (_, bad, code) => {
			const listed = parseSignedRequests(harWithBad(1002, 2, bad));
			expect(listed?.map((row) => row.number)).toEqual(
				Array.from({ length: 1002 }, (__, index) => index + 1)
			);
			const verdicts = await listedVerdicts(listed ?? [], KEY);
			expect(verdicts.filter((verdict) => verdict === 'match')).toHaveLength(1001);
			expect(verdicts[1]).toBe('unreadable');
			const second = listed?.[1]?.parsed;
			expect(second?.ok).toBe(false);
			if (second?.ok === false) {
				expect(
					thrownEnglish(() => {
						throw second.error;
					})
				).toBe(
					`Entry 2 of the HAR cannot be read: ${
						code === 'too-deep' ? 'it is nested more than 100 levels deep' : 'its JSON is broken'
					}. The other entries are read.`
				);
			}
		}
	);

	it('/verify reads a paste of one whose other entry is bad, and says that entry is left out', () => {
		const text = harWithBad(2, 1, '{"request": {"url": "x"]}');
		const read = parseSignedRequest(text);
		expect(read.url).toBe(JSON.parse(entry(2)).request.url);
		expect(englishAll(read.understood)).toContain('Entries that cannot be read are left out: 1.');
	});
});

describe('NDJSON: one bad line costs that line', () => {
	const ndjson = (bad: number, badLine: string, end = '\n') =>
		Array.from({ length: 1002 }, (_, index) =>
			index + 1 === bad ? badLine : ndjsonLine(index + 1)
		).join(end);

	it.each([
		['a first line cut short to a lone {', 1, '{', 'not-json'],
		['a heading before the records', 1, '# calls exported 2026-11-22', 'not-json'],
		['a line of JSON broken in its middle', 2, '{"url": oops', 'not-json'],
		['a line nested 100,000 deep', 2, '['.repeat(DEEP) + ']'.repeat(DEEP), 'not-object']
	])('%s: 1,001 verdicts and one unreadable row', async (_, bad, badLine, code) => {
		const result = await run(ndjson(bad, badLine));
		expect(result.summary.format).toBe('ndjson');
		expect(rows(result)).toEqual({
			verdicts: 1001,
			matches: 1001,
			unreadable: [{ number: bad, code }]
		});
	});

	it.each([
		['LF', '\n'],
		['CRLF', '\r\n'],
		['CR alone', '\r']
	])('lines ended by %s are lines', async (_, end) => {
		expect(rows(await run(ndjson(2, '{"url": oops', end)))).toEqual({
			verdicts: 1001,
			matches: 1001,
			unreadable: [{ number: 2, code: 'not-json' }]
		});
	});
});

describe('log lines: one bad line costs that line', () => {
	/** 1,002 log lines, each ended by `ends` in turn; line 2 has a MAC header but no URL. */
	const lines = (ends: string[]) =>
		Array.from(
			{ length: 1002 },
			(_, index) =>
				(index === 1 ? logLine(2).replace(/https:\S+/, '/no/host') : logLine(index + 1)) +
				ends[index % ends.length]
		).join('');

	it.each([
		['LF', ['\n']],
		['CRLF', ['\r\n']],
		['CR alone', ['\r']],
		['LF, CRLF and CR mixed', ['\n', '\r\n', '\r']]
	])('lines ended by %s: 1,001 verdicts and one unreadable row', async (_, ends) => {
		const result = await run(lines(ends));
		expect(result.summary.format).toBe('log-lines');
		expect(rows(result)).toEqual({
			verdicts: 1001,
			matches: 1001,
			unreadable: [{ number: 2, code: 'no-url' }]
		});
	});
});
