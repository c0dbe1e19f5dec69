// Mistakes in the request URI line (its path, its query, its form) and in the method line.
import { text } from '$lib/i18n/text';
import {
	asTyped,
	dotnetPathAndQuery,
	reEncodings,
	safeDecode,
	sortQuery,
	splitUri,
	whatwgPathAndSearch,
	withQuery
} from '../query-rewrites';
import type { CatalogueEntry, MistakeContext } from './entry';
import type { SigningInputs } from '../signing-inputs';

/**
 * The docs' Java sample takes the request URI as the URL's text after the LAST occurrence of the
 * host name (`url.substring(url.lastIndexOf(host) + host.length())`), so a written ":443" stays in
 * front of the path, and a query holding the host's own text is cut after it; it signs the port of
 * the scheme (443 for https, 80 for http), never the URL's. The signed URI (from the URI as sent,
 * so that it composes with the mistakes applied before it), and whether the host was found in it.
 */
function afterHost(
	inputs: SigningInputs,
	{ written, writtenPort }: MistakeContext
): { uri: string; inUri: boolean } | null {
	const host = written?.host;
	if (host === undefined || host === '') return null;
	const last = inputs.uri.lastIndexOf(host);
	if (last >= 0) return { uri: inputs.uri.slice(last + host.length), inUri: true };
	// A log rebuilds the URL from the Host header, which leaves the default port out: ":443" may
	// have been written in the URL the client was given even where the URL here shows none.
	const port = writtenPort === undefined || writtenPort === '' ? `:${inputs.port}` : writtenPort;
	return { uri: port + inputs.uri, inUri: false };
}

/**
 * A mistake's variants where a client's URL class rewrites the request URI (`write`; null when it
 * cannot read it): none when it changes nothing, else the rewritten URI, titled with both.
 */
function uriWrittenBy(
	write: (uri: string) => string | null,
	title:
		'diagnosis_title_uri_as_typed' | 'diagnosis_title_uri_dotnet' | 'diagnosis_title_uri_whatwg'
): CatalogueEntry['variants'] {
	return (inputs) => {
		const uri = write(inputs.uri);
		return uri === null || uri === inputs.uri
			? []
			: [{ inputs: { ...inputs, uri }, title: text(title, { uri, sent: inputs.uri }) }];
	};
}

/** The Java sample's port line: the scheme's, when the URL names another. */
function schemePort(inputs: SigningInputs, { scheme }: MistakeContext): string | null {
	const port = scheme === 'https' ? '443' : '80';
	return port === inputs.port ? null : port;
}

export const REQUEST_URI_MISTAKES = [
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
		id: 'uri-as-typed',
		// As likely as query-decoded and after it, so that where both give the same base string the
		// plainer one is named (a sort keeps the catalogue's order for equal likelihoods); this one
		// where the person typed an escape too (%2F kept, `'` escaped by the HTTP client), and before
		// query-re-encoded, whose encodeURIComponent of decoded values can happen to give the same.
		prior: 0.06,
		slot: 'query',
		fix: text('diagnosis_fix_uri_as_typed'),
		variants: uriWrittenBy(asTyped, 'diagnosis_title_uri_as_typed')
	},
	{
		id: 'uri-dotnet',
		// Before query-re-encoded at the same prior: what .NET writes (%7E as ~, | as %7C) can equal an
		// encodeURIComponent of the decoded values, and .NET is what the Unity SDK runs on.
		prior: 0.06,
		slot: 'query',
		fix: text('diagnosis_fix_uri_dotnet'),
		variants: uriWrittenBy(dotnetPathAndQuery, 'diagnosis_title_uri_dotnet')
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
		id: 'uri-whatwg',
		// After query-re-encoded, whose "as a URL parser writes it" is the same rewrite of the query
		// alone and names no client (Go's url.Values writes ' as %27 too): this one where the path
		// changes as well (/./ resolved, a bare ? dropped with it).
		prior: 0.04,
		slot: 'query',
		fix: text('diagnosis_fix_uri_whatwg'),
		variants: uriWrittenBy(whatwgPathAndSearch, 'diagnosis_title_uri_whatwg')
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
		id: 'uri-with-port',
		prior: 0.04,
		slot: 'uri-form',
		fix: text('diagnosis_fix_uri_after_host'),
		variants: (inputs, context) => {
			const cut = afterHost(inputs, context);
			if (cut === null || cut.inUri) return [];
			const port = cut.uri.slice(0, cut.uri.length - inputs.uri.length);
			const title = text('diagnosis_title_uri_with_port', { uri: cut.uri, port });
			const scheme = schemePort(inputs, context);
			return [
				{ inputs: { ...inputs, uri: cut.uri }, title },
				...(scheme === null
					? []
					: [
							{
								inputs: { ...inputs, uri: cut.uri, port: scheme },
								title: text('diagnosis_title_uri_scheme_port', {
									title,
									port: scheme,
									sent: inputs.port
								})
							}
						])
			];
		}
	},
	{
		id: 'uri-after-last-host',
		prior: 0.02,
		slot: 'uri-form',
		fix: text('diagnosis_fix_uri_after_host'),
		variants: (inputs, context) => {
			const cut = afterHost(inputs, context);
			if (cut === null || !cut.inUri || cut.uri === inputs.uri) return [];
			const title = text('diagnosis_title_uri_after_last_host', {
				uri: cut.uri,
				sent: inputs.uri,
				host: context.written?.host ?? ''
			});
			const scheme = schemePort(inputs, context);
			return [
				{ inputs: { ...inputs, uri: cut.uri }, title },
				...(scheme === null
					? []
					: [
							{
								inputs: { ...inputs, uri: cut.uri, port: scheme },
								title: text('diagnosis_title_uri_scheme_port', {
									title,
									port: scheme,
									sent: inputs.port
								})
							}
						])
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
