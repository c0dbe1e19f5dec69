// The sandbox server (`npm run proxy -- --serve-sandbox`) as a real process: a request whose mac is
// wrong is answered 401 access_denied with X-Sandbox-Diagnosis, naming the catalogued mistake that
// reproduces the mac and the client that made the request where the evidence names one; a right one carries none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, rawRequest, startRelay, type Started } from './relay-processes';
import { signAs, type ShapedClient, type Signing } from '../unit/client-shaped';

const HOST = 'open.tapapis.cn';
const URL = `https://${HOST}/account/profile/v1?client_id=${account.clientId}`;

let server: Started | undefined;

beforeAll(async () => {
	server = await startRelay(['--serve-sandbox', '--port', '0']);
});

afterAll(() => server?.child.kill());

/** Sends a request signed as `client` signs it to the sandbox server, over raw bytes. */
async function send(client: ShapedClient, signing: Partial<Signing> = {}) {
	const shaped = signAs(client, { kid: account.kid, key: account.macKey, url: URL, ...signing });
	const target = shaped.url.slice(`https://${HOST}`.length);
	const answer = await rawRequest(
		server?.port ?? 0,
		`GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\nX-Forwarded-Proto: https\r\n` +
			`Authorization: ${shaped.authorization}\r\nConnection: close\r\n\r\n`
	);
	return { ...answer, diagnosis: answer.headers['x-sandbox-diagnosis'] };
}

describe('the sandbox server', () => {
	it('answers a right mac without a diagnosis', async () => {
		const answer = await send('docs-python3');
		expect(answer.status, answer.body).toBe(200);
		expect(answer.diagnosis).toBeUndefined();
	});

	it('names the mistake and the likely client of a wrong mac', async () => {
		// The older Node.js sample with the other deployment's host hard-coded.
		const otherHost = await send('docs-node-old', { signedHost: 'open.tapapis.com' });
		expect(otherHost.status).toBe(401);
		expect(JSON.parse(otherHost.body)).toMatchObject({ data: { error: 'access_denied' } });
		// Its shape (Base64 nonce, `,`) and this mistake are other code's too: no client named.
		expect(otherHost.diagnosis).toBe(
			'reason=mac-mismatch; mistake=host-other-deployment; client=unknown; confidence=none; ' +
				'signed=open.tapapis.com; called=open.tapapis.cn:443; ' +
				'hint="signed open.tapapis.com but called open.tapapis.cn:443: sign the host you call"; ' +
				'verdict=mismatch; headline=mismatch:host-other-deployment'
		);
		// The Unity SDK with a token whose mac_algorithm is hmac-sha-256.
		const sha256 = await send('unity-sdk', { sha256: true });
		expect(sha256.status).toBe(401);
		expect(sha256.diagnosis).toBe(
			'reason=mac-mismatch; mistake=hmac-sha256; client=unknown; confidence=none; verdict=mismatch; headline=mismatch:hmac-sha256'
		);
		// The PHP sample's fixed nonce, but HMAC-SHA-256, which the PHP sample never signs with:
		// code other than the sample (a port that kept its nonce), so no client is named.
		const php = await send('docs-php', { sha256: true });
		expect(php.diagnosis).toBe(
			'reason=mac-mismatch; mistake=hmac-sha256; client=unknown; confidence=none; verdict=mismatch; headline=mismatch:hmac-sha256'
		);
	});

	it('names the client by its fixed nonce alone when nothing reproduces the mac', async () => {
		const wrongKey = await send('docs-php', { key: 'not-the-key' });
		expect(wrongKey.status).toBe(401);
		expect(wrongKey.diagnosis).toBe(
			'reason=mac-mismatch; mistake=unexplained; client=docs-php; confidence=high; verdict=mismatch; headline=mismatch:unexplained'
		);
		const shared = await send('docs-java', { key: 'not-the-key' });
		expect(shared.diagnosis).toBe(
			'reason=mac-mismatch; mistake=unexplained; client=unknown; confidence=none; verdict=mismatch; headline=mismatch:unexplained'
		);
	});
});
