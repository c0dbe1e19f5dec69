// Generators of pasted requests for the /verify readers' property tests: MAC headers, curl commands
// (bash and cmd) and raw HTTP requests, as devtools, terminals and logs write them, flaws included.
import fc from 'fast-check';
import { authorizationHeader, shellQuote, type MacHeaderParams } from '$lib/mac';
import { headerParams, hostile, mostly } from './property-arbitraries';

/** The params as parseAuthorization gives them back: an empty ext is not written. */
export function written(params: MacHeaderParams): MacHeaderParams {
	const { ext, ...rest } = params;
	return ext ? { ...rest, ext } : rest;
}
/** A realistic header: Base64-ish values, as the SDKs send. */
export const realisticParams: fc.Arbitrary<MacHeaderParams> = fc.record({
	id: fc.stringMatching(/^[A-Za-z0-9]{8,24}$/),
	ts: fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map(String),
	nonce: fc.stringMatching(/^[A-Za-z0-9+/]{8,16}={0,2}$/),
	mac: fc.stringMatching(/^[A-Za-z0-9+/]{27}=$/)
});
export const anyHeader = fc
	.tuple(fc.oneof(realisticParams, headerParams), fc.boolean())
	.map(([params, space]) => authorizationHeader(params, { space }));

/** How a word can be written on a POSIX command line: quoted for sh, raw, "…" or $'…'. */
const writePosix = fc.constantFrom<(word: string) => string>(
	shellQuote,
	shellQuote,
	(word) => word,
	(word) => `"${word.replace(/["\\$`]/g, '\\$&')}"`,
	(word) => `$'${word.replace(/['\\]/g, '\\$&')}'`
);
/** As "Copy as cURL (cmd)" writes a word: ^"…^" with \^" for a quote, ^ before cmd's specials. */
const writeCmd = (word: string) => `^"${word.replace(/"/g, '\\^"').replace(/[%&|<>!]/g, '^$&')}^"`;

/** One option with its argument, or a lone word, as curl commands carry them. */
const curlGroup: fc.Arbitrary<string[]> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.tuple(
				fc.constantFrom('-H', '--header', '-H'),
				fc.constantFrom('Authorization: ', 'authorization:', 'Authorization:  '),
				anyHeader
			)
			.map(([option, name, header]) => [option, `${name}${header}`])
	},
	{ weight: 3, arbitrary: fc.webUrl({ withQueryParameters: true }).map((url) => [url]) },
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom('-H', '--header'),
				fc.constantFrom('accept: */*', 'X-A: b', 'Authorization;', 'Authorization:', 'Host: h')
			)
			.map((pair) => [...pair])
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(fc.constantFrom('-X', '--request'), fc.constantFrom('GET', 'POST', 'get', ''))
			.map((pair) => [...pair])
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom(
					'-d',
					'--data',
					'--data-raw',
					'--data-urlencode',
					'--url-query',
					'--url',
					'-u',
					'--oauth2-bearer',
					'-o',
					'-T',
					'-F'
				),
				fc.constantFrom('a=b c', '@file', 'name@file', 'x', 'open.tapapis.cn/p', 'ftp://h/p', 'é=ü')
			)
			.map((pair) => [...pair])
	},
	{
		weight: 3,
		arbitrary: fc
			.constantFrom(
				'-G',
				'--get',
				'-I',
				'-sSL',
				'-g',
				'--globoff',
				'--path-as-is',
				'--compressed',
				'--',
				'-',
				'|',
				'&&',
				';',
				'2>&1',
				'>',
				'--no-buffer',
				'--made-up',
				'-XPOST',
				'-HAuthorization: MAC id=1',
				'-H'
			)
			.map((word) => [word])
	},
	{ weight: 1, arbitrary: hostile.map((word) => [word]) }
);

const curlProgram = mostly(
	fc.constantFrom('curl', 'curl', '$ curl', 'curl.exe', 'C:\\tools\\curl.exe', '/usr/bin/curl'),
	fc.constantFrom('wget', '', 'Curl', 'curly')
);

/** A curl command as bash "Copy as cURL" or a terminal writes it. */
const posixCurl = fc
	.tuple(
		curlProgram,
		fc.array(fc.tuple(curlGroup, writePosix), { maxLength: 8 }),
		fc.constantFrom(' ', ' \\\n  ', ' \\\r\n  ', '\t')
	)
	.map(
		([program, groups, gap]) =>
			program + groups.flatMap(([words, write]) => words.map((word) => gap + write(word))).join('')
	);

/** A curl command as "Copy as cURL (cmd)" writes it. */
const cmdCurl = fc
	.tuple(
		curlProgram,
		fc.array(curlGroup, { maxLength: 8 }),
		fc.constantFrom(' ', ' ^\n  ', ' ^\r\n  ')
	)
	.map(
		([program, groups, gap]) =>
			program + groups.flatMap((words) => words.map((word) => gap + writeCmd(word))).join('')
	);

export const curlText = fc.oneof(
	{ weight: 3, arbitrary: posixCurl },
	{ weight: 1, arbitrary: cmdCurl }
);

const rawHeader: fc.Arbitrary<[string, string]> = fc.oneof(
	{ weight: 4, arbitrary: fc.tuple(fc.constantFrom('Authorization', 'authorization'), anyHeader) },
	{
		weight: 3,
		arbitrary: fc.tuple(
			fc.constantFrom('Host', 'host', ':authority'),
			fc.constantFrom('open.tapapis.cn', 'h:80', 'h:8443', '[::1]:443', 'OPEN.tapapis.com', '')
		)
	},
	{
		weight: 2,
		arbitrary: fc.tuple(
			fc.constantFrom(':method', ':path', ':scheme', 'Accept', 'X-Forwarded-Host'),
			fc.constantFrom('GET', '/p', 'http', 'https', '*/*', 'x', '')
		)
	},
	{
		weight: 1,
		arbitrary: fc.tuple(
			fc.constantFrom('Bad Name', '', ' Host', 'Host ', 'é', 'Authorization', 'X-A'),
			hostile
		)
	}
);

export const rawText = fc
	.tuple(
		mostly(
			fc
				.tuple(
					fc.constantFrom('GET', 'get', 'POST', 'DELETE'),
					fc.oneof(
						fc.webPath().map((path) => path || '/'),
						fc.webUrl(),
						fc.constantFrom('*', '/account/profile/v1?client_id=abc')
					),
					fc.constantFrom(' HTTP/1.1', ' HTTP/2', '', ' HTTP/1.0 ', ' http/1.1')
				)
				.map(([method, target, version]) => `${method} ${target}${version}`),
			fc.oneof(hostile, fc.constantFrom('', 'MAC id="x"', 'GET', 'GET /a b'))
		),
		fc.array(fc.tuple(rawHeader, fc.constantFrom(': ', ':', ' : ', ':\t'), fc.boolean()), {
			maxLength: 6
		}),
		fc.constantFrom('\r\n', '\n', '\r'),
		fc.option(hostile)
	)
	.map(([requestLine, headers, eol, body]) => {
		const lines = headers.map(([[name, value], colon, folded]) =>
			// A folded header continues on the next line after white space, as old proxies log it.
			folded && value.includes(',')
				? `${name}${colon}${value.replace(',', `,${eol} `)}`
				: `${name}${colon}${value}`
		);
		const head = [requestLine, ...lines].join(eol);
		return body === null ? head : `${head}${eol}${eol}${body}`;
	});

/** True nine times in ten, and the other way round: a part usually there, a flaw now and then. */
export const often = fc.oneof(
	{ weight: 9, arbitrary: fc.constant(true) },
	{ weight: 1, arbitrary: fc.constant(false) }
);
export const rarely = often.map((value) => !value);

/** The list with an item put in at a chosen place, when there is one. */
export function withItem<T>(list: T[], item: T | null, at: number): T[] {
	if (item === null) return list;
	const index = at % (list.length + 1);
	return [...list.slice(0, index), item, ...list.slice(index)];
}

/** An Authorization header under any spelling of its name, usually with a MAC value. */
export const authorizationPair: fc.Arbitrary<[string, string]> = fc.tuple(
	fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION'),
	mostly(anyHeader, fc.oneof(hostile, fc.constantFrom('Bearer abc', 'MAC', '')))
);
