// The vendor's older Node.js sample: taptap/tds-docs docs/sdk/taptap-login/guide/taptap-oauth.mdx
// (and its English copy under i18n/en/), "nodejs 请求示例": urllib, string-format and utils.hmacSha1.
//
// Habits reproduced, as the sample has them:
// - the base string is an array joined by "\n" plus a final "\n": ts, nonce, 'GET', a hard-coded
//   path and query ('/account/profile/v1?client_id=' + client_id), a hard-coded host
//   ('openapi.taptap.com' in the sample; the integrator edits it, or forgets to), 443 and "";
// - the URL it calls is another hard-coded string, so the host signed and the host called can differ;
// - ts is `Math.ceil(Date.now() / 1000)`: up to a second ahead of the clock;
// - the nonce is 16 random bytes in Base64, the key goes to crypto.createHmac as a string (UTF-8);
// - the header is `format('MAC id={id},ts={ts},nonce={nonce},mac={mac}', …)`: parts joined by `,`;
// - urllib sends the URL through Node's legacy url.parse(): `path` escapes `'`, a space and a few
//   other characters, so a hand-written query can go out other than it was signed.
// Not in the vendor's sample but asked of the zoo: `ts_twice: "1"` is an integrator who writes
// `Math.ceil(Date.now() / 1000)` inline in the array and again in the header, reading the clock
// twice (the base string first); across a second boundary the two differ.
//
// Input: one JSON object a line on stdin ({method, url, host, request_uri, kid, mac_key, now_ms?,
// ts_twice?}); output: one JSON line a request ({client, method, target, host, authorization,
// base_string}).
import crypto from 'node:crypto';
import readline from 'node:readline';
import urlutil from 'node:url';

const CLIENT = 'docs-node-old';

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

// utils.js of the sample
const utils = {
	hmacSha1(encodedFlags, secretKey) {
		const hmac = crypto.createHmac('sha1', secretKey);
		hmac.update(encodedFlags);
		return hmac.digest('base64');
	}
};

// string-format's `format(template, object)`
const format = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => values[name]);

for await (const line of readline.createInterface({ input: process.stdin })) {
	if (line.trim() === '') continue;
	const request = JSON.parse(line);
	const now = clock(request);
	const kid = request.kid;
	const mac_key = request.mac_key;
	const nonce = crypto.randomBytes(16).toString('base64');

	// The sample reads the clock once; the inline variant reads it where each ts is written.
	const ts = request.ts_twice ? null : Math.ceil(now() / 1000);
	const ext = '';
	const signArray = [
		request.ts_twice ? Math.ceil(now() / 1000) : ts,
		nonce,
		'GET',
		request.request_uri,
		request.host,
		443,
		ext
	];
	const base = signArray.join('\n') + '\n';
	const mac = utils.hmacSha1(base, mac_key);
	const auth = format('MAC id={id},ts={ts},nonce={nonce},mac={mac}', {
		id: '"' + kid + '"',
		ts: '"' + (request.ts_twice ? Math.ceil(now() / 1000) : ts) + '"',
		nonce: '"' + nonce + '"',
		mac: '"' + mac + '"'
	});

	// urllib.request(url, …): url.parse(url), then http(s).request with its host and path.
	const parsed = urlutil.parse(request.url);
	console.log(
		JSON.stringify({
			client: CLIENT,
			method: 'GET',
			target: parsed.path,
			host: parsed.host,
			authorization: auth,
			base_string: base
		})
	);
}
