// Mistakes in what of the request is signed: the host, the port, the path, the query, the URI's form
// and the method, in the order a signer builds the request.
import { reEncodings, safeDecode, sortQuery, splitUri, withQuery } from '../query-rewrites';
import type { CatalogueEntry } from './entry';

export const REQUEST_MISTAKES = [
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
	}
] as const satisfies readonly CatalogueEntry[];

function portReason(port: string, scheme: string, explicitPort: string): string {
	if (explicitPort !== '' && port !== explicitPort)
		return ` (the ${port === '443' ? 'https' : 'http'} default, but the URL names port ${explicitPort})`;
	if (port === '80' && scheme === 'https') return ' (the http port, but the request is https)';
	if (port === '443' && scheme === 'http') return ' (the https port, but the request is http)';
	return '';
}
