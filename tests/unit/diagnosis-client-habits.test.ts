// The catalogue against what the vendor's clients really sign: requests made by the client zoo's
// programs (the docs' Java and Node.js samples, the Unity SDK), each run with its own toolchain by
// diagnosis-client-habits.sh, and kept in diagnosis-client-habits.json. Each must come back
// explained by the mistake its client makes, reproducing the base string the program printed, with
// a title that names what differs.
import { describe, expect, it } from 'vitest';
import { diagnose, type MistakeId } from '$lib/diagnosis';
import { parseAuthorization } from '$lib/mac';
import fixture from './diagnosis-client-habits.json';
import { english } from './verify-english';

interface HabitCase {
	name: string;
	expect: string;
	command: string;
	input: Partial<Record<string, string>>;
	output: { host: string; target: string; authorization: string; base_string: string };
}

const CASES = fixture.cases as HabitCase[];

/** Each kid's real mac_key: the programs were given these (or, for the kid-as-key case, the kid). */
const KEYS: Record<string, string> = {
	'demo-kid-profile-4f1c': 'demo-mac-key-profile-Q9sLx2',
	'zoo-kid-non-ascii-7d3b': 'zoo-clé-密钥-ü',
	'zoo-kid-emoji-51aa': 'zoo-key-😀-x'
};

/** What each title must say, by case: the line of the base string (or the key) that differs. */
const TITLES: Record<string, RegExp> = {
	'java :443 written':
		/^Signed the request URI with :443 before the path \(:443\/account\/profile\/v1\?client_id=demo-client-0001\): the docs' Java sample takes the URL's text after the host name/,
	'java :8443 written':
		/^Signed the request URI with :8443 before the path \(:8443\/account\/profile\/v1\?client_id=demo-client-0001\).*, and port 443 of the scheme instead of 8443$/,
	'java host in the query':
		/^Signed the request URI as the URL's text after the last open\.tapapis\.cn in it \(\/cb instead of \/account\/profile\/v1\?client_id=demo-client-0001&redirect=https:\/\/open\.tapapis\.cn\/cb\)/,
	'java kid as key':
		/^Signed with the kid \(which the access_token repeats\) as the key instead of the mac_key$/,
	'java US-ASCII': /^Signed with the mac_key encoded as ASCII, each non-ASCII character as \?/,
	'java US-ASCII emoji':
		/^Signed with the mac_key encoded as US-ASCII by Java's getBytes\(\): each non-ASCII character as one \?$/,
	'java ISO-8859-1': /^Signed with the mac_key encoded as ISO-8859-1 \(Latin-1\)/,
	'java GBK': /^Signed with the mac_key encoded as GBK/,
	'java :443 written, US-ASCII':
		/^Signed the request URI with :443 before the path .*, and signed with the mac_key encoded as ASCII/,
	'java :443 written, GBK':
		/^Signed the request URI with :443 before the path .*, and signed with the mac_key encoded as GBK/,
	'unity non-ASCII key':
		/^Signed with the mac_key encoded as ASCII, each non-ASCII character as \?: \.NET's Encoding\.ASCII \(the Unity SDK\)/,
	'unity emoji key':
		/^Signed with the mac_key encoded as ASCII by \.NET's Encoding\.ASCII \(the Unity SDK\): .* as \?\?$/,
	'unity hmac-sha-256': /^Signed with HMAC-SHA-256 instead of HMAC-SHA-1$/,
	'unity hmac-sha-256, non-ASCII key':
		/^Signed with the mac_key encoded as ASCII.*, and signed with HMAC-SHA-256/,
	'unity PathAndQuery of a URL sent as given':
		/^Signed the request URI as \.NET's Uri\.PathAndQuery writes it \(\/account\/profile\/v1\?client_id=demo-client-0001&tag=~zoo&p=a%7Cb\), while the request sent \/account\/profile\/v1\?client_id=demo-client-0001&tag=%7Ezoo&p=a\|b$/,
	'node older, legacy domestic host':
		/^Signed openapi\.taptap\.com on the host line, the domestic host of the older docs, while open\.tapapis\.cn was called$/,
	'node older, legacy overseas host':
		/^Signed openapi\.tap\.io on the host line, the overseas host of the older docs, while open\.tapapis\.com was called$/,
	'node older, legacy domestic host, overseas called':
		/^Signed openapi\.taptap\.com on the host line, the domestic host of the older docs, while open\.tapapis\.com was called$/,
	'node older, typed escape and a quote urllib escapes':
		/^Signed the request URI as typed \(\/account\/profile\/v1\?client_id=demo-client-0001&next=%2Fhome&state=it's\), while the HTTP client sent it percent-encoded \(.*state=it%27s\)$/,
	'node current, ./ and a quote, sent as given':
		/^Signed the request URI as Node\.js's URL class writes it, url\.pathname \+ url\.search \(\/account\/profile\/v1\?client_id=demo-client-0001&state=it%27s\), while the request sent \/account\/\.\/profile\/v1\?client_id=demo-client-0001&state=it's$/
};

/**
 * The URL the diagnosis is given: what the program sent (Host and request target, as a server's log
 * rebuilds it), except for .NET's PathAndQuery, which the SDK both signs and sends: that mistake
 * shows only against the URL an integrator logged as they gave it.
 */
function loggedUrl(c: HabitCase): string {
	if (c.expect === 'uri-dotnet') return c.input.url ?? '';
	return `https://${c.output.host}${c.output.target}`;
}

async function diagnoseCase(c: HabitCase, url = loggedUrl(c)) {
	const authorization = parseAuthorization(c.output.authorization);
	return diagnose({
		authorization,
		method: 'GET',
		url,
		uriForm: 'as-written',
		macKey: KEYS[authorization.id] ?? ''
	});
}

describe("the vendor's clients, as the client zoo ran them", () => {
	it('has a title check for every case, and a case for every new habit', () => {
		expect(CASES.map((c) => c.name).sort()).toEqual(Object.keys(TITLES).sort());
		const ids = new Set(CASES.flatMap((c) => c.expect.split('+')));
		for (const id of [
			'uri-with-port',
			'uri-after-last-host',
			'uri-as-typed',
			'uri-whatwg',
			'uri-dotnet',
			'host-legacy',
			'key-is-kid',
			'key-ascii',
			'key-latin1',
			'key-gbk',
			'hmac-sha256'
		] satisfies MistakeId[])
			expect(ids, id).toContain(id);
	});

	it.each(CASES.map((c) => [c.name, c.expect, c] as const))(
		'%s: names %s and reproduces what the program signed',
		async (name, id, c) => {
			const result = await diagnoseCase(c);
			expect(result.verdict).toBe('explained');
			const [first] = result.explanations;
			expect(first?.id).toBe(id);
			expect(first?.baseString).toBe(c.output.base_string);
			expect(english(first?.title)).toMatch(TITLES[name] ?? /^$/);
		}
	);

	it('names the :443 kept in the request URI from the URL as written too', async () => {
		const c = CASES.find((one) => one.name === 'java :443 written');
		if (!c) throw new Error('no :443 case');
		const result = await diagnoseCase(c, c.input.url);
		expect(result.explanations[0]?.id).toBe('uri-with-port');
		expect(result.explanations[0]?.baseString).toBe(c.output.base_string);
	});
});
