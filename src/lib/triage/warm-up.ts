// A triage worker's first run would spend its first part in the interpreter while the compiler
// works beside it on every core: the page's worker therefore triages a small made-up log of its
// own as soon as it starts (before anyone has chosen a file), so that the readers, the checks, the
// columns and the diagnosis worker's code are compiled when the first real run comes. Nothing of it
// is reported; a real run stops it at once.
import { BASE_URLS } from '$lib/account-api/deployments';
import { authorizationHeader, baseString, requestTarget, utf8Bytes } from '$lib/mac';
import { base64Of, HmacSha1 } from './hmac/sha1';

/** Requests: enough for the hot code to be optimized, few enough to be done in a moment. */
const REQUESTS = 2000;
/**
 * One request in this many is a mismatch to diagnose: signed over its URL without the query (a
 * mistake the catalogue names), or, every other time, with another kid's key (one nothing explains,
 * which tries every variant).
 */
const MISMATCH_EVERY = 40;
const KIDS = ['warm-up-kid-1', 'warm-up-kid-2', 'warm-up-kid-3', 'warm-up-kid-4'];
const PATHS = ['/account/profile/v1', '/account/basic-info/v1'];

export interface WarmUpLog {
	text: string;
	keys: string;
}

/**
 * A made-up log: signed requests to this build's deployments, a few of them mismatches, as NDJSON
 * or as log lines.
 */
export function warmUpLog(format: 'ndjson' | 'log-lines', requests = REQUESTS): WarmUpLog {
	const keys = KIDS.map((kid, index) => [kid, `warm-up-mac-key-${index + 1}`] as const);
	const signers = keys.map(([, key]) => new HmacSha1(utf8Bytes(key)));
	const ts = Math.floor(Date.now() / 1000);
	const hosts = Object.values(BASE_URLS);
	const lines: string[] = [];
	for (let index = 0; index < requests; index++) {
		const which = index % keys.length;
		const url = `${hosts[index % hosts.length]}${PATHS[index % PATHS.length]}?client_id=warm-up&page=${index}`;
		const mismatch = index % MISMATCH_EVERY === MISMATCH_EVERY - 1;
		const otherKey = mismatch && index % (2 * MISMATCH_EVERY) === MISMATCH_EVERY - 1;
		const signed = mismatch && !otherKey ? url.split('?')[0]! : url;
		const target = requestTarget(signed);
		const nonce = `warm${index.toString(36)}`;
		const text = baseString({
			ts: String(ts),
			nonce,
			method: 'GET',
			uri: target.uri,
			host: target.host,
			port: target.port,
			ext: ''
		});
		const signer = signers[otherKey ? (which + 1) % signers.length : which]!;
		const mac = base64Of(signer.sign(text).bytes());
		const authorization = authorizationHeader({ id: keys[which]![0], ts: String(ts), nonce, mac });
		lines.push(
			format === 'ndjson'
				? JSON.stringify({
						method: 'GET',
						url,
						authorization,
						status: 200,
						// Both ways a log writes the time.
						time: index % 2 === 0 ? ts : new Date(ts * 1000).toISOString()
					})
				: `${new Date(ts * 1000).toISOString()} GET ${url} status=200 Authorization: ${authorization}`
		);
	}
	return { text: `${lines.join('\n')}\n`, keys: keys.map((pair) => pair.join(' ')).join('\n') };
}
