import { beforeEach, describe, expect, it } from 'vitest';
import { DEPLOYMENT_HOSTS } from '$lib/account-api/deployments';
import { authorizationHeader, baseString, requestTarget, sign } from '$lib/mac';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import { openid, unionid } from '$lib/sandbox/identifiers';
import { SandboxService, SandboxUnreachable } from '$lib/sandbox/service';

const NOW = 1_800_000_000_000;
const HOSTS = DEPLOYMENT_HOSTS;
const [profileAccount, basicAccount] = DEMO_ACCOUNTS as [
	(typeof DEMO_ACCOUNTS)[0],
	(typeof DEMO_ACCOUNTS)[0]
];
const PROFILE_URL = 'https://open.tapapis.cn/account/profile/v1?client_id=demo-client-0001';
const BASIC_URL = 'https://open.tapapis.cn/account/basic-info/v1?client_id=demo-client-0001';

let service: SandboxService;
let nonceCounter = 0;

beforeEach(() => {
	service = new SandboxService({ hosts: () => HOSTS, now: () => NOW });
});

interface SignOptions {
	kid?: string;
	macKey?: string;
	ts?: string;
	nonce?: string;
}

async function signed(url: string, options: SignOptions = {}): Promise<Request> {
	const kid = options.kid ?? profileAccount.kid;
	const ts = options.ts ?? String(NOW / 1000);
	const nonce = options.nonce ?? `nonce-${++nonceCounter}`;
	const target = requestTarget(url);
	const mac = await sign(
		options.macKey ?? profileAccount.macKey,
		baseString({ ts, nonce, method: 'GET', ...target })
	);
	return new Request(url, {
		headers: { authorization: authorizationHeader({ id: kid, ts, nonce, mac }) }
	});
}

async function call(request: Request) {
	const response = await service.handle(request);
	const body = await response.json();
	return { status: response.status, body, date: response.headers.get('date') };
}

describe('SandboxService', () => {
	it('answers a correctly signed profile request with the §2.2 object, wrapped as the real service does', async () => {
		const { status, body, date } = await call(await signed(PROFILE_URL));
		expect(status).toBe(200);
		expect(body).toMatchObject({ success: true, now: NOW / 1000 });
		expect(Object.keys(body.data).sort()).toEqual(['avatar', 'name', 'openid', 'unionid']);
		expect(date).toBe(new Date(NOW).toUTCString());
	});

	it('answers basic information with openid and unionid only', async () => {
		const { status, body } = await call(await signed(BASIC_URL));
		expect(status).toBe(200);
		expect(Object.keys(body.data).sort()).toEqual(['openid', 'unionid']);
	});

	it('answers the overseas host too, verifying against the host actually called', async () => {
		const overseas = PROFILE_URL.replace('.cn', '.com');
		expect((await call(await signed(overseas))).status).toBe(200);
		const signedForDomestic = await signed(PROFILE_URL);
		const sentOverseas = new Request(overseas, { headers: signedForDomestic.headers });
		expect((await call(sentOverseas)).body.data.error).toBe('access_denied');
	});

	it.each([
		['a missing Authorization header', () => new Request(PROFILE_URL), 400, 'invalid_request'],
		[
			'a malformed header',
			() => new Request(PROFILE_URL, { headers: { authorization: 'MAC id="x"' } }),
			400,
			'invalid_request'
		],
		[
			'a missing client_id',
			() => signed('https://open.tapapis.cn/account/profile/v1'),
			400,
			'invalid_request'
		],
		['an old ts', () => signed(PROFILE_URL, { ts: String(NOW / 1000 - 301) }), 400, 'invalid_time'],
		[
			'a ts from the future',
			() => signed(PROFILE_URL, { ts: String(NOW / 1000 + 301) }),
			400,
			'invalid_time'
		],
		['a ts in milliseconds', () => signed(PROFILE_URL, { ts: String(NOW) }), 400, 'invalid_time'],
		[
			"another application's client_id",
			() => signed(PROFILE_URL.replace('0001', '0002')),
			401,
			'invalid_client'
		],
		['an unknown kid', () => signed(PROFILE_URL, { kid: 'nobody' }), 401, 'access_denied'],
		['a wrong mac_key', () => signed(PROFILE_URL, { macKey: 'wrong' }), 401, 'access_denied'],
		[
			'a basic_info-only token asking for the profile',
			() => signed(PROFILE_URL, { kid: basicAccount.kid, macKey: basicAccount.macKey }),
			403,
			'forbidden'
		],
		[
			'an unknown path',
			() => signed('https://open.tapapis.cn/account/nope/v1?client_id=demo-client-0001'),
			404,
			'not_found'
		]
	])('rejects %s', async (_, makeRequest, status, code) => {
		const result = await call(await makeRequest());
		expect(result.status).toBe(status);
		expect(result.body).toMatchObject({ success: false, data: { error: code } });
		expect(result.body.data.error_description).toEqual(expect.any(String));
	});

	it.each([
		['values in single quotes', (header: string) => header.replaceAll('"', "'")],
		['the scheme written Mac', (header: string) => `Mac${header.slice(3)}`],
		['blanks around =', (header: string) => header.replace('ts="', 'ts = "')]
	])(
		'refuses a right signature in a header not written as the spec shows (%s), naming the kid',
		async (_, rewrite) => {
			const request = await signed(PROFILE_URL);
			const header = rewrite(request.headers.get('authorization')!);
			const answer = await service.decide({
				method: 'GET',
				url: PROFILE_URL,
				authorization: header
			});
			expect(answer.status).toBe(400);
			expect(JSON.parse(String(answer.body)).data).toMatchObject({ error: 'invalid_request' });
			expect(answer.outcome).toMatchObject({ verdict: 'header-format', kid: profileAccount.kid });
		}
	);

	it('accepts a ts at the edge of the window, and the window is adjustable', async () => {
		expect((await call(await signed(PROFILE_URL, { ts: String(NOW / 1000 - 300) }))).status).toBe(
			200
		);
		service.configure({ windowSeconds: 10 });
		expect(
			(await call(await signed(PROFILE_URL, { ts: String(NOW / 1000 - 11) }))).body.data.error
		).toBe('invalid_time');
	});

	it('refuses a nonce already used within the window', async () => {
		expect((await call(await signed(PROFILE_URL, { nonce: 'same' }))).status).toBe(200);
		const again = await call(await signed(PROFILE_URL, { nonce: 'same' }));
		expect(again.body.data).toMatchObject({
			error: 'invalid_request',
			error_description: expect.stringMatching(/nonce/)
		});
	});

	it('tells the mac mismatch apart by showing the base string it rebuilt', async () => {
		const { body } = await call(await signed(PROFILE_URL, { macKey: 'wrong' }));
		expect(body.data.sandbox_base_string).toBe(
			`${NOW / 1000}\nnonce-${nonceCounter}\nGET\n/account/profile/v1?client_id=demo-client-0001\nopen.tapapis.cn\n443\n\n`
		);
	});

	it('fails the next N requests with server_error when the fault switch is set', async () => {
		service.configure({ failNext: 2 });
		expect((await call(await signed(PROFILE_URL))).status).toBe(500);
		expect((await call(await signed(PROFILE_URL))).body.data.error).toBe('server_error');
		expect((await call(await signed(PROFILE_URL))).status).toBe(200);
	});

	it('invalidates a token when the user changes security info or revokes, and a new login works', async () => {
		service.invalidate(profileAccount.kid, 'revoked');
		const denied = await call(await signed(PROFILE_URL));
		expect(denied.body.data).toMatchObject({
			error: 'access_denied',
			error_description: expect.stringMatching(/revoked/)
		});
		const fresh = service.login(profileAccount.id);
		expect(fresh.kid).not.toBe(profileAccount.kid);
		expect(
			(await call(await signed(PROFILE_URL, { kid: fresh.kid, macKey: fresh.macKey }))).status
		).toBe(200);
	});

	it('shifts its clock and Date header by the configured skew', async () => {
		service.configure({ clockSkewSeconds: 1000 });
		const result = await call(await signed(PROFILE_URL));
		expect(result.body.data.error).toBe('invalid_time');
		expect(result.date).toBe(new Date(NOW + 1_000_000).toUTCString());
	});

	it('is unreachable for hosts it does not serve', async () => {
		await expect(
			service.handle(new Request('https://example.com/account/profile/v1'))
		).rejects.toThrow(SandboxUnreachable);
	});
});

describe('identifiers', () => {
	it('gives one user a different openid per application and the same unionid within the vendor', () => {
		expect(openid('demo-client-0001', 'user-ada')).not.toBe(openid('demo-client-0002', 'user-ada'));
		expect(openid('demo-client-0001', 'user-ada')).toBe(openid('demo-client-0001', 'user-ada'));
		expect(unionid('v', 'user-ada')).not.toBe(unionid('v', 'user-bo'));
		expect(unionid('v', 'user-ada')).not.toBe(unionid('w', 'user-ada'));
	});
});
