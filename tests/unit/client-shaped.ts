// Requests signed as each of the vendor's clients signs them (their habits as in
// src/lib/diagnosis/client-profiles.ts): its nonce, its ts, how it joins the header's parts and how
// it takes the request URI, signed with node:crypto. For the likely-client tests, unit and
// end-to-end alike (no $lib import: Playwright loads this file as it is).
import { createHmac, randomBytes } from 'node:crypto';

export type ShapedClient =
	| 'docs-shell'
	| 'docs-node-current'
	| 'docs-node-old'
	| 'docs-java'
	| 'docs-php'
	| 'docs-python3'
	| 'docs-go'
	| 'unity-sdk';

export interface Signing {
	kid: string;
	key: string;
	/** The URL called, as the integrator writes it. */
	url: string;
	/** Unix seconds (default now). */
	seconds?: number;
	/** The host signed, where the client takes it apart from the URL (a legacy host). */
	signedHost?: string;
	/** Unity: mac_algorithm hmac-sha-256. */
	sha256?: boolean;
}

export interface Shaped {
	client: ShapedClient;
	url: string;
	authorization: string;
	baseString: string;
}

function nonceOf(client: ShapedClient): string {
	switch (client) {
		case 'docs-shell':
			return '8IBTHwOdqNKAWeKl7plt8g==';
		case 'docs-php':
			return '== XinDong_Lee-JiEun ==';
		case 'docs-go':
			return '8IBTHwOdqNKAWeKl7plt66==';
		case 'docs-python3': {
			const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
			return Array.from(randomBytes(16), (byte) => letters[byte % 52]).join('');
		}
		case 'unity-sdk':
			return String(randomBytes(4).readUInt32BE() % 2_147_483_647);
		default:
			return randomBytes(16).toString('base64');
	}
}

/** Signs a GET of `url` as `client` does; returns what it sends. */
export function signAs(client: ShapedClient, signing: Signing): Shaped {
	const seconds = signing.seconds ?? Math.floor(Date.now() / 1000);
	const padded = client === 'docs-java' || client === 'docs-node-current';
	const ts = padded ? String(seconds).padStart(10, '0') : String(seconds);
	const nonce = nonceOf(client);
	const authority = /^https?:\/\/([^/?#]*)/.exec(signing.url)?.[1] ?? '';
	const host = authority.replace(/:\d+$/, '').toLowerCase();
	// Java: the text after the last occurrence of the host (a written :443 kept); the others: the
	// path and query as written.
	const uri =
		client === 'docs-java'
			? signing.url.slice(signing.url.lastIndexOf(host) + host.length)
			: signing.url.slice(signing.url.indexOf(authority) + authority.length) || '/';
	const baseString = `${ts}\n${nonce}\nGET\n${uri}\n${signing.signedHost ?? host}\n443\n\n`;
	// Unity encodes the key and the text as ASCII: every other character is "?".
	const ascii = (text: string) =>
		Buffer.from(
			Array.from(text, (char) => (char.charCodeAt(0) < 0x80 ? char : '?')).join(''),
			'latin1'
		);
	const unity = client === 'unity-sdk';
	const mac = createHmac(
		signing.sha256 ? 'sha256' : 'sha1',
		unity ? ascii(signing.key) : signing.key
	)
		.update(unity ? ascii(baseString) : Buffer.from(baseString))
		.digest('base64');
	const parts = [`id="${signing.kid}"`, `ts="${ts}"`, `nonce="${nonce}"`, `mac="${mac}"`];
	const authorization = `MAC ${parts.join(client === 'docs-node-current' ? ', ' : ',')}`;
	return { client, url: signing.url, authorization, baseString };
}

/** One NDJSON line a log would hold for the request. */
export function ndjsonLine(shaped: Shaped, time?: number): string {
	return JSON.stringify({
		method: 'GET',
		url: shaped.url,
		authorization: shaped.authorization,
		...(time === undefined ? {} : { time })
	});
}
