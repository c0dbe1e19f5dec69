import { fromBase64, isBase64, type WrittenTarget } from '$lib/mac';
import { reEncodings, safeDecode, sortQuery, splitUri, withQuery } from './query-rewrites';
import type { SigningInputs } from './signing-inputs';

export type MistakeId =
	| 'host-other-deployment'
	| 'host-as-written'
	| 'host-with-port'
	| 'port-wrong'
	| 'port-empty'
	| 'trailing-slash'
	| 'path-empty-no-slash'
	| 'path-params-dropped'
	| 'query-dropped'
	| 'query-decoded'
	| 'query-re-encoded'
	| 'query-sorted'
	| 'full-url'
	| 'method-lower-case'
	| 'ext-line-dropped'
	| 'extra-lf'
	| 'crlf'
	| 'ts-padded'
	| 'ts-unpadded'
	| 'ts-milliseconds'
	| 'ts-other'
	| 'nonce-whitespace'
	| 'nonce-url-encoded'
	| 'key-whitespace'
	| 'key-base64-decoded'
	| 'hmac-sha256'
	| 'digest-hex'
	| 'digest-base64url'
	| 'digest-unpadded';

/** What a mistake changes. Two mistakes in one slot change the same thing, so they never pair. */
export type Slot =
	| 'host'
	| 'host-port'
	| 'port'
	| 'path'
	| 'query'
	| 'uri-form'
	| 'method'
	| 'ending'
	| 'line-end'
	| 'ts'
	| 'nonce'
	| 'key'
	| 'hash'
	| 'encoding';

/** The request as it really was, for titles and for the values a mistake puts in its place. */
export interface MistakeContext {
	scheme: 'https' | 'http';
	/** The port as the URL writes it, '' when it shows none. */
	explicitPort: string;
	/** Hosts of the known deployments, lower case. */
	knownHosts: readonly string[];
	/** The host and URI as the URL's text writes them, when the URL is known as text. */
	written?: WrittenTarget;
}

export interface Candidate {
	inputs: SigningInputs;
	title: string;
	/** Overrides the entry's fix when this candidate needs another one. */
	fix?: string;
}

export interface Mistake {
	id: MistakeId;
	/** How often support sees it, roughly; only orders explanations that all reproduce the mac. */
	prior: number;
	slot: Slot;
	fix: string;
	/** The wrong inputs this mistake makes out of `inputs`; none when it would change nothing. */
	variants(inputs: SigningInputs, context: MistakeContext): Candidate[];
}

/** ±1 second, keeping the header's width so that a padded ts stays padded. */
function shiftTs(ts: string, by: number): string | null {
	if (!/^\d{1,15}$/.test(ts)) return null;
	const shifted = Number(ts) + by;
	return shifted < 0 ? null : String(shifted).padStart(ts.length, '0');
}

const show = (text: string) => JSON.stringify(text);

/**
 * The catalogue, in the order a signer builds the request, which is the order two mistakes are
 * applied in: the query is rewritten before the whole URL is signed, the host before its port.
 */
export const MISTAKES: readonly Mistake[] = [
	{
		id: 'host-other-deployment',
		prior: 0.12,
		slot: 'host',
		fix: 'Sign the host the request is sent to, taken from the same URL you call.',
		variants: (inputs, { knownHosts }) =>
			knownHosts
				.filter((host) => host !== inputs.host)
				.map((host) => ({
					inputs: { ...inputs, host },
					title: knownHosts.includes(inputs.host)
						? `Signed the other deployment's host (${host}) instead of the host called (${inputs.host})`
						: `Signed a deployment's host (${host}) instead of the host called (${inputs.host})`
				}))
	},
	{
		id: 'host-as-written',
		prior: 0.05,
		slot: 'host',
		fix: 'Sign the host name as the URL parser gives it (lower case, as the server compares it), not as the URL happens to be written.',
		variants: (inputs, { written }) => {
			const host = written?.host;
			if (host === undefined || host === '' || host === inputs.host) return [];
			return [
				{
					inputs: { ...inputs, host },
					title:
						host.toLowerCase() === inputs.host
							? `Signed the host as the URL writes it (${host}) instead of in lower case (${inputs.host}): Python's urlparse keeps the netloc's case`
							: `Signed the host as the URL writes it (${host}) instead of as it is sent (${inputs.host})`
				}
			];
		}
	},
	{
		id: 'host-with-port',
		prior: 0.08,
		slot: 'host-port',
		fix: 'Put the host name alone on the host line (url.hostname, not url.host); the port has its own line.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, host: `${inputs.host}:${inputs.port}` },
				title: `Signed the host with its port (${inputs.host}:${inputs.port})`
			}
		]
	},
	{
		id: 'port-wrong',
		prior: 0.07,
		slot: 'port',
		fix: 'Sign the port the request goes to: the one in the URL, else 443 for https (80 for http).',
		variants: (inputs, { scheme, explicitPort }) =>
			['443', '80', explicitPort]
				.filter(
					(port, index, all) => port !== '' && port !== inputs.port && all.indexOf(port) === index
				)
				.map((port) => ({
					inputs: { ...inputs, port },
					title: `Signed port ${port} instead of ${inputs.port}${portReason(port, scheme, explicitPort)}`
				}))
	},
	{
		id: 'port-empty',
		prior: 0.06,
		slot: 'port',
		fix: "When the URL shows no port, sign the scheme's default: 443 for https, 80 for http.",
		variants: (inputs) => [
			{
				inputs: { ...inputs, port: '' },
				title: `Left the port line empty instead of ${inputs.port} (JavaScript's url.port is empty when the URL shows no port)`
			}
		]
	},
	{
		id: 'trailing-slash',
		prior: 0.03,
		slot: 'path',
		fix: 'Sign the path exactly as requested, with or without its final slash.',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (path === '/' || path === '') return [];
			const dropped = path.endsWith('/');
			const changed = dropped ? path.slice(0, -1) : `${path}/`;
			return [
				{
					inputs: { ...inputs, uri: query === null ? changed : withQuery(changed, query) },
					title: `Signed the path with its trailing slash ${dropped ? 'dropped' : 'added'} (${changed})`
				}
			];
		}
	},
	{
		id: 'path-empty-no-slash',
		prior: 0.04,
		slot: 'path',
		fix: 'When the URL has no path, sign "/" as its path, as the request line sends it: "/?client_id=…", not "?client_id=…".',
		variants: (inputs, { written }) => {
			const { path, query } = splitUri(inputs.uri);
			// Only a URL written without a path is sent with the "/" a signer can leave out.
			if (path !== '/' || (written !== undefined && /^\//.test(written.uri))) return [];
			const uri = query === null || query === '' ? '' : `?${query}`;
			return [
				{
					inputs: { ...inputs, uri },
					title: `Signed the request URI without its leading "/" (${uri === '' ? 'an empty line' : uri}): the URL has no path, and the request line sends it as "/"`
				}
			];
		}
	},
	{
		id: 'path-params-dropped',
		prior: 0.02,
		slot: 'path',
		fix: 'Sign the whole path as sent, ";…" included: in Python take it from urlsplit, not urlparse, whose path leaves out the last segment\'s parameters.',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			const semicolon = path.indexOf(';', path.lastIndexOf('/'));
			if (semicolon < 0) return [];
			const kept = path.slice(0, semicolon);
			const uri = query === null || query === '' ? kept : withQuery(kept, query);
			return [
				{
					inputs: { ...inputs, uri },
					title: `Signed the path without the parameters of its last segment (${uri} instead of ${inputs.uri}): Python's urlparse splits ";${path.slice(semicolon + 1)}" off the path`
				}
			];
		}
	},
	{
		id: 'query-dropped',
		prior: 0.09,
		slot: 'query',
		fix: 'Sign the path and the query string together, exactly as sent (?client_id=…).',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return [
				{
					inputs: { ...inputs, uri: path },
					title: `Signed the path without its query string (${path})`
				}
			];
		}
	},
	{
		id: 'query-decoded',
		prior: 0.06,
		slot: 'query',
		fix: 'Sign the query string as it goes on the wire, percent-escapes included.',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return [safeDecode(query), safeDecode(query.replace(/\+/g, ' '))]
				.filter((decoded): decoded is string => decoded !== null && decoded !== query)
				.filter((decoded, index, all) => all.indexOf(decoded) === index)
				.map((decoded) => ({
					inputs: { ...inputs, uri: withQuery(path, decoded) },
					title: `Signed the query string decoded (${withQuery(path, decoded)})`
				}));
		}
	},
	{
		id: 'query-re-encoded',
		prior: 0.06,
		slot: 'query',
		fix: 'Sign the query string byte for byte as sent; do not decode and encode it again.',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return reEncodings(query).map(({ how, query: rewritten }) => {
				const uri = withQuery(path, rewritten);
				return {
					inputs: { ...inputs, uri },
					title: `Signed the query string re-encoded, ${how} (${uri})`
				};
			});
		}
	},
	{
		id: 'query-sorted',
		prior: 0.02,
		slot: 'query',
		fix: 'Keep the query parameters in the order they are sent; this scheme does not sort them.',
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			const sorted = sortQuery(query);
			if (sorted === query) return [];
			const uri = withQuery(path, sorted);
			return [
				{ inputs: { ...inputs, uri }, title: `Signed the query parameters sorted by name (${uri})` }
			];
		}
	},
	{
		id: 'full-url',
		prior: 0.06,
		slot: 'uri-form',
		fix: 'Sign the request URI only: the path and query, without scheme and host.',
		variants: (inputs, { scheme, explicitPort }) => {
			const url = `${scheme}://${inputs.host}${explicitPort ? `:${explicitPort}` : ''}${inputs.uri}`;
			return [
				{
					inputs: { ...inputs, uri: url },
					title: `Signed the full URL (${url}) instead of the path and query`
				}
			];
		}
	},
	{
		id: 'method-lower-case',
		prior: 0.03,
		slot: 'method',
		fix: 'Sign the method in upper case: GET.',
		variants: (inputs) => {
			const lower = inputs.method.toLowerCase();
			return lower === inputs.method
				? []
				: [
						{
							inputs: { ...inputs, method: lower },
							title: `Signed the method in lower case (${lower})`
						}
					];
		}
	},
	{
		id: 'ext-line-dropped',
		prior: 0.1,
		slot: 'ending',
		fix: 'End every one of the seven lines with LF, the empty ext line too, so the base string ends with two LFs.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'joined' },
				title:
					inputs.ext === ''
						? 'Joined the lines with LF instead of ending each with LF: the final empty ext line is lost, so the base string ends with one LF after the port instead of two'
						: 'Joined the lines with LF instead of ending each with LF: the base string lacks its final LF after ext'
			}
		]
	},
	{
		id: 'extra-lf',
		prior: 0.03,
		slot: 'ending',
		fix: "End the base string right after the ext line's LF.",
		variants: (inputs) => [
			{
				inputs: { ...inputs, ending: 'extra-lf' },
				title:
					'Added an extra line feed at the end of the base string (one more than the seven lines)'
			}
		]
	},
	{
		id: 'crlf',
		prior: 0.03,
		slot: 'line-end',
		fix: 'End the lines with LF (\\n) alone, also on Windows.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, lineEnd: '\r\n' },
				title: 'Ended the lines with CRLF (\\r\\n) instead of LF'
			}
		]
	},
	{
		id: 'ts-padded',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the ts exactly as the header writes it, padding included.',
		variants: (inputs) => {
			const padded = inputs.ts.padStart(10, '0');
			return padded === inputs.ts || !/^\d+$/.test(inputs.ts)
				? []
				: [
						{
							inputs: { ...inputs, ts: padded },
							title: `Signed the ts padded to 10 digits (${padded}) while the header has ${inputs.ts}`
						}
					];
		}
	},
	{
		id: 'ts-unpadded',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the ts exactly as the header writes it, padding included.',
		variants: (inputs) => {
			const unpadded = inputs.ts.replace(/^0+(?=\d)/, '');
			return unpadded === inputs.ts
				? []
				: [
						{
							inputs: { ...inputs, ts: unpadded },
							title: `Signed the ts without the zero padding the header has (${unpadded} instead of ${inputs.ts})`
						}
					];
		}
	},
	{
		id: 'ts-milliseconds',
		prior: 0.03,
		slot: 'ts',
		fix: 'Sign the same ts as the header, in whole seconds.',
		variants: (inputs) => {
			if (!/^\d{1,15}$/.test(inputs.ts)) return [];
			// A 12-digit count of seconds is the year 5138: more digits than that are milliseconds.
			if (inputs.ts.length >= 12) {
				const seconds = String(Math.floor(Number(inputs.ts) / 1000));
				return [
					{
						inputs: { ...inputs, ts: seconds },
						title: `Signed the ts in seconds (${seconds}) while the header has milliseconds (${inputs.ts})`,
						fix: 'Put the same ts in the header and the base string: whole seconds, not milliseconds.'
					}
				];
			}
			const milliseconds = String(Number(inputs.ts) * 1000);
			return [
				{
					inputs: { ...inputs, ts: milliseconds },
					title: `Signed the ts in milliseconds (${milliseconds}) while the header has seconds (${inputs.ts})`
				}
			];
		}
	},
	{
		id: 'ts-other',
		prior: 0.04,
		slot: 'ts',
		fix: 'Read the clock once and use that one ts string in the header and the base string.',
		variants: (inputs) =>
			[1, -1].flatMap((by) => {
				const ts = shiftTs(inputs.ts, by);
				return ts === null
					? []
					: [
							{
								inputs: { ...inputs, ts },
								title: `Signed a ts one second ${by > 0 ? 'later' : 'earlier'} than the header's (${ts} instead of ${inputs.ts}): the clock was read twice`
							}
						];
			})
	},
	{
		id: 'nonce-whitespace',
		prior: 0.02,
		slot: 'nonce',
		fix: 'Sign the nonce exactly as the header carries it, without adding or removing white space.',
		variants: (inputs) => {
			const trimmed = inputs.nonce.trim();
			if (trimmed !== inputs.nonce && trimmed !== '')
				return [
					{
						inputs: { ...inputs, nonce: trimmed },
						title: `Signed the nonce trimmed (${show(trimmed)}) while the header has ${show(inputs.nonce)}`
					}
				];
			return [
				[`${inputs.nonce}\n`, 'a trailing line feed'],
				[`${inputs.nonce} `, 'a trailing space'],
				[` ${inputs.nonce}`, 'a leading space']
			].map(([nonce = '', how]) => ({
				inputs: { ...inputs, nonce },
				title: `Signed the nonce with ${how} (${show(nonce)})`
			}));
		}
	},
	{
		id: 'nonce-url-encoded',
		prior: 0.03,
		slot: 'nonce',
		fix: 'Sign the nonce exactly as the header carries it, neither URL-encoded nor decoded.',
		variants: (inputs) => {
			const options: [string | null, string][] = [
				[encodeURIComponent(inputs.nonce), 'URL-encoded'],
				[safeDecode(inputs.nonce), 'URL-decoded'],
				[inputs.nonce.replace(/\+/g, ' '), 'form-decoded (+ became a space)']
			];
			const seen = new Set([inputs.nonce]);
			return options.flatMap(([nonce, how]) => {
				if (nonce === null || seen.has(nonce)) return [];
				seen.add(nonce);
				return [
					{
						inputs: { ...inputs, nonce },
						title: `Signed the nonce ${how} (${show(nonce)}) while the header has ${show(inputs.nonce)}`
					}
				];
			});
		}
	},
	{
		id: 'key-whitespace',
		prior: 0.05,
		slot: 'key',
		fix: 'Trim the mac_key where it is loaded: a file or an environment variable often adds a line feed.',
		variants: (inputs) => {
			if (typeof inputs.key !== 'string') return [];
			const trimmed = inputs.key.trim();
			if (trimmed !== inputs.key && trimmed !== '')
				return [
					{
						inputs: { ...inputs, key: trimmed, keyForm: 'the mac_key trimmed' },
						title:
							'Signed with the mac_key trimmed: the mac_key pasted here has surrounding white space',
						fix: 'Remove the white space around the mac_key pasted here; the customer signs with the trimmed key.'
					}
				];
			return [
				[`${inputs.key}\n`, 'a trailing line feed'],
				[`${inputs.key}\r\n`, 'a trailing CRLF'],
				[`${inputs.key} `, 'a trailing space'],
				[` ${inputs.key}`, 'a leading space']
			].map(([key = '', how]) => ({
				inputs: { ...inputs, key, keyForm: `the mac_key with ${how}` },
				title: `Signed with the mac_key plus ${how}`
			}));
		}
	},
	{
		id: 'key-base64-decoded',
		prior: 0.04,
		slot: 'key',
		fix: 'Use the mac_key as text: its UTF-8 bytes are the HMAC key, not its Base64-decoded bytes.',
		variants: (inputs) =>
			typeof inputs.key === 'string' && inputs.key !== '' && isBase64(inputs.key)
				? [
						{
							inputs: {
								...inputs,
								key: fromBase64(inputs.key),
								keyForm: 'the mac_key Base64-decoded'
							},
							title: 'Base64-decoded the mac_key and signed with the raw bytes'
						}
					]
				: []
	},
	{
		id: 'hmac-sha256',
		prior: 0.05,
		slot: 'hash',
		fix: 'Sign with HMAC-SHA-1 (mac_algorithm hmac-sha-1), not HMAC-SHA-256.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, hash: 'SHA-256' },
				title: 'Signed with HMAC-SHA-256 instead of HMAC-SHA-1'
			}
		]
	},
	{
		id: 'digest-hex',
		prior: 0.05,
		slot: 'encoding',
		fix: 'Encode the digest bytes with standard Base64, not as hex.',
		variants: (inputs) => [
			{ inputs: { ...inputs, encoding: 'hex' }, title: 'Wrote the digest as hex instead of Base64' }
		]
	},
	{
		id: 'digest-base64url',
		prior: 0.04,
		slot: 'encoding',
		fix: 'Use standard Base64 for the mac: + and /, with = padding.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64url' },
				title: 'Wrote the digest as Base64url (- and _ instead of + and /)'
			},
			{
				inputs: { ...inputs, encoding: 'base64url-unpadded' },
				title: 'Wrote the digest as Base64url (- and _ instead of + and /) without = padding'
			}
		]
	},
	{
		id: 'digest-unpadded',
		prior: 0.02,
		slot: 'encoding',
		fix: 'Keep the = padding at the end of the Base64 mac.',
		variants: (inputs) => [
			{
				inputs: { ...inputs, encoding: 'base64-unpadded' },
				title: 'Dropped the = padding from the Base64 digest'
			}
		]
	}
];

function portReason(port: string, scheme: string, explicitPort: string): string {
	if (explicitPort !== '' && port !== explicitPort)
		return ` (the ${port === '443' ? 'https' : 'http'} default, but the URL names port ${explicitPort})`;
	if (port === '80' && scheme === 'https') return ' (the http port, but the request is https)';
	if (port === '443' && scheme === 'http') return ' (the https port, but the request is http)';
	return '';
}

/** The catalogue entry by id, for a page that shows one entry's explanation on its own. */
export function mistakeById(id: MistakeId): Mistake | undefined {
	return MISTAKES.find((mistake) => mistake.id === id);
}
