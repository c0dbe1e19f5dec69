// The zoo's requests: what an integrator of each vendor client plausibly sends, and what the triage
// must say of each. The expected mistakes are named here once (MISTAKE_IDS), by what the client did,
// so that the catalogue's ids can be renamed in one place.
import { DEPLOYMENTS } from '../../src/lib/account-api/deployments';
import { DEMO_ACCOUNTS } from '../../src/lib/sandbox/accounts';

// The vendor's clients, one program each in programs/: the ids Likely client names them by.
export { CLIENT_IDS, type ClientId } from '../../src/lib/diagnosis/client-profiles';
import { CLIENT_IDS, type ClientId } from '../../src/lib/diagnosis/client-profiles';

/**
 * Each mistake the zoo's clients make, by what the client did → the catalogue id the triage must
 * name for it. Ids marked "new" are not in the catalogue yet (issue 22, part 2); the others are the
 * catalogue's today. Rename here when the catalogue settles its ids.
 */
export const MISTAKE_IDS = {
	/** The kid (equal to access_token) used as the mac_key. New. */
	'key-is-kid': 'key-is-kid',
	/** The mac_key's characters as ASCII bytes, every non-ASCII one as "?" (Unity; Java on a POSIX locale). New. */
	'key-ascii': 'key-ascii',
	/** The mac_key as ISO-8859-1 bytes (Java's key.getBytes() on a Latin-1 platform). New. */
	'key-latin1': 'key-latin1',
	/** The mac_key as GBK bytes (Java's key.getBytes() on a Chinese Windows, JDK 17 and older). New; beyond the list. */
	'key-gbk': 'key-gbk',
	/** The request URI taken as the text after the host, so a written ":443" is signed before the path (Java). New. */
	'uri-with-port': 'uri-with-port',
	/** The request URI taken after the LAST occurrence of the host's text, which the query holds too (Java). New. */
	'uri-after-last-host': 'uri-after-last-host',
	/** openapi.taptap.com (the older docs' domestic host) signed while open.tapapis.cn is called. New. */
	'host-legacy-domestic': 'host-legacy',
	/** openapi.tap.io (the older docs' overseas host) signed while open.tapapis.com is called. New. */
	'host-legacy-overseas': 'host-legacy',
	/** openapi.taptap.com (the other region's legacy host) signed while open.tapapis.com is called. New. */
	'host-legacy-other-region': 'host-legacy',
	/** The other deployment's current host signed. */
	'host-other-deployment': 'host-other-deployment',
	/** HMAC-SHA-256 instead of HMAC-SHA-1 (Unity's mac_algorithm "hmac-sha-256"). */
	'hmac-sha-256': 'hmac-sha256',
	/** ts read from the clock twice, once for the base string and once for the header, a second apart. */
	'ts-read-twice': 'ts-other',
	/** A raw non-ASCII query signed as it is, while HTTP carries it percent-encoded. */
	'signed-raw-non-ascii': 'query-decoded',
	/** A raw space signed as it is, while HTTP carries it percent-encoded. */
	'signed-raw-space': 'query-decoded',
	/** Signed as typed, sent through Node's legacy url.parse(), which escapes `'` and a space (urllib). */
	'sent-escaped-by-url-parse': 'query-decoded',
	/** WHATWG URL's re-encoding of `'` as %27 signed, the URL sent as written. Per-character id to come. */
	'whatwg-quote-encoded': 'query-re-encoded',
	/** WHATWG URL's `search` drops a bare "?": the path signed alone, the "?" sent. */
	'whatwg-bare-question-dropped': 'query-dropped',
	/** url.Values.Encode() signed (keys sorted), the caller's query sent. */
	'values-encode-sorted': 'query-sorted',
	/** url.Values.Encode() signed (values re-escaped: `'` as %27), the caller's query sent. */
	'values-encode-escaped': 'query-re-encoded'
} as const;
export type Expected = keyof typeof MISTAKE_IDS;

/** 'match', or the mistakes (one, or two at once) the triage must name. */
export type Expectation = 'match' | Expected | readonly [Expected, Expected];

/** The catalogue ids an expectation stands for, sorted; none for a match. */
export function catalogueIds(expectation: Expectation): string[] {
	if (expectation === 'match') return [];
	const ids = typeof expectation === 'string' ? [expectation] : [...expectation];
	return ids.map((id) => MISTAKE_IDS[id]).sort();
}

export interface Account {
	kid: string;
	macKey: string;
	clientId: string;
}

const [PROFILE_ACCOUNT, BASIC_ACCOUNT] = DEMO_ACCOUNTS;
if (!PROFILE_ACCOUNT || !BASIC_ACCOUNT) throw new Error('the sandbox has two demo accounts');
export const PROFILE: Account = PROFILE_ACCOUNT;
export const BASIC: Account = BASIC_ACCOUNT;
/**
 * Not a demo account: a credential whose mac_key has non-ASCII characters (Latin-1 and CJK), which
 * the zoo's sandbox is given beside the demo accounts (sandbox.ts), so that it verifies them too.
 */
export const NON_ASCII: Account = {
	kid: 'zoo-kid-non-ascii-7d3b',
	macKey: 'zoo-clé-密钥-ü',
	clientId: PROFILE.clientId
};
export const ACCOUNTS: readonly Account[] = [PROFILE, BASIC, NON_ASCII];

// The deployments' hosts from their one home; a client signs them as the docs printed them.
export const HOSTS = { cn: DEPLOYMENTS.domestic.host, com: DEPLOYMENTS.overseas.host } as const;
export const LEGACY_HOSTS = {
	cn: DEPLOYMENTS.domestic.legacyHost,
	com: DEPLOYMENTS.overseas.legacyHost
} as const;
const PATHS = { profile: '/account/profile/v1', basic: '/account/basic-info/v1' } as const;
const CID = `client_id=${PROFILE.clientId}`;

/** Queries encoders disagree on, each as the integrator writes it. */
const QUERIES = {
	quote: `${CID}&state=it's`,
	space: `${CID}&state=a b`,
	slash: `${CID}&next=%2Fhome`,
	tilde: `${CID}&tag=~zoo`,
	plus: `${CID}&q=a+b`,
	rawNonAscii: `${CID}&name=小明`,
	encodedNonAscii: `${CID}&name=%E5%B0%8F%E6%98%8E`,
	repeated: `${CID}&scope=a&scope=b`,
	outOfOrder: `state=x&${CID}`,
	emptyValue: `${CID}&state=`,
	hostText: `${CID}&redirect=https://open.tapapis.cn/cb`
} as const;

/** One request of the matrix, before a client signs it. */
interface Shape {
	name: string;
	op?: keyof typeof PATHS;
	region?: keyof typeof HOSTS;
	/** After the "?"; "" is a bare "?". */
	query?: string;
	account?: Account;
	/** The host signed, where the client takes it apart from the URL it calls. */
	signedHost?: string;
	/** The URL written with ":443". */
	port443?: boolean;
	/** The kid given as the mac_key. */
	keyIsKid?: boolean;
	/** More fields for the client's program. */
	extra?: Record<string, string>;
	/** Java's platform charset (-Dfile.encoding), UTF-8 when not given. */
	charset?: string;
	/** How the client reads the clock: once (default), or twice within a second or across one. */
	clock?: 'once' | 'twice-same-second' | 'twice-across-second';
	expect: Expectation;
}

/** One request a client signs and sends. */
export interface ZooRequest {
	/** `client/slug`, unique. */
	id: string;
	client: ClientId;
	name: string;
	account: Account;
	/** The URL the integrator called (scheme, host, port as written, path and query). */
	url: string;
	/** What the program is given (strings only). */
	input: Record<string, string>;
	/** Java's platform charset; one JVM runs each. */
	charset: string;
	expect: Expectation;
}

/** The operations in both regions, with the account that may call each. */
const BASICS: Shape[] = [
	{ name: 'profile, domestic', expect: 'match' },
	{ name: 'basic-info, domestic', op: 'basic', account: BASIC, expect: 'match' },
	{ name: 'profile, overseas', region: 'com', expect: 'match' },
	{ name: 'basic-info, overseas', op: 'basic', region: 'com', account: BASIC, expect: 'match' }
];

/** The query characters a client that signs its string as typed signs and sends alike. */
function literalQueries(except: (keyof typeof QUERIES)[] = []): Shape[] {
	const names: Record<keyof typeof QUERIES, string> = {
		quote: "a ' in the query",
		space: 'a space in the query',
		slash: '%2F in the query',
		tilde: '~ in the query',
		plus: '+ in the query',
		rawNonAscii: 'non-ASCII in the query, raw',
		encodedNonAscii: 'non-ASCII in the query, percent-encoded',
		repeated: 'a repeated key',
		outOfOrder: 'keys out of order',
		emptyValue: 'an empty value',
		hostText: "a query holding the host's own text"
	};
	return (Object.keys(names) as (keyof typeof QUERIES)[])
		.filter((key) => !except.includes(key) && key !== 'space' && key !== 'rawNonAscii')
		.map((key) => ({ name: names[key], query: QUERIES[key], expect: 'match' }));
}

const BARE: Shape = { name: 'a bare ? and no query', query: '', expect: 'match' };
const NON_ASCII_KEY: Shape = {
	name: 'a mac_key with non-ASCII characters',
	account: NON_ASCII,
	expect: 'match'
};
const KID_AS_KEY: Shape = { name: 'the kid used as the key', keyIsKid: true, expect: 'key-is-kid' };
const RAW_NON_ASCII: Shape = {
	name: 'non-ASCII in the query, raw',
	query: QUERIES.rawNonAscii,
	expect: 'signed-raw-non-ascii'
};
const RAW_SPACE: Shape = {
	name: 'a space in the query, raw',
	query: QUERIES.space,
	expect: 'signed-raw-space'
};
const LEGACY: Shape[] = [
	{
		name: 'the older docs’ domestic host signed, open.tapapis.cn called',
		signedHost: LEGACY_HOSTS.cn,
		expect: 'host-legacy-domestic'
	},
	{
		name: 'the older docs’ overseas host signed, open.tapapis.com called',
		region: 'com',
		signedHost: LEGACY_HOSTS.com,
		expect: 'host-legacy-overseas'
	}
];

/** Each client's matrix: what an integrator of it plausibly sends. */
const SHAPES: Record<ClientId, Shape[]> = {
	// One variable holds the host signed and called, so no legacy host; curl refuses a space.
	'docs-shell': [...BASICS, ...literalQueries(), RAW_NON_ASCII, BARE, NON_ASCII_KEY, KID_AS_KEY],
	'docs-node-current': [
		...BASICS,
		{ name: 'the URL written with :443', port443: true, expect: 'match' },
		...literalQueries(),
		{ name: 'a space in the query', query: QUERIES.space, expect: 'match' },
		{ name: 'non-ASCII in the query, raw', query: QUERIES.rawNonAscii, expect: 'match' },
		BARE,
		NON_ASCII_KEY,
		KID_AS_KEY,
		{
			name: "a ' in the query, the header pasted into curl with the URL as written",
			query: QUERIES.quote,
			extra: { sender: 'as-given' },
			expect: 'whatwg-quote-encoded'
		},
		{
			name: 'a bare ?, the header pasted into curl with the URL as written',
			query: '',
			extra: { sender: 'as-given' },
			expect: 'whatwg-bare-question-dropped'
		},
		{
			name: 'non-ASCII in the query, the header pasted into curl with the URL as written',
			query: QUERIES.rawNonAscii,
			extra: { sender: 'as-given' },
			expect: 'match'
		}
	],
	'docs-node-old': [
		...BASICS,
		...LEGACY,
		{
			name: 'the older docs’ domestic host signed, open.tapapis.com called',
			region: 'com',
			signedHost: LEGACY_HOSTS.cn,
			expect: 'host-legacy-other-region'
		},
		{
			name: 'open.tapapis.cn signed, open.tapapis.com called',
			region: 'com',
			signedHost: HOSTS.cn,
			expect: 'host-other-deployment'
		},
		{
			name: 'ts written inline twice, both readings in one second',
			clock: 'twice-same-second',
			expect: 'match'
		},
		{
			name: 'ts written inline twice, the readings across a second boundary',
			clock: 'twice-across-second',
			expect: 'ts-read-twice'
		},
		{
			name: "a ' added to the hard-coded query (urllib escapes it)",
			query: QUERIES.quote,
			expect: 'sent-escaped-by-url-parse'
		},
		{
			name: 'a space added to the hard-coded query (urllib escapes it)',
			query: QUERIES.space,
			expect: 'sent-escaped-by-url-parse'
		},
		NON_ASCII_KEY,
		KID_AS_KEY
	],
	'docs-java': [
		...BASICS,
		{ name: 'the URL written with :443', port443: true, expect: 'uri-with-port' },
		...literalQueries(['hostText']),
		{
			name: "a query holding the host's own text",
			query: QUERIES.hostText,
			expect: 'uri-after-last-host'
		},
		RAW_SPACE,
		RAW_NON_ASCII,
		BARE,
		{ ...NON_ASCII_KEY, name: 'a non-ASCII mac_key, platform charset UTF-8' },
		{
			name: 'a non-ASCII mac_key, platform charset US-ASCII (POSIX locale)',
			account: NON_ASCII,
			charset: 'US-ASCII',
			expect: 'key-ascii'
		},
		{
			name: 'a non-ASCII mac_key, platform charset ISO-8859-1',
			account: NON_ASCII,
			charset: 'ISO-8859-1',
			expect: 'key-latin1'
		},
		{
			name: 'a non-ASCII mac_key, platform charset GBK (Chinese Windows)',
			account: NON_ASCII,
			charset: 'GBK',
			expect: 'key-gbk'
		},
		KID_AS_KEY
	],
	'docs-php': [
		...BASICS,
		...LEGACY,
		...literalQueries(),
		RAW_NON_ASCII,
		BARE,
		NON_ASCII_KEY,
		KID_AS_KEY
	],
	// http.client refuses a space and raw non-ASCII: an integrator encodes them first.
	'docs-python3': [...BASICS, ...LEGACY, ...literalQueries(), BARE, NON_ASCII_KEY, KID_AS_KEY],
	'docs-go': [
		...BASICS,
		...literalQueries(),
		RAW_SPACE,
		RAW_NON_ASCII,
		BARE,
		NON_ASCII_KEY,
		KID_AS_KEY,
		{
			name: 'the url.Values helper, keys out of order, its rebuilt URL sent',
			query: QUERIES.outOfOrder,
			extra: { helper: 'values-encode', send: 'rebuilt' },
			expect: 'match'
		},
		{
			name: 'the url.Values helper, keys out of order, the caller’s URL sent',
			query: QUERIES.outOfOrder,
			extra: { helper: 'values-encode', send: 'as-given' },
			expect: 'values-encode-sorted'
		},
		{
			name: "the url.Values helper, a ' in the query, its rebuilt URL sent",
			query: QUERIES.quote,
			extra: { helper: 'values-encode', send: 'rebuilt' },
			expect: 'match'
		},
		{
			name: "the url.Values helper, a ' in the query, the caller’s URL sent",
			query: QUERIES.quote,
			extra: { helper: 'values-encode', send: 'as-given' },
			expect: 'values-encode-escaped'
		}
	],
	// The SDK builds its own URL: ProfileUrl(scope) + client_id, so only the account, the region and
	// the token's key and algorithm vary.
	'unity-sdk': [
		...BASICS,
		{ name: 'a non-ASCII mac_key', account: NON_ASCII, expect: 'key-ascii' },
		{
			name: 'mac_algorithm hmac-sha-256',
			extra: { mac_algorithm: 'hmac-sha-256' },
			expect: 'hmac-sha-256'
		},
		{
			name: 'mac_algorithm hmac-sha-256 and a non-ASCII mac_key',
			account: NON_ASCII,
			extra: { mac_algorithm: 'hmac-sha-256' },
			expect: ['hmac-sha-256', 'key-ascii']
		}
	]
};

/** The zoo's clock: a fixed instant, a second further for each request, 400 ms past the second. */
export const ZOO_EPOCH_MS = 1_780_000_000_400;

function readings(shape: Shape, at: number): number[] {
	switch (shape.clock ?? 'once') {
		case 'once':
			return [at];
		case 'twice-same-second':
			return [at, at + 300];
		case 'twice-across-second':
			// x.999 then (x + 1).200: Math.ceil gives two seconds in a row.
			return [at + 599, at + 800];
	}
}

function slug(name: string): string {
	const words: Record<string, string> = {
		"'": 'quote',
		'~': 'tilde',
		'+': 'plus',
		'?': 'question'
	};
	return name
		.replace(/['~+?]/g, (char) => ` ${words[char]} `)
		.replace(/%2F/g, 'pct2f')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

/** The program's fields for one request, as each client's sample takes them. */
function inputFor(
	client: ClientId,
	shape: Shape,
	parts: { url: string; host: string; signedHost: string; requestUri: string; key: string }
): Record<string, string> {
	const { url, signedHost, requestUri, key } = parts;
	const credential = { kid: (shape.account ?? PROFILE).kid, mac_key: key };
	switch (client) {
		case 'docs-shell':
			return { ...credential, host: signedHost, request_uri: requestUri };
		case 'docs-node-current':
		case 'docs-java':
		case 'unity-sdk':
			return { ...credential, method: 'GET', url };
		case 'docs-node-old':
		case 'docs-php':
			return { ...credential, url, host: signedHost, request_uri: requestUri };
		case 'docs-python3':
			return {
				...credential,
				method: 'GET',
				host: signedHost,
				call_host: parts.host,
				request_uri: requestUri
			};
		case 'docs-go':
			return { ...credential, url, host: signedHost, request_uri: requestUri };
	}
}

/** Every request of the zoo, in the order they are signed and sent. */
export function zooRequests(): ZooRequest[] {
	const requests: ZooRequest[] = [];
	for (const client of CLIENT_IDS) {
		for (const shape of SHAPES[client]) {
			const account = shape.account ?? (shape.op === 'basic' ? BASIC : PROFILE);
			const host = HOSTS[shape.region ?? 'cn'];
			const path = PATHS[shape.op ?? 'profile'];
			const query = shape.query ?? `client_id=${account.clientId}`;
			const requestUri = `${path}?${query}`;
			const url = `https://${host}${shape.port443 ? ':443' : ''}${requestUri}`;
			const at = ZOO_EPOCH_MS + requests.length * 1000;
			const input: Record<string, string> = {
				...inputFor(
					client,
					{ ...shape, account },
					{
						url,
						host,
						signedHost: shape.signedHost ?? host,
						requestUri,
						key: shape.keyIsKid ? account.kid : account.macKey
					}
				),
				...shape.extra,
				now_ms: readings(shape, at).join(',')
			};
			if (shape.clock && shape.clock !== 'once') input.ts_twice = '1';
			requests.push({
				id: `${client}/${slug(shape.name)}`,
				client,
				name: shape.name,
				account,
				url,
				input,
				charset: shape.charset ?? 'UTF-8',
				expect: shape.expect
			});
		}
	}
	const ids = new Set(requests.map((request) => request.id));
	if (ids.size !== requests.length) throw new Error('two zoo requests share an id');
	return requests;
}
