// Property tests of what reads the service's answers and the relay setting: any response body, status and Date give an explanation; any relay setting gives a URL or a
// MacInputError; never another exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainResponse } from '$lib/send/explain';
import { renderText as render } from '$lib/i18n/render-text';
import { proxyRequestUrl } from '$lib/send/proxy-url';
import { readBody } from '$lib/account-api/envelope';
import { ERROR_CODES } from '$lib/account-api/error-codes';
import {
	RUNS,
	hostile,
	huge,
	jsonValueText,
	mutated,
	objectText,
	outcome,
	quickly
} from './property-arbitraries';

// ---- Response bodies -----------------------------------------------------------------------------

const KEYS = [
	'data',
	'now',
	'success',
	'error',
	'error_description',
	'code',
	'msg',
	'openid',
	'unionid',
	'name',
	'avatar',
	'__proto__',
	'constructor',
	'toString',
	'hasOwnProperty',
	'valueOf'
];

const bodyObject: fc.Arbitrary<string> = fc.letrec<{ object: string }>((tie) => ({
	object: fc
		.array(
			fc.tuple(
				fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })),
				fc.oneof({ depthSize: 'small' }, jsonValueText, tie('object'))
			),
			{ maxLength: 6 }
		)
		.map(objectText)
})).object;

const html = fc
	.tuple(
		fc.constantFrom('<!DOCTYPE html>', '<html>', '  <HEAD>', '<body>', '', 'oops '),
		fc.option(hostile),
		fc.constantFrom('</html>', '</body>', '</h1>', '</title>', '', '<title'),
		hostile
	)
	.map(
		([open, title, close, rest]) =>
			`${open}${title === null ? '' : `<title>${title}</title>`}${rest}${close}`
	);

/** Deeper than any recursive walk of the value can go, in the data of a success body. */
function deepBody(depth: number, open: string): string {
	const close = open === '[' ? ']' : '}';
	const inner = `${open.repeat(depth)}${open === '[' ? '' : '1'}${close.repeat(depth)}`;
	return `{"data":{"openid":${inner}},"now":1,"success":true}`;
}

const body = fc.oneof(
	hostile,
	bodyObject,
	bodyObject.map((object) => `{"data":${object},"now":1700000000,"success":false}`),
	mutated(bodyObject),
	html,
	fc.jsonValue().map((value) => JSON.stringify(value)),
	fc.constantFrom('', '   ', '\n', 'null', '[]', '"x"', '{}')
);

/** The kinds of body readBody tells apart. */
const KINDS = ['error', 'data', 'empty', 'html', 'not-json', 'unexpected-json'];

describe('readBody (property)', () => {
	it('classifies any body: an error, data, empty, HTML, not JSON or other JSON', () => {
		fc.assert(
			fc.property(body, (text) => {
				const read = readBody(text);
				expect(KINDS).toContain(read.kind);
				if (read.kind === 'error') {
					expect(typeof read.error.error).toBe('string');
					if (read.now !== undefined) expect(typeof read.now).toBe('number');
				}
				if (read.kind === 'data') expect(Object.getPrototypeOf(read.data)).not.toBeNull();
				if (read.kind === 'not-json' || read.kind === 'unexpected-json')
					expect(read.excerpt.length).toBeLessThanOrEqual(161);
				if (read.kind === 'empty') expect(text.trim()).toBe('');
			}),
			RUNS
		);
	});

	it('reads an error object, wrapped or bare, with the fields it has', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...Object.keys(ERROR_CODES)),
				fc.option(fc.string()),
				fc.option(fc.integer()),
				fc.boolean(),
				(error, description, code, wrapped) => {
					const inner: Record<string, unknown> = { error };
					if (description !== null) inner.error_description = description;
					if (code !== null) inner.code = code;
					const text = JSON.stringify(wrapped ? { data: inner, now: 1, success: false } : inner);
					const read = readBody(text);
					expect(read).toEqual({
						kind: 'error',
						error: inner,
						now: wrapped ? 1 : undefined,
						wrapped
					});
				}
			),
			RUNS
		);
	});

	it('reads a long HTML page to the end', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('<title', '<html>', '</title', '<title>x', 'a'),
				fc.integer({ min: 10_000, max: 40_000 }),
				(piece, times) => {
					expect(readBody(`${piece.repeat(times)}</html>`)).toHaveProperty('kind');
				}
			),
			{ numRuns: 20 }
		);
	});

	// A page's <title> must be found in linear time: a body of "<title" without a ">", repeated, is
	// what makes a backtracking search quadratic. A hang guard, not a speed test: quadratic work on
	// this input takes tens of seconds, past the test's own time limit; linear work, milliseconds.
	it('does not hang on "<title" × 100 000 + "</html>"', () => {
		expect(readBody(`${'<title'.repeat(100_000)}</html>`)).toMatchObject({ kind: 'html' });
	});
});

describe('explainResponse (property)', () => {
	const status = fc.option(
		fc.oneof(fc.constantFrom(200, 400, 401, 403, 404, 500, 502), fc.integer()),
		{
			nil: undefined
		}
	);
	const date = fc.option(
		fc.oneof(
			fc.date({ noInvalidDate: true }).map((value) => value.toUTCString()),
			fc.constantFrom('', 'garbage', 'Thu, 01 Jan 1970 00:00:00 GMT', '1e999'),
			hostile
		),
		{ nil: undefined }
	);
	const receivedAtMs = fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), {
		nil: undefined
	});

	it('explains any response: success fields, a known error, an unknown code or unreadable', () => {
		fc.assert(
			fc.property(body, status, date, receivedAtMs, (text, code, dateHeader, received) => {
				const explanation = explainResponse({
					body: text,
					status: code,
					date: dateHeader,
					receivedAtMs: received
				});
				switch (explanation.kind) {
					case 'success':
						for (const field of explanation.fields) {
							expect(typeof field.name).toBe('string');
							expect(typeof field.value).toBe('string');
							expect(render(field.meaning)).not.toBe('');
						}
						break;
					case 'error':
						expect(Object.hasOwn(ERROR_CODES, explanation.code)).toBe(true);
						if (explanation.clockOffsetSeconds !== null) {
							expect(received).not.toBeUndefined();
						}
						break;
					case 'unknown-code':
					case 'unreadable':
						expect(render(explanation.message)).not.toBe('');
						break;
					default:
						expect.unreachable(`unknown kind ${JSON.stringify(explanation)}`);
				}
			}),
			RUNS
		);
	});

	it('gives a clock offset only where the whole-second server time shows one, from the Date header or the body', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 4_102_444_800 }),
				// Arrival near the server's stamp (where whole seconds decide) as well as anywhere.
				fc.oneof(
					fc.integer({ min: -3_000, max: 3_000 }),
					fc.integer({ min: -4_102_444_800_000, max: 4_102_444_800_000 })
				),
				fc.integer({ min: 0, max: 5_000 }),
				fc.boolean(),
				(server, drift, roundTrip, fromDate) => {
					const received = server * 1000 + drift;
					const text = JSON.stringify({
						data: { error: 'invalid_time' },
						now: server,
						success: false
					});
					const explanation = explainResponse({
						body: text,
						status: 400,
						date: fromDate ? new Date(server * 1000).toUTCString() : null,
						receivedAtMs: received,
						sentAtMs: received - roundTrip
					});
					expect(explanation.kind).toBe('error');
					if (explanation.kind !== 'error') return;
					// The server's clock read [server, server + 1 s) at a moment between sending and arrival.
					const lowest = server * 1000 - received;
					const highest = server * 1000 + 1000 - (received - roundTrip);
					const offset = explanation.clockOffsetSeconds;
					if (Math.abs(server * 1000 - received) > 10 * 365 * 24 * 3600 * 1000) {
						// A clock more than ten years off is taken for a broken value, not a clock.
						expect(explanation.serverTimeMs).toBeNull();
						expect(offset).toBeNull();
					} else if (lowest <= 0 && highest >= 0) {
						expect(offset).toBeNull();
					} else {
						expect(Number.isSafeInteger(offset)).toBe(true);
						expect((offset ?? NaN) * 1000).toBeGreaterThanOrEqual(lowest - 500);
						expect((offset ?? NaN) * 1000).toBeLessThanOrEqual(highest + 500);
					}
				}
			),
			RUNS
		);
	});

	it('explains bodies with hostile field names and nesting, as long as the nesting is shallow', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.oneof(jsonValueText, bodyObject)), {
					maxLength: 6
				}),
				fc.integer({ min: 1, max: 2000 }),
				(entries, depth) => {
					const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
					const explanation = explainResponse({
						body: `{"data":${objectText([...entries, ['nested', nested]])},"success":true}`
					});
					expect(explanation.kind).toBe('success');
					if (explanation.kind === 'success')
						for (const field of explanation.fields) expect(render(field.meaning)).not.toBe('');
				}
			),
			RUNS
		);
	});

	// A field named like a property every object inherits is not a field of spec §2, and is said to
	// be one in words like any other unknown field.
	it('explainResponse: a field named "constructor", "__proto__" or "toString" gets a meaning in words', () => {
		const explanation = explainResponse({ body: '{"__proto__":1,"constructor":2,"toString":3}' });
		expect(explanation.kind).toBe('success');
		if (explanation.kind === 'success')
			for (const field of explanation.fields) expect(render(field.meaning)).not.toBe('');
	});

	// JSON.parse reads a value nested 20 000 deep; whatever then writes it out must not recurse that
	// deep and overflow the stack.
	it('explainResponse: a field value nested 20 000 deep is explained', () => {
		expect(readBody(deepBody(20_000, '[')).kind).toBe('data');
		expect(explainResponse({ status: 200, body: deepBody(20_000, '[') }).kind).toBe('success');
	});

	// A `now` too large for a date (1e306, or 1e999, which JSON.parse reads as Infinity) tells nothing
	// of the server's clock: the offset is unknown (null), so the page offers no re-signing with a ts
	// of "Infinity".
	it('explainResponse: "now": 1e999 in an invalid_time body gives no infinite clock offset', () => {
		const explanation = explainResponse({
			status: 400,
			body: '{"data":{"error":"invalid_time"},"now":1e999,"success":false}',
			receivedAtMs: 1_700_000_000_000
		});
		expect(explanation.kind).toBe('error');
		if (explanation.kind === 'error') {
			const offset = explanation.clockOffsetSeconds;
			expect(offset === null || Number.isSafeInteger(offset)).toBe(true);
		}
	});
});

// ---- Relay URL -----------------------------------------------------------------------------------

const setting = fc.oneof(
	hostile,
	fc
		.tuple(
			fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', '', ' http://', 'http:/'),
			fc.constantFrom(
				'127.0.0.1:8787',
				'localhost:8787',
				'relay.example',
				'[::1]:1',
				'',
				'a b',
				'h:99999'
			),
			fc.constantFrom('/', '/?url={url}', '/{url}', '/relay?u={url}&v={url}', '', '/x/', '?{url}#')
		)
		.map((parts) => parts.join('')),
	mutated(fc.constant('http://127.0.0.1:8787/?url={url}'))
);

const upstream = fc.oneof(
	fc.webUrl({ withQueryParameters: true, withFragments: true }),
	hostile,
	fc.string({ unit: 'grapheme', maxLength: 30 })
);

describe('proxyRequestUrl (property)', () => {
	it('gives a valid URL or a MacInputError for any setting and upstream URL', () => {
		fc.assert(
			fc.property(setting, upstream, (relay, url) => {
				const result = outcome(() => proxyRequestUrl(relay, url));
				if (!result.ok) {
					expect(result.error.field).toBe('proxy');
					return;
				}
				expect(() => new URL(result.value)).not.toThrow();
				expect(result.value).toMatch(/^https?:\/\//i);
				// Every {url} of a template holds the upstream URL, encoded (a template such as
				// "?url={{url}url}" with an empty URL still reads "{url}" after it: that is no placeholder).
				if (relay.includes('{url}'))
					expect(result.value).toBe(relay.trim().split('{url}').join(encodeURIComponent(url)));
				else expect(result.value).toBe(relay.trim() + url);
			}),
			RUNS
		);
	});

	it('carries the upstream URL intact through a {url} template', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.webUrl({ withQueryParameters: true, withFragments: true }),
					fc.string({ unit: 'grapheme', maxLength: 40 })
				),
				(url) => {
					const relayed = new URL(proxyRequestUrl('http://127.0.0.1:8787/relay?url={url}', url));
					expect(relayed.searchParams.get('url')).toBe(url);
					expect(relayed.origin).toBe('http://127.0.0.1:8787');
				}
			),
			RUNS
		);
	});

	// encodeURIComponent throws URIError on a lone surrogate; the relay setting must still fail only
	// with a MacInputError, the one error attempt() turns into a message at the field.
	it('proxyRequestUrl: a lone surrogate in the upstream URL gives a URL or a MacInputError', () => {
		const result = outcome(() =>
			proxyRequestUrl('http://127.0.0.1:8787/{url}', 'https://a/\ud800')
		);
		expect(typeof result.ok).toBe('boolean');
	});
});

// ---- Huge input ----------------------------------------------------------------------------------

// A hang guard, not a speed test: a parser that backtracks on these inputs never ends, one that
// reads them linearly ends within seconds even on a loaded 2-core machine; speed and linearity are
// the bench's (npm run bench). The one limit in the unit project (testTimeout is 0) is this guard.
describe('huge input (property)', { timeout: 60_000 }, () => {
	it('readBody, explainResponse and proxyRequestUrl answer quickly on 50-250 kB', () => {
		fc.assert(
			fc.property(
				huge(
					[
						'{"data":{"openid":"',
						'{"data":[',
						'<html><title>',
						'<!doctype html>',
						'',
						'http://127.0.0.1:8787/?u={url}'
					],
					[
						'a',
						' ',
						'\n',
						'{"a":',
						'[',
						'"',
						'\\',
						'<',
						'</',
						'<title>',
						'{url}',
						'%',
						'😀',
						'\ud800'
					],
					['', '"}}', ']}', '</html>', '</title>']
				),
				(text) => {
					quickly(() => readBody(text));
					quickly(() => explainResponse({ body: text, status: 200 }));
					quickly(() => proxyRequestUrl(text, 'https://h/p'));
					quickly(() =>
						proxyRequestUrl('http://127.0.0.1:8787/?u={url}', text.replace(/[\ud800-\udfff]/g, ''))
					);
				}
			),
			{ numRuns: 25 }
		);
	});
});
