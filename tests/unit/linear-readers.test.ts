// Issue 23: each reader of outside input on the shape that made it take quadratic time (a long run
// of one character that something else ends) or fail (a value too long for a regular expression
// engine's state). Hang guards, not speed tests: RUN characters of such a shape took from 20 s to
// minutes before, past the test's own limit, and take milliseconds now. How fast each reader is,
// and that it stays linear, is the bench's to measure (tests/bench/linearity.js).
import { describe, expect, it } from 'vitest';
import { MacInputError, cmdQuote, fromBase64, isBase64, parseAuthorization } from '$lib/mac';
import { detectKind, parseRawRequest } from '$lib/read';
import { readLogLine } from '$lib/read/read-lines';
import { operationUrl } from '$lib/account-api/operations';
import { visibleSegments } from '$lib/ui/visible';

/** Long enough that quadratic work takes tens of seconds; linear work, milliseconds. */
const RUN = 200_000;
const HEADER = 'MAC id="kid-1",ts="1700000000",nonce="bm9uY2Ux",mac="bWFj"';

/** The code of the MacInputError that `read` throws. */
function errorCode(read: () => unknown): string {
	try {
		read();
	} catch (error) {
		if (error instanceof MacInputError) return error.code;
		throw error;
	}
	throw new Error('no MacInputError');
}

describe('the Authorization header', () => {
	it('reads blanks after `MAC id=` up to what cannot follow them, and says where', () => {
		for (const blank of [' ', '\t', '\n', '\r\n']) {
			const header = `MAC id=${blank.repeat(RUN / blank.length)}"`;
			expect(errorCode(() => parseAuthorization(header))).toBe('header_unreadable');
		}
	});

	it('reads a quoted value of twelve million characters (no RangeError)', () => {
		const id = 'k'.repeat(12_000_000);
		expect(parseAuthorization(`MAC id="${id}",ts="1",nonce="n",mac="m"`).id).toBe(id);
	});

	it('is read in a log line of a million parameters, as far as they go (no RangeError)', () => {
		const params = ',a=b'.repeat(1_000_000);
		const item = readLogLine(1, `at 10:00 GET https://a.example/ MAC id=x${params}`);
		expect(item.kind === 'request' && item.request.authorization).toBe(`MAC id=x${params}`);
	});
});

describe('a raw HTTP request', () => {
	it('skips a header line of blanks then U+2028, which `.` does not read', () => {
		const raw = `GET /p HTTP/1.1\nHost: a.example\nX-Note:${' '.repeat(RUN)}\u2028x\nAuthorization: ${HEADER}`;
		const request = parseRawRequest(raw);
		expect(request.headers.map((header) => header.name)).toEqual(['Host', 'Authorization']);
		expect(request.url).toBe('https://a.example/p');
		expect(detectKind(raw)).toBe('raw');
	});

	it('passes over the blank lines before the request line', () => {
		const request = parseRawRequest(`${'\n'.repeat(2 * RUN)}GET /p HTTP/1.1\nHost: a.example`);
		expect(request.method).toBe('GET');
		expect(request.url).toBe('https://a.example/p');
	});
});

describe('a log line', () => {
	it('takes the dots, commas or semicolons that end a sentence off the URL, not those inside it', () => {
		for (const mark of ['.', ',', ';']) {
			const url = `https://a.example/p${mark.repeat(RUN)}x`;
			const item = readLogLine(1, `${HEADER} GET ${url}${mark.repeat(3)}`);
			expect(item.kind === 'request' && item.request.url).toBe(url);
		}
	});
});

describe('the Base64 and quoting helpers', () => {
	it('refuses a run of `=` that is not at the end', () => {
		const text = `${'='.repeat(RUN)}QQ`;
		expect(isBase64(text)).toBe(false);
		expect(errorCode(() => fromBase64(text))).toBe('not_base64');
	});

	it('quotes a run of backslashes for cmd, doubled only before a quote or at the end', () => {
		const run = '\\'.repeat(RUN);
		expect(cmdQuote(`${run}x`)).toBe(`^"${run.replaceAll('\\', '^\\')}x^"`);
		expect(cmdQuote(`${run}x${run}`)).toBe(`^"${`${run}x${run}${run}`.replaceAll('\\', '^\\')}^"`);
	});

	it("takes a base URL's trailing slashes off, and keeps those inside it", () => {
		const base = `https://a.example${'/'.repeat(RUN)}x`;
		expect(operationUrl(`${base}//`, '/p', 'c')).toBe(`${base}/p?client_id=c`);
	});
});

describe('the marks for invisible characters', () => {
	it('marks the spaces at the ends of a line, not a run of them inside it', () => {
		const segments = visibleSegments(`a${' '.repeat(RUN)}b  `);
		expect(segments).toEqual([
			{ kind: 'text', shown: `a${' '.repeat(RUN)}b` },
			{ kind: 'space', shown: '·', label: 'space' },
			{ kind: 'space', shown: '·', label: 'space' }
		]);
	});
});
