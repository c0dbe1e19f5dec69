/** An http(s) URL split where the WHATWG parser splits it, keeping the path and query bytes as given. */
export interface HttpTarget {
	protocol: 'http:' | 'https:';
	/** Lower-case host name; an IPv6 literal keeps its brackets; IPv4 in its dotted form. */
	hostname: string;
	port: number;
	/** Host and port as a Host header carries them (the default port left out). */
	host: string;
	/** Path and query exactly as given (a fragment dropped); `/` when there is none. */
	path: string;
}

/** Bytes a request-target may carry: visible ASCII, nothing that needs encoding on the wire. */
const WIRE_PATH = /^[\x21-\x7e]*$/;

/**
 * Splits `http(s)://authority/path?query` without re-encoding the path and query, as `new URL`
 * would. The authority ends where the WHATWG parser ends it (`/`, `\`, `?` or `#`), so the host
 * checked and connected to is the one a browser would see; the host itself is parsed by `URL`.
 * Gives a message instead when the URL has credentials, bytes that cannot go on the wire, or is
 * not http(s).
 */
export function splitHttpUrl(raw: string): HttpTarget | string {
	const scheme = /^(https?):\/\//i.exec(raw);
	if (!scheme) return 'Only http:// and https:// upstreams are relayed.';
	const start = scheme[0].length;
	let end = start;
	while (end < raw.length && !'/\\?#'.includes(raw[end]!)) end++;
	const authority = raw.slice(start, end);
	if (authority.includes('@')) return 'The URL carries a user name or password.';
	let parsed: URL;
	try {
		parsed = new URL(`${scheme[1]!.toLowerCase()}://${authority}/`);
	} catch {
		return `"${raw}" is not a URL.`;
	}
	if (parsed.hostname === '') return `"${raw}" has no host.`;
	let rest = raw.slice(end);
	const hash = rest.indexOf('#');
	if (hash !== -1) rest = rest.slice(0, hash);
	if (rest.startsWith('\\')) return 'A backslash cannot start the path; write /.';
	if (!WIRE_PATH.test(rest))
		return 'The path and query may only carry visible ASCII; percent-encode the rest.';
	const protocol = parsed.protocol as 'http:' | 'https:';
	return {
		protocol,
		hostname: parsed.hostname,
		port: Number(parsed.port || (protocol === 'https:' ? 443 : 80)),
		host: parsed.host,
		path: rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest
	};
}
