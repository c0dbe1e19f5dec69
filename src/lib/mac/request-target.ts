import { MacInputError } from './errors';

export interface RequestTarget {
	/** Path plus query as the request line will carry it. */
	uri: string;
	/** Lower-case host name without port (IPv6 keeps its brackets). */
	host: string;
	port: string;
	/** The URL as it will be requested: what a client puts on the wire. */
	href: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/**
 * The parts of a URL that the base string signs. The URI is taken from the URL as the WHATWG
 * parser serialises it, which is what fetch and curl send: existing %-escapes are kept as typed
 * (never decoded or re-encoded), and a bare `?` stays, because the server signs what it receives.
 */
export function requestTarget(url: string): RequestTarget {
	const text = url.trim();
	if (text === '') throw new MacInputError('url', 'The URL is empty.');
	if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
		throw new MacInputError('url', `"${text}" has no scheme: start it with https:// (or http://).`);
	}
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		throw new MacInputError('url', `"${text}" is not a valid URL.`);
	}
	const port = DEFAULT_PORTS[parsed.protocol];
	if (port === undefined) {
		throw new MacInputError(
			'url',
			`Only https:// and http:// URLs can be signed, not ${parsed.protocol}//.`
		);
	}
	if (parsed.username !== '' || parsed.password !== '') {
		throw new MacInputError(
			'url',
			'The URL carries a user name or password; remove it (browsers refuse such URLs).'
		);
	}
	if (parsed.hostname === '') throw new MacInputError('url', 'The URL has no host.');
	// `pathname + search` would drop a bare trailing "?"; slicing the serialised URL keeps it.
	const withoutFragment = parsed.href.split('#', 1)[0] ?? parsed.href;
	const uri = withoutFragment.slice(parsed.origin.length) || '/';
	return {
		uri,
		host: parsed.hostname,
		port: parsed.port || port,
		href: withoutFragment
	};
}
