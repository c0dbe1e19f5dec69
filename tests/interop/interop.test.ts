// MAC-token implementations written by other people (Debian's packages, run by Debian's
// interpreters): their headers verify in the protocol core, in /verify's diagnosis and on the
// sandbox service over HTTP, and ours verify with their verifier. Where a library departs from the
// spec, the test states exactly what it signs instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	authorizationHeader,
	baseString,
	parseAuthorization,
	randomNonce,
	requestTarget,
	sign,
	timestamp,
	type MacHeaderParams
} from '$lib/mac';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { diagnose } from '$lib/diagnosis';
import {
	LIBRARIES,
	availability,
	getAs,
	signWith,
	startServer,
	type Library,
	type LibraryId,
	type RunningServer
} from './interop-libraries';

// CI proves interop: there a library that cannot run fails its tests instead of skipping them.
const REQUIRED = Boolean(process.env.CI);
const AVAILABLE = new Map(LIBRARIES.map((library) => [library.id, availability(library)]));

for (const library of LIBRARIES) {
	const found = AVAILABLE.get(library.id);
	if (found && 'missing' in found)
		console.warn(`interop: ${library.name} ${REQUIRED ? 'fails' : 'skipped'}: ${found.missing}`);
}

function label(library: Library): string {
	const found = AVAILABLE.get(library.id);
	const version = found && 'version' in found ? ` ${found.version}` : '';
	return `${library.name}${version} (${library.language})`;
}

/** `it` for one library: skipped with the reason in its name when the library cannot run here. */
function itWith(library: Library, name: string, test: () => Promise<void>) {
	const found = AVAILABLE.get(library.id);
	const missing = found && 'missing' in found ? found.missing : null;
	if (missing && !REQUIRED) {
		it.skip(`${label(library)}: ${name} (skipped: ${missing})`, test);
		return;
	}
	it(
		`${label(library)}: ${name}`,
		missing
			? () => {
					throw new Error(`${missing}. CI must prove interop: .ci/run installs it.`);
				}
			: test,
		60_000
	);
}

const [PROFILE, BASIC] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const KEY = 'k7Qx2mZpR4vN8sLw';
const KID = 'kid-interop-1';
const QUERY = 'client_id=demo-client-0001';

interface Signed {
	/** What the spec signs for this URL, written out rather than computed by the core. */
	uri: string;
	host: string;
	port: string;
}

interface Case {
	name: string;
	url: string;
	key?: string;
	spec: Signed;
	/** What each library signs instead, where it departs from the spec. */
	deviations?: Partial<Record<LibraryId, Partial<Signed>>>;
	/** The catalogued mistake /verify names for a deviation. */
	mistake?: string;
}

const CASES: Case[] = [
	{
		name: 'the profile operation on the domestic host',
		url: `https://open.tapapis.cn/account/profile/v1?${QUERY}`,
		spec: { uri: `/account/profile/v1?${QUERY}`, host: 'open.tapapis.cn', port: '443' }
	},
	{
		name: 'the overseas host and a percent-encoded query, kept as written',
		url: 'https://open.tapapis.com/account/basic-info/v1?client_id=demo%20client&state=a%2Fb~',
		spec: {
			uri: '/account/basic-info/v1?client_id=demo%20client&state=a%2Fb~',
			host: 'open.tapapis.com',
			port: '443'
		}
	},
	{
		name: 'a port in the URL',
		url: `https://open.tapapis.cn:8443/account/profile/v1?${QUERY}`,
		spec: { uri: `/account/profile/v1?${QUERY}`, host: 'open.tapapis.cn', port: '8443' }
	},
	{
		name: 'the default port written out',
		url: `https://open.tapapis.cn:443/account/profile/v1?${QUERY}`,
		spec: { uri: `/account/profile/v1?${QUERY}`, host: 'open.tapapis.cn', port: '443' }
	},
	{
		name: 'a non-ASCII mac_key, taken as UTF-8',
		url: `https://open.tapapis.cn/account/profile/v1?${QUERY}`,
		key: 'clé-密钥-ü',
		spec: { uri: `/account/profile/v1?${QUERY}`, host: 'open.tapapis.cn', port: '443' }
	},
	{
		name: 'a host written with capitals',
		url: `https://Open.Tapapis.CN/account/profile/v1?${QUERY}`,
		spec: { uri: `/account/profile/v1?${QUERY}`, host: 'open.tapapis.cn', port: '443' },
		deviations: {
			oauthlib: { host: 'Open.Tapapis.CN' },
			'oauth2-gem': { host: 'Open.Tapapis.CN' },
			'rack-oauth2': { host: 'Open.Tapapis.CN' }
		},
		mistake: 'host-as-written'
	},
	{
		name: 'an empty path',
		url: `https://open.tapapis.cn?${QUERY}`,
		spec: { uri: `/?${QUERY}`, host: 'open.tapapis.cn', port: '443' },
		deviations: { oauthlib: { uri: `?${QUERY}` } },
		mistake: 'path-empty-no-slash'
	},
	{
		name: '";params" on the last path segment',
		url: `https://open.tapapis.cn/account/profile/v1;jsessionid=7?${QUERY}`,
		spec: {
			uri: `/account/profile/v1;jsessionid=7?${QUERY}`,
			host: 'open.tapapis.cn',
			port: '443'
		},
		deviations: { oauthlib: { uri: `/account/profile/v1?${QUERY}` } },
		mistake: 'path-params-dropped'
	}
];

/** Each library's headers for all the cases, made in one run of its driver. */
const signed = new Map<LibraryId, Promise<string[]>>();

function headersFor(library: Library): Promise<string[]> {
	let headers = signed.get(library.id);
	if (!headers) {
		headers = signWith(
			library,
			CASES.map((c) => ({ kid: KID, key: c.key ?? KEY, method: 'GET', url: c.url }))
		);
		signed.set(library.id, headers);
	}
	return headers;
}

async function headerFor(library: Library, c: Case): Promise<MacHeaderParams> {
	const header = (await headersFor(library))[CASES.indexOf(c)];
	if (header === undefined) throw new Error(`no header for ${c.name}`);
	return parseAuthorization(header);
}

function deviation(library: Library, c: Case): Partial<Signed> | undefined {
	return c.deviations?.[library.id];
}

/** `host "Open.Tapapis.CN" where the spec signs "open.tapapis.cn"`, for a test's name. */
function describeDeviation(c: Case, departs: Partial<Signed>): string {
	return Object.entries(departs)
		.map(
			([line, value]) => `${line} "${value}" where the spec signs "${c.spec[line as keyof Signed]}"`
		)
		.join(', ');
}

describe('the libraries, read as they are', () => {
	it('covers at least two libraries in at least two languages', () => {
		expect(LIBRARIES.length).toBeGreaterThanOrEqual(2);
		expect(new Set(LIBRARIES.map((library) => library.language)).size).toBeGreaterThanOrEqual(2);
	});

	for (const library of LIBRARIES) {
		itWith(library, 'writes the header in its own shape, with the current ts', async () => {
			const headers = await headersFor(library);
			const now = Math.floor(Date.now() / 1000);
			for (const header of headers) {
				expect(header).toMatch(library.headerShape);
				expect(Math.abs(Number(parseAuthorization(header).ts) - now)).toBeLessThan(60);
			}
			// A fresh nonce for every request.
			const nonces = headers.map((header) => parseAuthorization(header).nonce);
			expect(new Set(nonces).size).toBe(nonces.length);
		});
	}
});

describe('their headers in the protocol core', () => {
	for (const library of LIBRARIES) {
		for (const c of CASES) {
			const departs = deviation(library, c);
			const name = departs
				? `${c.name}: signs ${describeDeviation(c, departs)}`
				: `${c.name}: the core computes the same mac`;
			itWith(library, name, async () => {
				const params = await headerFor(library, c);
				expect(params.id).toBe(KID);
				// The core reads the URL as the table says the spec does.
				const target = requestTarget(c.url);
				expect({ uri: target.uri, host: target.host, port: target.port }).toEqual(c.spec);
				const lines = { ts: params.ts, nonce: params.nonce, method: 'GET', ext: params.ext };
				const specMac = await sign(c.key ?? KEY, baseString({ ...lines, ...target }));
				if (!departs) {
					expect(params.mac).toBe(specMac);
					return;
				}
				expect(params.mac).not.toBe(specMac);
				const theirs = await sign(c.key ?? KEY, baseString({ ...lines, ...c.spec, ...departs }));
				expect(params.mac).toBe(theirs);
			});
		}
	}
});

describe("their headers in /verify's diagnosis", () => {
	for (const library of LIBRARIES) {
		for (const c of CASES.filter((c) => !deviation(library, c))) {
			itWith(library, `${c.name}: Match`, async () => {
				const diagnosis = await diagnose({
					authorization: await headerFor(library, c),
					url: c.url,
					macKey: c.key ?? KEY
				});
				expect(diagnosis.verdict).toBe('match');
			});
		}
	}
});

// These need the catalogue entries host-as-written, path-empty-no-slash and path-params-dropped.
describe("their deviations in /verify's diagnosis, named by the catalogue", () => {
	for (const library of LIBRARIES) {
		for (const c of CASES.filter((c) => deviation(library, c))) {
			itWith(library, `${c.name}: ${c.mistake} comes first`, async () => {
				const diagnosis = await diagnose({
					authorization: await headerFor(library, c),
					url: c.url,
					macKey: c.key ?? KEY
				});
				expect(diagnosis.verdict).toBe('explained');
				expect(diagnosis.explanations[0]?.id).toBe(c.mistake);
			});
		}
	}
});

describe('their signed requests on the sandbox service, over HTTP', () => {
	let sandbox: RunningServer | undefined;

	beforeAll(async () => {
		sandbox = await startServer(process.execPath, [
			'src/node/relay/run.js',
			'--serve-sandbox',
			'--port',
			'0'
		]);
	});
	afterAll(() => sandbox?.stop());

	const requests = [
		{
			account: PROFILE,
			url: `https://open.tapapis.cn/account/profile/v1?client_id=${PROFILE.clientId}`,
			expected: { name: 'Ada Demo' }
		},
		{
			account: BASIC,
			url: `https://open.tapapis.com/account/basic-info/v1?client_id=${BASIC.clientId}`,
			expected: {}
		}
	];

	for (const library of LIBRARIES) {
		itWith(library, 'both operations answer 200 with the demo credentials', async () => {
			const signed = await signWith(
				library,
				requests.map(({ account, url }) => ({
					kid: account.kid,
					key: account.macKey,
					method: 'GET',
					url
				}))
			);
			for (const [index, { url, expected }] of requests.entries()) {
				const { host, pathname, search } = new URL(url);
				const answer = await getAs(sandbox!.url, host, pathname + search, signed[index]!);
				expect(answer.status, answer.body).toBe(200);
				const body = JSON.parse(answer.body) as { success: boolean; data: object };
				expect(body.success).toBe(true);
				expect(body.data).toMatchObject({ ...expected, openid: expect.any(String) });
			}
		});

		itWith(
			library,
			'a host signed with capitals is refused, as the spec signs it lower-cased',
			async () => {
				const url = `https://Open.Tapapis.CN/account/profile/v1?client_id=${PROFILE.clientId}`;
				const [header] = await signWith(library, [
					{ kid: PROFILE.kid, key: PROFILE.macKey, method: 'GET', url }
				]);
				const answer = await getAs(
					sandbox!.url,
					'Open.Tapapis.CN',
					`/account/profile/v1?client_id=${PROFILE.clientId}`,
					header!
				);
				expect(answer.status).toBe(401);
				const body = JSON.parse(answer.body) as {
					data: { error: string; sandbox_base_string: string };
				};
				expect(body.data.error).toBe('access_denied');
				expect(body.data.sandbox_base_string).toContain('\nopen.tapapis.cn\n443\n');
			}
		);
	}
});

describe("our headers with rack-oauth2's verifier, over HTTP", () => {
	const rack = LIBRARIES.find((library) => library.id === 'rack-oauth2')!;
	let verifier: RunningServer | undefined;
	const credentials = [
		{ kid: PROFILE.kid, key: PROFILE.macKey },
		{ kid: KID, key: 'clé-密钥-ü' }
	];

	beforeAll(async () => {
		const found = AVAILABLE.get(rack.id);
		if (!found || 'missing' in found) return;
		verifier = await startServer(
			rack.interpreter,
			[rack.verifier!],
			JSON.stringify({ credentials })
		);
	});
	afterAll(() => verifier?.stop());

	/** Our signature of `url`, as the page and the snippets make it. */
	async function ours(url: string, kid: string, key: string, space = false): Promise<string> {
		const target = requestTarget(url);
		const ts = timestamp();
		const nonce = randomNonce();
		const mac = await sign(key, baseString({ ts, nonce, method: 'GET', ...target }));
		return authorizationHeader({ id: kid, ts, nonce, mac }, { space });
	}

	const ourCases = [
		{
			name: 'comma style, the profile operation',
			url: `https://open.tapapis.cn/account/profile/v1?client_id=${PROFILE.clientId}`,
			kid: PROFILE.kid,
			key: PROFILE.macKey,
			space: false
		},
		{
			name: 'comma-space style, overseas host, percent-encoded query',
			url: 'https://open.tapapis.com/account/basic-info/v1?client_id=demo%20client&state=a%2Fb~',
			kid: PROFILE.kid,
			key: PROFILE.macKey,
			space: true
		},
		{
			name: 'a port in the URL and a non-ASCII mac_key',
			url: `https://open.tapapis.cn:8443/account/profile/v1?${QUERY}`,
			kid: KID,
			key: 'clé-密钥-ü',
			space: false
		}
	];

	for (const c of ourCases) {
		itWith(rack, `verifies ours: ${c.name}`, async () => {
			const { host, pathname, search } = new URL(c.url);
			const answer = await getAs(
				verifier!.url,
				host,
				pathname + search,
				await ours(c.url, c.kid, c.key, c.space)
			);
			expect(answer.status, answer.body).toBe(200);
			expect(JSON.parse(answer.body)).toEqual({ verified: c.kid });
		});
	}

	itWith(rack, 'refuses ours signed with another key, so a 200 above means something', async () => {
		const url = `https://open.tapapis.cn/account/profile/v1?client_id=${PROFILE.clientId}`;
		const answer = await getAs(
			verifier!.url,
			'open.tapapis.cn',
			`/account/profile/v1?client_id=${PROFILE.clientId}`,
			await ours(url, PROFILE.kid, BASIC.macKey)
		);
		expect(answer.status).toBe(401);
		expect(answer.headers['www-authenticate']).toMatch(/^MAC .*error="invalid_token"/);
	});
});
