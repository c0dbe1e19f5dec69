// The vendor's clients as data: what each makes a request look like (the Authorization header's
// separator, its nonce, its ts) and the catalogued mistakes it makes. Read from the vendor's own
// code: the samples of its docs (taptap/tds-docs, docs/sdk/taptap-login/taptap-oauth.mdx and the
// older guide/taptap-oauth.mdx, in Chinese and in English) and its Unity SDK (taptap/TapSDKLogin-Unity,
// Standalone/Runtime/Internal2/LoginService.cs). Every client writes the parts in the order id, ts,
// nonce, mac, each value quoted, and no ext. The tests/clients zoo runs each of them.
import { text, type Text } from '$lib/i18n/text';

export const CLIENT_IDS = [
	'docs-shell',
	'docs-node-current',
	'docs-node-old',
	'docs-java',
	'docs-php',
	'docs-python3',
	'docs-go',
	'unity-sdk'
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** How the header's parts are joined: `,` or `, `. */
export type Separator = 'comma' | 'comma-space';

/**
 * A nonce as a client makes it: 16 random bytes in Base64 (24 characters ending `==`), 16 random
 * ASCII letters, a decimal integer below 2^31 (.NET's `new Random().Next()`), or one of the fixed
 * values three samples ship with ("replace before launch", which integrators often do not).
 */
export type NonceStyle =
	'base64-16' | 'letters-16' | 'decimal' | 'shell-sample' | 'php-sample' | 'go-sample';

/**
 * How a client writes ts: left-padded to 10 digits (Java's `%010d`, Node's `padStart(10, '0')`) or
 * not. Both give the same 10 digits for any time after 2001-09-09: only an earlier ts tells them apart.
 */
export type TsStyle = 'padded' | 'unpadded';

/** The fixed nonces of the samples, exactly as their code has them. */
export const SAMPLE_NONCES = {
	/** The shell script's `NONCE="8IBTHwOdqNKAWeKl7plt8g=="`. */
	'shell-sample': '8IBTHwOdqNKAWeKl7plt8g==',
	/** The PHP sample's `$nonce = "== XinDong_Lee-JiEun =="`. */
	'php-sample': '== XinDong_Lee-JiEun ==',
	/** The Go sample's `nonce := "8IBTHwOdqNKAWeKl7plt66=="` (not valid Base64 of 16 bytes). */
	'go-sample': '8IBTHwOdqNKAWeKl7plt66=='
} as const;

export interface ClientProfile {
	id: ClientId;
	name: Text;
	separator: Separator;
	nonce: NonceStyle;
	ts: TsStyle;
	/**
	 * The catalogue's ids of the mistakes it makes (as the zoo names them, tests/clients/matrix.ts),
	 * as strings: a renamed id is changed here, once.
	 */
	mistakes: readonly string[];
	/**
	 * Of those, the ones that follow from this sample's own code rather than from a habit other
	 * signers share: seen with the client's shape, they name it with medium confidence.
	 */
	marks: readonly string[];
}

export const CLIENT_PROFILES: readonly ClientProfile[] = [
	{
		// bash: `TS=$(date +%s)`, the fixed NONCE, `printf "…\n443\n\n"`, REQUEST_HOST and REQUEST_URI
		// literal (one variable for the host signed and called), `printf 'MAC id="%s",ts="%s",…'`.
		id: 'docs-shell',
		name: text('client_name_docs_shell'),
		separator: 'comma',
		nonce: 'shell-sample',
		ts: 'unpadded',
		mistakes: ['query-decoded'],
		marks: []
	},
	{
		// `new URL(requestUrl)`: `url.pathname + url.search` signed (WHATWG: `'` as %27, a bare `?`
		// dropped), `url.port || 443`, ts `Math.floor(Date.now() / 1000)…padStart(10, '0')`,
		// `crypto.randomBytes(16).toString('base64')`, `MAC id="…", ts="…", nonce="…", mac="…"`. The
		// sample sends the same pathname + search (http.request's path): its mistakes come when an
		// integrator sends the URL as written instead (curl, urllib).
		id: 'docs-node-current',
		name: text('client_name_docs_node_current'),
		separator: 'comma-space',
		nonce: 'base64-16',
		ts: 'padded',
		mistakes: ['query-re-encoded', 'query-dropped'],
		marks: []
	},
	{
		// A hard-coded path and host, ts `Math.ceil(Date.now() / 1000)` (read once, in one variable;
		// an integrator who writes it inline twice signs another ts than it sends), randomBytes(16)
		// in Base64, `format('MAC id={id},ts={ts},nonce={nonce},mac={mac}', …)`, sent by urllib.
		id: 'docs-node-old',
		name: text('client_name_docs_node_old'),
		separator: 'comma',
		nonce: 'base64-16',
		ts: 'unpadded',
		mistakes: ['host-legacy', 'host-other-deployment', 'ts-other', 'query-decoded'],
		marks: []
	},
	{
		// uri = the text after the LAST occurrence of url.getHost() (keeps `:443`), port from the
		// scheme, ts `String.format("%010d", …)`, SecureRandom 16 bytes in Base64, key.getBytes() in
		// the platform charset, parts joined by ",".
		id: 'docs-java',
		name: text('client_name_docs_java'),
		separator: 'comma',
		nonce: 'base64-16',
		ts: 'padded',
		mistakes: [
			'uri-with-port',
			'uri-after-last-host',
			'key-ascii',
			'key-latin1',
			'key-gbk',
			'query-decoded'
		],
		// The text after the last occurrence of the host: `:443` kept, or a query that repeats
		// the host cut short. Other code takes the path from a URL parser.
		marks: ['uri-with-port', 'uri-after-last-host']
	},
	{
		// `$ts = time()`, the fixed nonce, `sprintf("%s\n…443\n\n", …)` over a literal path and host
		// apart from the URL called, `sprintf('MAC id="%s",ts="%s",nonce="%s",mac="%s"', …)`.
		id: 'docs-php',
		name: text('client_name_docs_php'),
		separator: 'comma',
		nonce: 'php-sample',
		ts: 'unpadded',
		mistakes: ['host-legacy', 'query-decoded'],
		marks: []
	},
	{
		// `str(int(time.time()))`, `random.choices(ascii_lowercase + ascii_uppercase, k=16)`, the
		// caller's host and request_url as they are, 'MAC id="{kid}",ts="{ts}",nonce="{nonce}",mac="{mac}"'.
		id: 'docs-python3',
		name: text('client_name_docs_python3'),
		separator: 'comma',
		nonce: 'letters-16',
		ts: 'unpadded',
		mistakes: ['host-legacy'],
		marks: []
	},
	{
		// `strconv.FormatInt(time.Now().Unix(), 10)`, the fixed nonce, reqHost and reqURI literal;
		// a server helper seen in the wild signs url.Values.Encode() (keys sorted, values re-escaped).
		id: 'docs-go',
		name: text('client_name_docs_go'),
		separator: 'comma',
		nonce: 'go-sample',
		ts: 'unpadded',
		mistakes: ['query-sorted', 'query-re-encoded', 'query-decoded'],
		marks: []
	},
	{
		// `uri.PathAndQuery`, literal "443", `(int)dt.TotalSeconds`, `new System.Random().Next()`,
		// key and text `Encoding.ASCII`, HMACSHA1 or HMACSHA256 by mac_algorithm, and
		// `AppendFormat(@"id=""{0}"",ts=""{1}"",nonce=""{2}"",mac=""{3}""", …)` after "MAC ".
		id: 'unity-sdk',
		name: text('client_name_unity_sdk'),
		separator: 'comma',
		nonce: 'decimal',
		ts: 'unpadded',
		mistakes: ['key-ascii', 'hmac-sha256'],
		marks: []
	}
];

/** The profile of a client. */
export function clientProfile(id: ClientId): ClientProfile {
	return CLIENT_PROFILES[CLIENT_IDS.indexOf(id)] as ClientProfile;
}
