// Generators of pasted JSON for the /verify readers' property tests: HAR files and fetch calls as
// devtools saves and copies them, and the same with members missing, mistyped or hidden in __proto__.
import fc from 'fast-check';
import { requestTarget } from '$lib/mac';
import { hostile, jsonValueText, mostly, objectText } from './property-arbitraries';
import { anyHeader, authorizationPair, often, rarely, withItem } from './verify-arbitraries-shell';

/** A HAR entry as Chrome saves it over HTTP/2: pseudo-headers first, then the request's own. */
export function harEntryOf(url: string, authorization: string | null, name = 'authorization') {
	const headers = [
		{ name: ':authority', value: new URL(url).host },
		{ name: ':method', value: 'GET' },
		{ name: ':path', value: requestTarget(url).uri },
		{ name: ':scheme', value: new URL(url).protocol.slice(0, -1) },
		{ name: 'accept', value: '*/*' }
	];
	if (authorization !== null) headers.push({ name, value: authorization });
	return {
		request: { method: 'GET', url, httpVersion: 'http/2.0', headers, cookies: [], bodySize: 0 },
		response: { status: 200, headers: [], content: { text: '{"success":true}' } }
	};
}

export function harOf(entries: unknown[]) {
	return { log: { version: '1.2', creator: { name: 'WebInspector' }, entries } };
}

/** The call as Chrome ("Copy as fetch", or its Node.js variant) or Firefox ("Copy as Fetch") writes it. */
export function fetchOf(
	url: string,
	authorization: string,
	style: 'chrome' | 'node' | 'firefox'
): string {
	if (style === 'firefox') {
		const options = {
			credentials: 'omit',
			headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)', Authorization: authorization },
			referrer: 'https://game.example/',
			method: 'GET',
			mode: 'cors'
		};
		return `await fetch(${JSON.stringify(url)}, ${JSON.stringify(options, null, 4)});`;
	}
	const headers = { accept: '*/*', authorization };
	const options =
		style === 'node'
			? { headers, body: null, method: 'GET' }
			: { headers, referrer: 'https://game.example/', body: null, method: 'GET', mode: 'cors' };
	return `fetch(${JSON.stringify(url)}, ${JSON.stringify(options, null, 2)});`;
}

/** A HAR header as devtools writes it ({name, value}), or one of the wrong shape. */
const harHeader: fc.Arbitrary<string> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc
			.tuple(
				fc.oneof(
					fc.constantFrom(
						'Authorization',
						'authorization',
						'AUTHORIZATION',
						':path',
						':authority',
						'accept',
						'__proto__',
						''
					),
					hostile
				),
				fc.oneof(
					anyHeader,
					anyHeader.map((header) => `  ${header.replace(/^MAC/, 'mac')}`),
					fc.constantFrom('Bearer abc', 'MAC', 'MACHINE', '/p?a=1', '*', '/a?b=%2D', '//h/p', ''),
					hostile
				)
			)
			.map(([name, value]) =>
				objectText([
					['name', JSON.stringify(name)],
					['value', JSON.stringify(value)]
				])
			)
	},
	{
		weight: 1,
		arbitrary: fc
			.array(fc.tuple(fc.constantFrom('name', 'value', '__proto__', 'comment'), jsonValueText), {
				maxLength: 3
			})
			.map(objectText)
	},
	{ weight: 1, arbitrary: jsonValueText }
);

/** A HAR request: method, URL and headers, each now and then missing, of another type or hidden in __proto__. */
const harRequest: fc.Arbitrary<string> = fc
	.tuple(
		fc.oneof(fc.constantFrom('"GET"', '"get"', '"POST"', '"OPTIONS"', '""'), jsonValueText),
		fc.oneof(
			fc.webUrl({ withQueryParameters: true }).map((url) => JSON.stringify(url)),
			fc.constantFrom('"ftp://h/p"', '"/p"', '""', '"https://h"'),
			hostile.map((text) => JSON.stringify(text)),
			jsonValueText
		),
		fc.oneof(
			{
				weight: 5,
				arbitrary: fc
					.tuple(
						fc.array(harHeader, { maxLength: 5 }),
						fc.option(authorizationPair, { freq: 3 }),
						fc.nat()
					)
					.map(([others, pair, at]) => {
						const signed =
							pair &&
							objectText([
								['name', JSON.stringify(pair[0])],
								['value', JSON.stringify(pair[1])]
							]);
						return `[${withItem(others, signed, at).join(',')}]`;
					})
			},
			// Headers of another type: a reader that iterates them blindly throws here.
			{ weight: 1, arbitrary: jsonValueText }
		),
		fc.tuple(often, often, often, rarely, fc.boolean())
	)
	.map(([method, url, headers, present]) =>
		objectText(
			(['method', 'url', 'headers', '__proto__', 'cookies'] as const)
				.filter((_, index) => present[index])
				.map((key): [string, string] => [
					key,
					key === 'method'
						? method
						: key === 'url'
							? url
							: key === 'headers'
								? headers
								: key === '__proto__'
									? objectText([['headers', headers]])
									: '[]'
				])
		)
	);

const harEntry: fc.Arbitrary<string> = fc.oneof(
	{
		weight: 6,
		arbitrary: harRequest.map((request) =>
			objectText([
				['request', request],
				['response', '{"status":401,"headers":[],"content":{"text":"{}"}}']
			])
		)
	},
	{
		weight: 1,
		arbitrary: harRequest.map((request) => objectText([['__proto__', `{"request":${request}}`]]))
	},
	{ weight: 1, arbitrary: jsonValueText }
);

/** A HAR file, pretty-printed as devtools saves it or not, and JSON with "log" that is no HAR. */
export const harText: fc.Arbitrary<string> = fc
	.tuple(
		fc.oneof(
			{
				weight: 8,
				arbitrary: fc
					.array(harEntry, { maxLength: 5 })
					.map((entries) => `{"log":{"version":"1.2","entries":[${entries.join(',')}]}}`)
			},
			{ weight: 1, arbitrary: jsonValueText.map((log) => objectText([['log', log]])) },
			{
				weight: 1,
				arbitrary: fc
					.array(harEntry, { maxLength: 3 })
					.map((entries) => `{"log":{"__proto__":{"entries":[${entries.join(',')}]}}}`)
			}
		),
		fc.boolean(),
		fc.constantFrom('', '\ufeff', '\n  ')
	)
	.map(([text, pretty, lead]) => {
		if (!pretty) return lead + text;
		try {
			return lead + JSON.stringify(JSON.parse(text), null, 2);
		} catch {
			return lead + text;
		}
	});

/** fetch headers as devtools writes them (names to strings), or a value of another type. */
const fetchHeaders: fc.Arbitrary<string> = mostly(
	fc
		.tuple(
			fc.array(
				fc.tuple(
					fc.oneof(fc.constantFrom('accept', 'User-Agent', '__proto__', 'authorization'), hostile),
					fc.oneof(
						anyHeader,
						fc.constantFrom('*/*', 'Mozilla/5.0 (X11; Linux x86_64)', 'Bearer abc', '}) ] {'),
						hostile
					)
				),
				{ maxLength: 4 }
			),
			fc.option(authorizationPair, { freq: 10 }),
			fc.nat()
		)
		.map(([others, pair, at]) =>
			objectText(withItem(others, pair, at).map(([name, value]) => [name, JSON.stringify(value)]))
		),
	jsonValueText
);

const fetchOptions: fc.Arbitrary<string> = fc
	.tuple(
		fc.option(fetchHeaders, { freq: 12 }),
		fc.option(mostly(fc.constantFrom('"GET"', '"get"', '"POST"', '"patch"'), jsonValueText)),
		fc.option(jsonValueText),
		rarely
	)
	.map(([headers, method, body, hidden]) => {
		const entries: [string, string][] = [];
		if (headers !== null) entries.push(['headers', headers]);
		if (method !== null) entries.push(['method', method]);
		if (body !== null) entries.push(['body', body]);
		return hidden ? objectText([['__proto__', objectText(entries)]]) : objectText(entries);
	});

/** A fetch call as "Copy as fetch" writes it, with the variations a paste picks up. */
export const fetchText: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', 'await ', '  await\n', '\ufeff'),
		fc.constantFrom('fetch(', 'fetch (', 'fetch(\n  '),
		fc.oneof(fc.webUrl({ withQueryParameters: true }), hostile).map((url) => JSON.stringify(url)),
		fc.option(fetchOptions, { freq: 12 }),
		fc.constantFrom(
			')',
			');',
			');\n',
			' ,)',
			')\n\nfetch("https://h/");',
			').then((r) => r.json());'
		)
	)
	.map(
		([lead, call, url, options, end]) =>
			`${lead}${call}${url}${options === null ? '' : `, ${options}`}${end}`
	);
