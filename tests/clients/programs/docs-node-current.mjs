// The vendor's current Node.js sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx,
// "Node.js 请求示例" (getAuthorization, mergeData, signData, then https.request).
//
// Habits reproduced, as the sample has them:
// - the request URI is the WHATWG URL's `pathname + search`: it re-encodes the query (`'` as %27, a
//   space as %20, non-ASCII as UTF-8 escapes) and drops a bare trailing `?`;
// - the host is `url.hostname` (lower case), the port `url.port` or 443 / 80 from the scheme (the
//   WHATWG parser leaves `port` empty when the URL writes the default `:443`);
// - ts is `Math.floor(Date.now() / 1000)` padded to 10 digits with `padStart(10, '0')`;
// - the nonce is 16 random bytes in Base64 (`crypto.randomBytes(16).toString('base64')`);
// - the mac key goes to `crypto.createHmac` as a string (UTF-8), the header parts are joined by `, `;
// - the sample sends with `https.request({ hostname, port, path: pathname + search })`, so the bytes
//   on the wire are the same re-encoded URI it signed.
// Where the vendor's sample is left: `sender: "as-given"` is an integrator who signs with
// getAuthorization() but sends the URL as written (the header printed by the sample pasted into
// curl, or an HTTP client that keeps the string), so the re-encoded URI it signed is not what it sent.
//
// Input: one JSON object a line on stdin ({method, url, kid, mac_key, now_ms?, sender?}); output: one
// JSON line a request ({client, method, target, host, authorization, base_string}).
import crypto from 'node:crypto';
import readline from 'node:readline';

const CLIENT = 'docs-node-current';

/** The clock: the request's readings, else ZOO_NOW_MS (consumed in order), else Date.now(). */
function clock(request) {
	const own = request.now_ms ? request.now_ms.split(',').map(Number) : null;
	return () => {
		if (own && own.length > 0) return own.length > 1 ? own.shift() : own[0];
		const shared = process.env.ZOO_NOW_MS;
		if (shared) {
			const [first, ...rest] = shared.split(',');
			if (rest.length > 0) process.env.ZOO_NOW_MS = rest.join(',');
			return Number(first);
		}
		return Date.now();
	};
}

function getAuthorization(requestUrl, method, keyId, macKey, now) {
	const url = new URL(requestUrl);
	const time = Math.floor(now() / 1000)
		.toString()
		.padStart(10, '0');
	const randomStr = getRandomString(16);
	const host = url.hostname;
	const uri = url.pathname + url.search;
	const port = url.port || (url.protocol === 'https:' ? '443' : '80');
	const other = '';
	const base = mergeData(time, randomStr, method, uri, host, port, other);
	const sign = signData(base, macKey);
	return {
		authorization: `MAC id="${keyId}", ts="${time}", nonce="${randomStr}", mac="${sign}"`,
		base
	};
}

function getRandomString(length) {
	return crypto.randomBytes(length).toString('base64');
}

function mergeData(time, randomCode, httpType, uri, domain, port, other) {
	let prefix = `${time}\n${randomCode}\n${httpType}\n${uri}\n${domain}\n${port}\n`;
	if (!other) {
		prefix += '\n';
	} else {
		prefix += `${other}\n`;
	}
	return prefix;
}

function signData(signatureBaseString, key) {
	const hmac = crypto.createHmac('sha1', key);
	hmac.update(signatureBaseString);
	return hmac.digest('base64');
}

/** The path and query exactly as the URL's text writes them (what curl sends). */
function asWritten(url) {
	const rest = url.replace(/^[a-z]+:\/\/[^/?#]*/i, '');
	return (rest.startsWith('/') ? rest : `/${rest}`).split('#')[0];
}

for await (const line of readline.createInterface({ input: process.stdin })) {
	if (line.trim() === '') continue;
	const request = JSON.parse(line);
	const method = request.method || 'GET';
	const { authorization, base } = getAuthorization(
		request.url,
		method,
		request.kid,
		request.mac_key,
		clock(request)
	);
	const options = new URL(request.url);
	// https.request({ hostname, port, path }) sends Host: hostname, with the port only when it is not
	// the scheme's default (the WHATWG parser already left a written :443 out of `port`).
	const host = options.port ? `${options.hostname}:${options.port}` : options.hostname;
	const target =
		request.sender === 'as-given' ? asWritten(request.url) : options.pathname + options.search;
	console.log(
		JSON.stringify({ client: CLIENT, method, target, host, authorization, base_string: base })
	);
}
