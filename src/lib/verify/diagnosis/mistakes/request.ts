// Mistakes in what of the request is signed: the host, the port, the path, the query, the URI's form
// and the method, in the order a signer builds the request.
import { text, type Text } from '$lib/i18n/text';
import { reEncodings, safeDecode, sortQuery, splitUri, withQuery } from '../query-rewrites';
import type { CatalogueEntry } from './entry';

export const REQUEST_MISTAKES = [
	{
		id: 'host-other-deployment',
		prior: 0.12,
		slot: 'host',
		fix: text('diagnosis_fix_host_other_deployment'),
		variants: (inputs, { knownHosts }) =>
			knownHosts
				.filter((host) => host !== inputs.host)
				.map((host) => ({
					inputs: { ...inputs, host },
					title: text(
						knownHosts.includes(inputs.host)
							? 'diagnosis_title_host_other_deployment'
							: 'diagnosis_title_host_deployment',
						{ host, called: inputs.host }
					)
				}))
	},
	{
		id: 'host-as-written',
		prior: 0.05,
		slot: 'host',
		fix: text('diagnosis_fix_host_as_written'),
		variants: (inputs, { written }) => {
			const host = written?.host;
			if (host === undefined || host === '' || host === inputs.host) return [];
			return [
				{
					inputs: { ...inputs, host },
					title: text(
						host.toLowerCase() === inputs.host
							? 'diagnosis_title_host_case'
							: 'diagnosis_title_host_as_written',
						{ host, sent: inputs.host }
					)
				}
			];
		}
	},
	{
		id: 'host-with-port',
		prior: 0.08,
		slot: 'host-port',
		fix: text('diagnosis_fix_host_with_port'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, host: `${inputs.host}:${inputs.port}` },
				title: text('diagnosis_title_host_with_port', { host: `${inputs.host}:${inputs.port}` })
			}
		]
	},
	{
		id: 'port-wrong',
		prior: 0.07,
		slot: 'port',
		fix: text('diagnosis_fix_port_wrong'),
		variants: (inputs, { scheme, explicitPort }) =>
			['443', '80', explicitPort]
				.filter(
					(port, index, all) => port !== '' && port !== inputs.port && all.indexOf(port) === index
				)
				.map((port) => ({
					inputs: { ...inputs, port },
					title: portTitle(port, inputs.port, scheme, explicitPort)
				}))
	},
	{
		id: 'port-empty',
		prior: 0.06,
		slot: 'port',
		fix: text('diagnosis_fix_port_empty'),
		variants: (inputs) => [
			{
				inputs: { ...inputs, port: '' },
				title: text('diagnosis_title_port_empty', { port: inputs.port })
			}
		]
	},
	{
		id: 'trailing-slash',
		prior: 0.03,
		slot: 'path',
		fix: text('diagnosis_fix_trailing_slash'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (path === '/' || path === '') return [];
			const dropped = path.endsWith('/');
			const changed = dropped ? path.slice(0, -1) : `${path}/`;
			return [
				{
					inputs: { ...inputs, uri: query === null ? changed : withQuery(changed, query) },
					title: text(dropped ? 'diagnosis_title_slash_dropped' : 'diagnosis_title_slash_added', {
						path: changed
					})
				}
			];
		}
	},
	{
		id: 'path-empty-no-slash',
		prior: 0.04,
		slot: 'path',
		fix: text('diagnosis_fix_path_empty_no_slash'),
		variants: (inputs, { written }) => {
			const { path, query } = splitUri(inputs.uri);
			// Only a URL written without a path is sent with the "/" a signer can leave out.
			if (path !== '/' || (written !== undefined && /^\//.test(written.uri))) return [];
			const uri = query === null || query === '' ? '' : `?${query}`;
			return [
				{
					inputs: { ...inputs, uri },
					title:
						uri === ''
							? text('diagnosis_title_path_empty_line')
							: text('diagnosis_title_path_no_slash', { uri })
				}
			];
		}
	},
	{
		id: 'path-params-dropped',
		prior: 0.02,
		slot: 'path',
		fix: text('diagnosis_fix_path_params_dropped'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			const semicolon = path.indexOf(';', path.lastIndexOf('/'));
			if (semicolon < 0) return [];
			const kept = path.slice(0, semicolon);
			const uri = query === null || query === '' ? kept : withQuery(kept, query);
			return [
				{
					inputs: { ...inputs, uri },
					title: text('diagnosis_title_path_params_dropped', {
						uri,
						sent: inputs.uri,
						params: path.slice(semicolon + 1)
					})
				}
			];
		}
	},
	{
		id: 'query-dropped',
		prior: 0.09,
		slot: 'query',
		fix: text('diagnosis_fix_query_dropped'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return [
				{
					inputs: { ...inputs, uri: path },
					title: text('diagnosis_title_query_dropped', { path })
				}
			];
		}
	},
	{
		id: 'query-decoded',
		prior: 0.06,
		slot: 'query',
		fix: text('diagnosis_fix_query_decoded'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return [safeDecode(query), safeDecode(query.replace(/\+/g, ' '))]
				.filter((decoded): decoded is string => decoded !== null && decoded !== query)
				.filter((decoded, index, all) => all.indexOf(decoded) === index)
				.map((decoded) => ({
					inputs: { ...inputs, uri: withQuery(path, decoded) },
					title: text('diagnosis_title_query_decoded', { uri: withQuery(path, decoded) })
				}));
		}
	},
	{
		id: 'query-re-encoded',
		prior: 0.06,
		slot: 'query',
		fix: text('diagnosis_fix_query_re_encoded'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			return reEncodings(query).map(({ how, query: rewritten }) => {
				const uri = withQuery(path, rewritten);
				return {
					inputs: { ...inputs, uri },
					title: text('diagnosis_title_query_re_encoded', { how, uri })
				};
			});
		}
	},
	{
		id: 'query-sorted',
		prior: 0.02,
		slot: 'query',
		fix: text('diagnosis_fix_query_sorted'),
		variants: (inputs) => {
			const { path, query } = splitUri(inputs.uri);
			if (query === null) return [];
			const sorted = sortQuery(query);
			if (sorted === query) return [];
			const uri = withQuery(path, sorted);
			return [{ inputs: { ...inputs, uri }, title: text('diagnosis_title_query_sorted', { uri }) }];
		}
	},
	{
		id: 'full-url',
		prior: 0.06,
		slot: 'uri-form',
		fix: text('diagnosis_fix_full_url'),
		variants: (inputs, { scheme, explicitPort }) => {
			const url = `${scheme}://${inputs.host}${explicitPort ? `:${explicitPort}` : ''}${inputs.uri}`;
			return [
				{
					inputs: { ...inputs, uri: url },
					title: text('diagnosis_title_full_url', { url })
				}
			];
		}
	},
	{
		id: 'method-lower-case',
		prior: 0.03,
		slot: 'method',
		fix: text('diagnosis_fix_method_lower_case'),
		variants: (inputs) => {
			const lower = inputs.method.toLowerCase();
			return lower === inputs.method
				? []
				: [
						{
							inputs: { ...inputs, method: lower },
							title: text('diagnosis_title_method_lower_case', { method: lower })
						}
					];
		}
	}
] as const satisfies readonly CatalogueEntry[];

function portTitle(port: string, sent: string, scheme: string, explicitPort: string): Text {
	if (explicitPort !== '' && port !== explicitPort)
		return text('diagnosis_title_port_default', {
			port,
			sent,
			scheme: port === '443' ? 'https' : 'http',
			named: explicitPort
		});
	if (port === '80' && scheme === 'https') return text('diagnosis_title_port_http', { port, sent });
	if (port === '443' && scheme === 'http')
		return text('diagnosis_title_port_https', { port, sent });
	return text('diagnosis_title_port', { port, sent });
}
