// The request URI is the bytes that went on the wire: as pasted for curl and a raw request (which
// send them as they are), as the browser wrote them for fetch and a HAR (which carry what it sent).
import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis';
import { parseSignedRequest } from '$lib/read';
import { requestForLink } from '$lib/verify';
import { KEY, KID, NONCE, TS, mac } from './verify-paste-fixtures';
import { english, englishAll } from './verify-english';

const PATH = '/account/basic-info/v1';
const HOST = 'open.tapapis.cn';

/** A header signed over `uri` exactly, by node:crypto, apart from the app. */
function headerFor(uri: string): string {
	const signature = mac(`${TS}\n${NONCE}\nGET\n${uri}\n${HOST}\n443\n\n`);
	return `MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${signature}"`;
}

async function verdictOf(text: string) {
	const request = parseSignedRequest(text);
	return diagnose({
		authorization: request.authorization,
		method: request.method,
		url: request.url ?? '',
		uriForm: request.uriForm,
		macKey: KEY
	});
}

describe("a query holding ' (it's)", () => {
	const asSent = `${PATH}?client_id=abc123&state=it's`;

	it('matches a curl command signed over the bytes curl sends, the quote as it is', async () => {
		const curl = `curl 'https://${HOST}${PATH}?client_id=abc123&state=it'\\''s' -H 'Authorization: ${headerFor(asSent)}'`;
		const result = await verdictOf(curl);
		expect(result.verdict).toBe('match');
		expect(result.expectedBaseString).toContain(`\n${asSent}\n`);
		expect(englishAll(parseSignedRequest(curl).understood).join(' ')).toMatch(
			/curl sends it as it is, where a browser would rewrite it \(' is sent as %27\)/
		);
	});

	it('matches a raw request signed over its request line', async () => {
		const raw = `GET ${asSent} HTTP/1.1\nHost: ${HOST}\nAuthorization: ${headerFor(asSent)}\n`;
		expect((await verdictOf(raw)).verdict).toBe('match');
	});

	it('names the URL parser when curl sent the quote but the signer wrote %27', async () => {
		const signedEncoded = headerFor(`${PATH}?client_id=abc123&state=it%27s`);
		const curl = `curl "https://${HOST}${asSent}" -H "Authorization: ${signedEncoded.replace(/"/g, '\\"')}"`;
		const result = await verdictOf(curl);
		expect(result.verdict).toBe('explained');
		expect(result.explanations[0]?.id).toBe('query-re-encoded');
		expect(english(result.explanations[0]?.title)).toMatch(/as a URL parser writes it/);
	});

	it('matches a fetch call signed over what the browser sends, %27, and says why', async () => {
		const sent = `${PATH}?client_id=abc123&state=it%27s`;
		const fetchCall = `fetch("https://${HOST}${asSent}", {"headers": {"authorization": "${headerFor(sent).replace(/"/g, '\\"')}"}, "method": "GET"});`;
		const request = parseSignedRequest(fetchCall);
		expect(request.uriForm).toBe('browser');
		expect(englishAll(request.understood).join(' ')).toMatch(
			/The browser sends this URL rewritten \(' is sent as %27\)/
		);
		expect((await verdictOf(fetchCall)).verdict).toBe('match');
		// A share link carries the request as a curl command, which must send what the browser sent.
		const link = requestForLink(fetchCall);
		expect(link).toContain('state=it%27s');
		expect((await verdictOf(link)).verdict).toBe('match');
	});
});

describe('curl and dot segments', () => {
	it('signs /./ and /../ as typed with --path-as-is, resolved without it, as curl sends them', async () => {
		const typed = `https://${HOST}/account/./x/../basic-info/v1?client_id=abc123`;
		const withFlag = `curl --path-as-is '${typed}' -H 'Authorization: ${headerFor('/account/./x/../basic-info/v1?client_id=abc123')}'`;
		expect((await verdictOf(withFlag)).verdict).toBe('match');
		const without = `curl '${typed}' -H 'Authorization: ${headerFor(`${PATH}?client_id=abc123`)}'`;
		expect((await verdictOf(without)).verdict).toBe('match');
		expect(englishAll(parseSignedRequest(without).understood).join(' ')).toMatch(
			/Without --path-as-is curl takes \/\.\/ and \/\.\.\/ out/
		);
	});

	it('signs an empty path as the "/" curl sends', async () => {
		const curl = `curl 'https://${HOST}?client_id=abc123' -H 'Authorization: ${headerFor('/?client_id=abc123')}'`;
		expect((await verdictOf(curl)).verdict).toBe('match');
	});
});
