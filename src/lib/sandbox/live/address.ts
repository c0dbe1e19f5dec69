import { withoutTrailing } from '$lib/mac/encoding';

export type AddressProblem = 'not-url' | 'not-http';

/**
 * A sandbox server's address as typed, as the base its endpoints hang from (no trailing slash), or
 * what is wrong with it. An address without a scheme (`127.0.0.1:8787`, `localhost:8787`) is http,
 * as the server prints it.
 */
export function serverBase(address: string): { url: string } | { error: AddressProblem } {
	const text = address.trim();
	let url: URL;
	try {
		url = new URL(text.includes('://') ? text : `http://${text}`);
	} catch {
		return { error: 'not-url' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'not-http' };
	return { url: `${url.origin}${withoutTrailing(url.pathname, '/')}` };
}
