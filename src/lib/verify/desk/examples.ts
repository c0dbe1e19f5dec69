/**
 * Worked cases for the verify page: what a customer might send, with the mistake it shows. Each mac
 * was computed apart from this code (Python's hmac over the wrong base string), and a unit test
 * checks that the page's diagnosis names the mistake the label promises, so a change that breaks
 * an example fails there and not in front of a support agent. A label is read in the page's
 * language when it is shown: the desk holds examples, and compares them by their inputs, never by
 * their label.
 */
import { OPERATIONS } from '$lib/account-api/operations';
import { m } from '$lib/paraglide/messages.js';

export interface VerifyExample {
	id: string;
	label: string;
	signedRequest: string;
	macKey: string;
	/** The Request URL box, for pastes that carry none (a bare Authorization header). */
	url?: string;
	/** The customer's logged base string, for the line-by-line comparison. */
	customerBase?: string;
	/** What the page should conclude: match, or the ids of the mistakes that reproduce the mac. */
	expected: 'match' | string[];
}

const PROFILE = OPERATIONS.profile.path;
const BASIC_INFO = OPERATIONS['basic-info'].path;
const PROFILE_KEY = 'demo-mac-key-profile-Q9sLx2';
const BASIC_KEY = 'demo-mac-key-basic-Zr7Wm4';

export const VERIFY_EXAMPLES: readonly VerifyExample[] = [
	{
		id: 'correct',
		get label() {
			return m.verify_example_correct();
		},
		signedRequest:
			'Authorization: MAC id="demo-kid-profile-4f1c",ts="1763700000",nonce="dGhpcyBpcyBhIG5vbmNl",mac="7B/5A5eKFqw1GoLu05hbpI9wkrU="',
		macKey: PROFILE_KEY,
		url: `https://open.tapapis.cn${PROFILE}?client_id=demo-client-0001`,
		expected: 'match'
	},
	{
		id: 'query-dropped',
		get label() {
			return m.verify_example_query_dropped();
		},
		signedRequest: [
			`curl 'https://open.tapapis.cn${BASIC_INFO}?client_id=demo-client-0001' \\`,
			'  -H \'Authorization: MAC id="demo-kid-basic-8a2e", ts="1763700120", nonce="q1w2e3r4t5y6u7i8", mac="0tDTr8BhxeEZAyy+3h2zVl0J2Ws="\''
		].join('\n'),
		macKey: BASIC_KEY,
		expected: ['query-dropped']
	},
	{
		id: 'host-with-port',
		get label() {
			return m.verify_example_host_with_port();
		},
		signedRequest: [
			`GET ${PROFILE}?client_id=demo-client-0001 HTTP/1.1`,
			'Host: open.tapapis.com',
			'Authorization: MAC id="demo-kid-profile-4f1c",ts="1763700240",nonce="Zm9vYmFyYmF6cXV4",mac="cferh4LOaBZLOtPxj5GpLiLIObI="',
			'Accept: application/json'
		].join('\n'),
		macKey: PROFILE_KEY,
		customerBase: [
			'1763700240',
			'Zm9vYmFyYmF6cXV4',
			'GET',
			`${PROFILE}?client_id=demo-client-0001`,
			'open.tapapis.com:443',
			'443',
			'',
			''
		].join('\n'),
		expected: ['host-with-port']
	},
	{
		id: 'key-base64-decoded',
		get label() {
			return m.verify_example_key_base64_decoded();
		},
		signedRequest:
			'Authorization: MAC id="kid-b64-demo",ts="1763700360",nonce="bm9uY2UtZm91cg==",mac="O1OS//R8WoQPVof5gUfF6jfFaiQ="',
		macKey: 'bWFjLWtleS1mb3ItYmFzZTY0LWRlbW8=',
		url: `https://open.tapapis.cn${PROFILE}?client_id=demo-client-0002`,
		expected: ['key-base64-decoded']
	},
	{
		id: 'two-mistakes',
		get label() {
			return m.verify_example_two_mistakes();
		},
		signedRequest: [
			`curl ^"https://open.tapapis.cn${BASIC_INFO}?client_id=demo-client-0001^" ^`,
			'  -H ^"Authorization: MAC id=^\\^"demo-kid-basic-8a2e^\\^",ts=^\\^"1763700480^\\^",nonce=^\\^"bm9uY2UtZml2ZQ==^\\^",mac=^\\^"JuXuEKj8Y2WoC+waRYPxYG3kULk=^\\^"^"'
		].join('\n'),
		macKey: BASIC_KEY,
		expected: ['port-wrong', 'query-dropped']
	}
];
