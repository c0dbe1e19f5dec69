// Property test of issue 23: every reader of outside input, given what the readers' property tests
// generate with a hostile shape added (a long run of one character after what leads into it, then
// what may end it: the shapes that made readers quadratic), spends CPU time within a budget that
// grows linearly with the input.
//
// Why this cannot fail by chance. The time is CPU time (process.cpuUsage: user + system), which a
// loaded machine does not inflate: waiting for a core is not counted, only this process's own work,
// garbage collection included, which grows with what the reader allocates, linearly. The budget,
// BASE_MS + PER_CHARACTER_MS × length (0.75 s to 1.25 s here), is more than ten times what a linear
// reader costs on these inputs: measured on a loaded 2-core VM, the costliest (a paste of 150,000
// characters read as a raw request, 120,000 tabs to mark) take about 100 ms; most take a few ms.
// BASE_MS also covers a first call's compiling. A reader that is quadratic on its shape takes
// seconds to minutes on 50,000 to 150,000 characters (measured before the fixes of issue 23: 16.8 s
// for `MAC id=` and 150,000 spaces): over its budget by far, so it cannot pass by chance either.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cmdQuote, fromBase64, isBase64, parseAuthorization, pastedJson } from '$lib/mac';
import {
	parseCurlCommand,
	parseFetch,
	parsePowerShell,
	parseRawRequest,
	parseSignedRequest
} from '$lib/read';
import { readLogLine, readNdjsonLine } from '$lib/read/read-lines';
import { parseKeys } from '$lib/triage/keys';
import { visibleSegments } from '$lib/ui/visible';
import { hostile, outcome } from './property-arbitraries';
import { signedRequestText } from './verify-arbitraries';
import { fetchText } from './verify-arbitraries-json';
import { powershellText } from './verify-arbitraries-powershell';
import { anyHeader, curlText, rawText } from './verify-arbitraries-shell';

const BASE_MS = 500;
const PER_CHARACTER_MS = 0.005;
/** The hostile run: 50,000 to 150,000 characters (a paste is read up to 200,000). */
const RUN_LENGTH = { min: 50_000, max: 150_000 };
/** A hang limit, not a speed limit: a quadratic reader would take minutes on 40 such inputs. */
const TIMEOUT_MS = 600_000;
const PROPERTY_RUNS = { numRuns: 40, endOnFailure: true };

const HEADER = 'MAC id="kid-1",ts="1700000000",nonce="bm9uY2Ux",mac="bWFj"';

/** What leads into a run, the run's unit, and what may end it. */
type Shape = [lead: string, unit: string, end: string];

/** Runs any reader may meet: blanks, line ends, separators, quotes, escapes and brackets. */
const UNITS = [
	'  ',
	' ',
	'\t',
	'\n',
	'\r\n',
	'.',
	',',
	';',
	'=',
	'\\',
	'/',
	'"',
	"'",
	'{',
	'[',
	'('
];
const ENDS = ['', 'x', '"', '\u2028', ',', '=', ':', ')', '}', '\n'];

/**
 * The generated input with a hostile run added: alone now and then, else put in at any place; the
 * reader's own shapes (those that made it quadratic) half of the time, any other run otherwise.
 */
function withHostileRun(base: fc.Arbitrary<string>, shapes: Shape[]): fc.Arbitrary<string> {
	const anyShape = fc.tuple(
		fc.constantFrom('', ...shapes.map(([lead]) => lead)),
		fc.constantFrom(...UNITS),
		fc.constantFrom(...ENDS)
	);
	return fc
		.tuple(
			base,
			fc.nat(),
			fc.boolean(),
			fc.oneof(fc.constantFrom(...shapes), anyShape),
			fc.integer(RUN_LENGTH)
		)
		.map(([text, at, alone, [lead, unit, end], length]) => {
			const run = lead + unit.repeat(Math.ceil(length / unit.length)) + end;
			if (alone) return run;
			const index = at % (text.length + 1);
			return text.slice(0, index) + run + text.slice(index);
		});
}

/** CPU milliseconds `read` takes on `text`; it must return or throw a MacInputError. */
function cpuMs(read: (text: string) => unknown, text: string): number {
	const start = process.cpuUsage();
	outcome(() => read(text));
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

/** A reader, what it is given, and the shapes that made it quadratic. */
interface Reader {
	name: string;
	read: (text: string) => unknown;
	input: fc.Arbitrary<string>;
	shapes: Shape[];
}

const logLine = fc
	.tuple(
		fc.constantFrom('', '2021-04-12 10:02:30,118 INFO ', '[2021-04-12T10:02:30Z] '),
		fc.constantFrom('GET', 'POST', ''),
		fc.webUrl({ withQueryParameters: true }),
		anyHeader,
		fc.constantFrom('', ' status=200', ' HTTP/1.1 401', '.')
	)
	.map(([time, method, url, header, after]) => `${time}${method} ${url} ${header}${after}`);

const ndjsonLine = fc
	.record({
		url: fc.webUrl(),
		authorization: anyHeader,
		time: fc.oneof(fc.constant('1700000000'), hostile),
		status: fc.oneof(fc.constant(200), fc.constant('401'))
	})
	.map((object) => JSON.stringify(object));

const credential = fc
	.tuple(
		fc.constantFrom('', '11-21 10:00:01.123  1234  1234 D TapLogin: ', 'D/TapLogin( 1234): '),
		fc.record({ kid: hostile, mac_key: hostile, token_type: fc.constant('mac') })
	)
	.map(([prefix, fields]) => `${prefix}onLoginSuccess: ${JSON.stringify(fields)}`);

const READERS: Reader[] = [
	{
		name: 'the Authorization header (parseAuthorization)',
		read: parseAuthorization,
		input: anyHeader,
		shapes: [
			['MAC id=', ' ', '"'],
			['MAC id=', '\n', '"'],
			['MAC id="', 'k', '",ts="1",nonce="n",mac="m"']
		]
	},
	{
		name: 'a paste of one request (parseSignedRequest)',
		read: parseSignedRequest,
		input: signedRequestText,
		shapes: [
			['Authorization: MAC id=', ' ', '"'],
			[`${HEADER}\nX-Note:`, ' ', '\u2028x'],
			['', '\n', `GET / HTTP/1.1\nHost: a.example\nAuthorization: ${HEADER}`],
			['2021-04-12 10:02:30 MAC id', ' ', 'x']
		]
	},
	{
		name: 'a raw request (parseRawRequest)',
		read: parseRawRequest,
		input: rawText,
		shapes: [
			['GET / HTTP/1.1\nHost: a.example\nX-Note:', ' ', '\u2028x'],
			['', '\n', 'GET / HTTP/1.1\nHost: a.example']
		]
	},
	{
		name: 'curl (parseCurlCommand)',
		read: parseCurlCommand,
		input: curlText,
		shapes: [
			['curl https://a.example/ -H "X-Note: ', '\\', 'x"'],
			['curl ^"https://a.example/^" -H ^"X-Note: ', '\\', '^"']
		]
	},
	{
		name: 'PowerShell (parsePowerShell)',
		read: parsePowerShell,
		input: powershellText,
		shapes: [
			['Invoke-WebRequest -Uri `', ' ', 'x'],
			['$h = New-Object ', ' ', 'x']
		]
	},
	{
		name: 'fetch (parseFetch)',
		read: parseFetch,
		input: fetchText,
		shapes: [['fetch("https://a.example/", {"headers": {"x": "', '\\"', '"}})']]
	},
	{
		name: 'a log line (readLogLine)',
		read: (text) => readLogLine(1, text),
		input: logLine,
		shapes: [
			[`${HEADER} GET https://a.example/p`, '.', 'x'],
			[`${HEADER} GET https://a.example/p`, ',', 'x'],
			['MAC a=b', ' , c=', ' https://a.example/']
		]
	},
	{
		name: 'an NDJSON line (readNdjsonLine)',
		read: (text) => readNdjsonLine(1, text),
		input: ndjsonLine,
		shapes: [[`{"url":"https://a.example/","authorization":"x","time":"1`, ' ', 'x"}']]
	},
	{
		name: 'an SDK login result, logcat lines included (pastedJson)',
		read: pastedJson,
		input: credential,
		shapes: [['11-21 10:00:01.123  1234  1234 D TapLogin', ' ', 'x\nD/TapLogin: {']]
	},
	{
		name: 'the marks for invisible characters (visibleSegments)',
		read: visibleSegments,
		input: hostile,
		shapes: [['a', ' ', 'b']]
	},
	{
		name: 'Base64 (isBase64, fromBase64)',
		read: (text) => isBase64(text) && fromBase64(text),
		input: fc.base64String(),
		shapes: [['', '=', 'A']]
	},
	{
		name: 'cmd quoting (cmdQuote)',
		read: cmdQuote,
		input: hostile,
		shapes: [['', '\\', 'x']]
	},
	{
		name: 'the keys of a triage (parseKeys)',
		read: parseKeys,
		input: fc.array(fc.tuple(hostile, hostile)).map((pairs) => pairs.join('\n')),
		shapes: [['', '{', '']]
	}
];

describe('every reader spends CPU time linear in its input, hostile shapes added (property)', () => {
	for (const reader of READERS) {
		it(
			`${reader.name}: within ${BASE_MS} ms + ${PER_CHARACTER_MS * 1000} µs a character`,
			() => {
				fc.assert(
					fc.property(withHostileRun(reader.input, reader.shapes), (text) => {
						const budget = BASE_MS + PER_CHARACTER_MS * text.length;
						expect(cpuMs(reader.read, text)).toBeLessThan(budget);
					}),
					PROPERTY_RUNS
				);
			},
			TIMEOUT_MS
		);
	}
});
