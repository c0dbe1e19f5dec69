// Which pages may use a server of this project (the relay, the sandbox server): the Origin header
// against the operator's patterns.
import { isIpLiteral } from './ip';

/** Local development and preview servers, and GitHub Pages sites. */
export const DEFAULT_ALLOWED_ORIGINS = [
	'http://localhost:5173',
	'http://127.0.0.1:5173',
	'http://localhost:4173',
	'http://127.0.0.1:4173',
	'https://*.github.io'
];

interface OriginPattern {
	protocol: string;
	port: string;
	/** The host; for a wildcard pattern, the suffix after `*.`. */
	host: string;
	wildcard: boolean;
}

function parseOriginPattern(pattern: string): OriginPattern | null {
	const wildcard = /^([a-z][a-z0-9+.-]*:\/\/)\*\.(.+)$/i.exec(pattern);
	try {
		const url = new URL(wildcard ? `${wildcard[1]}${wildcard[2]}` : pattern);
		return { protocol: url.protocol, port: url.port, host: url.hostname, wildcard: !!wildcard };
	} catch {
		return null;
	}
}

/**
 * Whether an Origin header is allowed: it must be a serialised origin (scheme, host, port; nothing
 * else), matched by scheme, host and port. `*.` in a pattern stands for one or more whole labels.
 */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return false;
	}
	if (url.origin !== origin.toLowerCase() || url.origin === 'null') return false;
	return patterns.some((text) => {
		const pattern = parseOriginPattern(text);
		if (!pattern || pattern.protocol !== url.protocol || pattern.port !== url.port) return false;
		if (!pattern.wildcard) return url.hostname === pattern.host;
		const suffix = `.${pattern.host}`;
		return (
			url.hostname.endsWith(suffix) &&
			!isIpLiteral(url.hostname) &&
			url.hostname.length > suffix.length &&
			!url.hostname.slice(0, -suffix.length).split('.').includes('')
		);
	});
}
