import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat, readRequests, type ReadItem } from '$lib/read';
import { type TriageFormat } from '$lib/triage';

const encoder = new TextEncoder();

/** A stream of the given byte chunks, as File.stream() or a Node file stream gives them. */
function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
	return new ReadableStream({
		start(controller) {
			for (const chunk of chunks) controller.enqueue(chunk);
			controller.close();
		}
	});
}

async function read(
	input: string | ReadableStream<Uint8Array>
): Promise<{ format: TriageFormat | null; items: ReadItem[] }> {
	const reading = await readRequests(
		typeof input === 'string' ? streamOf(encoder.encode(input)) : input
	);
	const items: ReadItem[] = [];
	for await (const batch of reading.items) items.push(...batch);
	return { format: reading.format, items };
}

const HEADER =
	'MAC id="kid-0123456789",ts="1763800000",nonce="bm9uY2Ux",mac="abcdEFGH+/ijklmnopqrstuvwx="';

function entry(url: string, headers: { name: string; value: string }[], extra: object = {}) {
	return {
		startedDateTime: '2026-11-22T10:15:30.123Z',
		request: { method: 'GET', url, httpVersion: 'http/2.0', headers },
		response: {
			status: 401,
			content: { mimeType: 'application/json', text: '{"error":"]}\\"x\\\\", "é": "漢字 🙂"}' }
		},
		...extra
	};
}

const URL_CN = 'https://open.tapapis.cn/account/profile/v1?client_id=abc';

/** A HAR as devtools saves it: pages first, bodies with quotes, brackets and non-ASCII in them. */
const HAR = JSON.stringify(
	{
		log: {
			version: '1.2',
			creator: { name: 'WebInspector', version: '537.36' },
			pages: [{ id: 'page_1', title: 'entries: [ "not these" ]' }],
			entries: [
				entry(URL_CN, [{ name: 'accept', value: '*/*' }]),
				entry(URL_CN, [
					{ name: ':path', value: "/account/profile/v1?client_id=it's" },
					{ name: 'authorization', value: HEADER }
				]),
				3,
				entry(URL_CN, [{ name: 'Authorization', value: 'Bearer abc' }]),
				{ response: { status: 200 } },
				entry('https://open.tapapis.com/account/basic-info/v1?client_id=x', [
					{ name: 'Authorization', value: HEADER }
				])
			]
		}
	},
	null,
	2
);

describe('detectFormat', () => {
	it('tells a HAR, NDJSON and log lines from their start', () => {
		expect(detectFormat('{"log":{"entries":[')).toBe('har');
		expect(detectFormat('\ufeff  {\n  "log": {')).toBe('har');
		expect(detectFormat('{\n  "version": 1')).toBe('har');
		expect(detectFormat('{"method":"GET","url":"https://x"}\n{')).toBe('ndjson');
		expect(detectFormat('2026-11-22 10:00:00 GET https://x MAC id="a"')).toBe('log-lines');
		expect(detectFormat(' \n\t ')).toBeNull();
	});
});

describe('the HAR reader', () => {
	it('reads every entry, HTTP/2 :path included, and skips what is not signed with MAC', async () => {
		const { format, items } = await read(HAR);
		expect(format).toBe('har');
		expect(items).toEqual([
			{ kind: 'skipped', number: 1 },
			{
				kind: 'request',
				request: {
					number: 2,
					method: 'GET',
					// Built from :path, the bytes sent: what /verify's HAR reader does.
					url: "https://open.tapapis.cn/account/profile/v1?client_id=it's",
					authorization: HEADER,
					uriForm: 'browser',
					status: 401,
					sentAt: expect.objectContaining({ ms: Date.parse('2026-11-22T10:15:30.123Z') }),
					loggedBaseString: null
				}
			},
			{ kind: 'unreadable', unreadable: { number: 3, code: 'not-object' } },
			{ kind: 'skipped', number: 4 },
			{ kind: 'unreadable', unreadable: { number: 5, code: 'no-request' } },
			expect.objectContaining({
				kind: 'request',
				request: expect.objectContaining({
					number: 6,
					url: 'https://open.tapapis.com/account/basic-info/v1?client_id=x'
				})
			})
		]);
	});

	it('gives the same entries however the bytes are split, at every byte', async () => {
		const bytes = encoder.encode(HAR);
		const whole = await read(HAR);
		for (let at = 0; at <= bytes.length; at++) {
			const split = await read(streamOf(bytes.subarray(0, at), bytes.subarray(at)));
			if (JSON.stringify(split) !== JSON.stringify(whole))
				expect({ at, ...split }).toEqual({ at, ...whole });
		}
		// And one byte a chunk.
		const single = await read(streamOf(...Array.from(bytes, (byte) => Uint8Array.of(byte))));
		expect(single).toEqual(whole);
	});

	it('leaves response bodies out of the entry it keeps, however large', async () => {
		const body = 'x'.repeat(20 << 20);
		const big = JSON.stringify({
			log: {
				entries: [
					entry(URL_CN, [{ name: 'authorization', value: HEADER }], {
						response: { status: 200, content: { text: body } }
					})
				]
			}
		});
		const { items } = await read(big);
		expect(items).toEqual([
			expect.objectContaining({
				kind: 'request',
				request: expect.objectContaining({ status: 200 })
			})
		]);
	});

	it('says when a HAR is cut short, broken or has no entries', async () => {
		const cut = HAR.slice(0, HAR.indexOf('open.tapapis.com'));
		const cutItems = (await read(cut)).items;
		expect(cutItems.at(-1)).toEqual({
			kind: 'unreadable',
			unreadable: { number: 6, code: 'har-cut-short', at: encoder.encode(cut).length }
		});
		expect(cutItems).toHaveLength(6);

		// Broken outside any entry (in the pages, before the entries): reading stops there, at that byte.
		const broken = HAR.replace('"pages": [', '"pages": [}');
		expect((await read(broken)).items).toEqual([
			{
				kind: 'unreadable',
				unreadable: {
					number: 0,
					code: 'har-broken',
					at: encoder.encode(HAR.slice(0, HAR.indexOf('"pages": [') + 10)).length
				}
			}
		]);

		expect((await read('{"log": {"version": "1.2"}}')).items).toEqual([
			{ kind: 'unreadable', unreadable: { number: 0, code: 'har-no-entries', at: 27 } }
		]);
		expect((await read('{"log": {"entries": [{"request": }]}}')).items).toEqual([
			{ kind: 'unreadable', unreadable: { number: 1, code: 'not-json' } }
		]);
	});
});

describe('the NDJSON reader', () => {
	it('reads each object, its optional status, time and base_string, whatever the case of the names', async () => {
		const lines = [
			JSON.stringify({
				method: 'GET',
				url: URL_CN,
				authorization: HEADER,
				status: 200,
				time: 1763800001
			}),
			'',
			JSON.stringify({
				URL: URL_CN,
				Authorization: HEADER,
				time: '2026-11-22T10:15:30+08:00',
				base_string: 'a\\nb'
			}),
			JSON.stringify({ url: URL_CN, authorization: HEADER, time: '2026-11-22 10:15:30' })
		].join('\r\n');
		const { format, items } = await read(lines);
		expect(format).toBe('ndjson');
		expect(items).toEqual([
			{
				kind: 'request',
				request: {
					number: 1,
					method: 'GET',
					url: URL_CN,
					authorization: HEADER,
					uriForm: 'as-written',
					status: 200,
					sentAt: { ms: 1763800001000, source: 'log', zoneKnown: true },
					loggedBaseString: null
				}
			},
			{ kind: 'skipped', number: 2 },
			expect.objectContaining({
				request: expect.objectContaining({
					number: 3,
					method: 'GET',
					status: null,
					loggedBaseString: 'a\\nb',
					sentAt: expect.objectContaining({
						ms: Date.parse('2026-11-22T02:15:30Z'),
						zoneKnown: true
					})
				})
			}),
			expect.objectContaining({
				request: expect.objectContaining({
					number: 4,
					sentAt: expect.objectContaining({
						ms: Date.parse('2026-11-22T10:15:30Z'),
						zoneKnown: false
					})
				})
			})
		]);
	});

	it('makes every line it cannot read an unreadable item with its reason', async () => {
		const good = { url: URL_CN, authorization: HEADER };
		const lines = [
			'{"url": "https://x", oops',
			'[1, 2]',
			JSON.stringify({ authorization: HEADER }),
			JSON.stringify({ url: URL_CN }),
			JSON.stringify({ ...good, url: 42 }),
			JSON.stringify({ ...good, method: ['GET'] }),
			JSON.stringify({ ...good, status: 'teapot' }),
			JSON.stringify({ ...good, time: 'yesterday' }),
			JSON.stringify({ ...good, time: { at: 1 } }),
			JSON.stringify({ ...good, base_string: 7 }),
			JSON.stringify({ ...good, __proto__: { url: 'https://evil' } }),
			JSON.stringify(good)
		];
		const { items } = await read(`{"first": "line is JSON"}\n${lines.join('\n')}\n`);
		expect(
			items.map((item) =>
				item.kind === 'unreadable' ? [item.unreadable.code, item.unreadable.field] : item.kind
			)
		).toEqual([
			['no-url', undefined],
			['not-json', undefined],
			['not-object', undefined],
			['no-url', undefined],
			['no-authorization', undefined],
			['bad-field', 'url'],
			['bad-field', 'method'],
			['bad-field', 'status'],
			['bad-field', 'time'],
			['bad-field', 'time'],
			['bad-field', 'base_string'],
			'request',
			'request'
		]);
	});

	it('reports a line too long to keep and reads on after it', async () => {
		const long = `{"url": "${'a'.repeat((1 << 20) + 10)}"}`;
		const text = `{"x":1}\n${long}\n${JSON.stringify({ url: URL_CN, authorization: HEADER })}\n`;
		const bytes = encoder.encode(text);
		const chunks = [];
		for (let at = 0; at < bytes.length; at += 65536) chunks.push(bytes.subarray(at, at + 65536));
		const { items } = await read(streamOf(...chunks));
		expect(items.map((item) => (item.kind === 'unreadable' ? item.unreadable : item.kind))).toEqual(
			[{ number: 1, code: 'no-url' }, { number: 2, code: 'too-long' }, 'request']
		);
	});
});

describe('the log line reader', () => {
	it('finds the URL and the MAC header wherever they stand, with the method, status and time', async () => {
		const lines = [
			'starting server on :8080',
			`2026-11-22 10:15:30,118 INFO req GET ${URL_CN} status=401 Authorization: ${HEADER} took 3 ms`,
			`[2026-11-22T10:15:31Z] upstream call auth="${HEADER.replace(/"/g, '\\"')}" url=${URL_CN}.`,
			`POST https://open.tapapis.cn/x HTTP/1.1 200 mac ID=a, ts=1, nonce=n, mac=m`,
			`GET /account/profile/v1 ${HEADER}`
		];
		const { format, items } = await read(lines.join('\n'));
		expect(format).toBe('log-lines');
		expect(items).toEqual([
			{ kind: 'skipped', number: 1 },
			{
				kind: 'request',
				request: {
					number: 2,
					method: 'GET',
					url: URL_CN,
					authorization: HEADER,
					uriForm: 'as-written',
					status: 401,
					sentAt: expect.objectContaining({
						ms: Date.parse('2026-11-22T10:15:30.118Z'),
						zoneKnown: false
					}),
					loggedBaseString: null
				}
			},
			expect.objectContaining({
				request: expect.objectContaining({
					number: 3,
					url: URL_CN,
					authorization: HEADER,
					status: null,
					sentAt: expect.objectContaining({ zoneKnown: true })
				})
			}),
			expect.objectContaining({
				request: expect.objectContaining({
					number: 4,
					method: 'POST',
					url: 'https://open.tapapis.cn/x',
					authorization: 'mac ID=a, ts=1, nonce=n, mac=m',
					status: 200
				})
			}),
			{ kind: 'unreadable', unreadable: { number: 5, code: 'no-url' } }
		]);
	});
});

describe('hostile input', () => {
	it('never throws: any bytes become requests, unreadable or skipped items, one per line or entry', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 6 }),
				fc.constantFrom(
					'',
					'{"log":{"entries":[',
					'{"url":"https://a.b/","authorization":"MAC x"}\n',
					'{\n'
				),
				async (chunks, prefix) => {
					const { items } = await read(streamOf(encoder.encode(prefix), ...chunks));
					for (const item of items)
						expect(['request', 'unreadable', 'skipped']).toContain(item.kind);
				}
			),
			{ numRuns: 300 }
		);
	});

	it('ends a stream that fails with an unreadable item, not an exception', async () => {
		let sent = false;
		const failing = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent) controller.error(new Error('disk gone'));
				else
					controller.enqueue(
						encoder.encode(`${JSON.stringify({ url: URL_CN, authorization: HEADER })}\n`)
					);
				sent = true;
			}
		});
		const { items } = await read(failing);
		expect(items.map((item) => item.kind)).toEqual(['request', 'unreadable']);
		expect(items[1]).toEqual({
			kind: 'unreadable',
			unreadable: {
				number: 2,
				code: 'read-failed',
				at: encoder.encode(`${JSON.stringify({ url: URL_CN, authorization: HEADER })}\n`).length
			}
		});
	});
});
