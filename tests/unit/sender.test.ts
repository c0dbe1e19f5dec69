import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URLS, hostsOf } from '$lib/account-api/deployments';
import { pasteCredential } from '$lib/playground/first-use/paste';
import { Playground } from '$lib/playground/playground.svelte';
import { replacedText } from '$lib/playground/first-use/replaced';
import { presetLabel } from '$lib/playground/texts';
import { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { explainResponse } from '$lib/send/explain';
import { MAX_ATTEMPTS } from '$lib/account-api/error-codes';
import { RETRY_DELAY_MS } from '$lib/send/attempts';
import { Sender } from '$lib/send/sender.svelte';
import { renderText as render } from '$lib/i18n/render-text';

const HOSTS = hostsOf(Object.values(BASE_URLS));

function setup() {
	const playground = new Playground();
	const sandbox = new Sandbox(() => HOSTS);
	const sender = new Sender(playground, sandbox);
	return { playground, sandbox, sender };
}

const DEMO = {
	kid: 'demo-kid-profile-4f1c',
	macKey: 'demo-mac-key-profile-Q9sLx2',
	scopes: ['basic_info', 'public_profile'] as ['basic_info', 'public_profile'],
	clientId: 'demo-client-0001'
};

const INVALID_TIME = '{"data":{"code":0,"error":"invalid_time"},"success":false}';

describe('explainResponse: the clock', () => {
	it('measures no difference from a server on this clock, whose Date has whole seconds', () => {
		const received = 1_800_000_000_900;
		const explanation = explainResponse({
			status: 400,
			body: INVALID_TIME,
			date: new Date(1_800_000_000_000).toUTCString(),
			sentAtMs: received - 4,
			receivedAtMs: received,
			ts: String(1_800_000_000 - 3 * 86_400)
		});
		expect(explanation).toMatchObject({
			kind: 'error',
			serverTimeMs: 1_800_000_000_000,
			clockOffsetSeconds: null,
			tsOffsetSeconds: -3 * 86_400
		});
	});

	it('measures a server clock 1000 s ahead, from the Date header or else the body', () => {
		const received = 1_800_000_000_400;
		for (const [date, body] of [
			[new Date(1_800_001_000_000).toUTCString(), INVALID_TIME],
			[null, INVALID_TIME.replace('"success"', '"now":1800001000,"success"')]
		] as const) {
			const explanation = explainResponse({
				status: 400,
				body,
				date,
				sentAtMs: received - 30,
				receivedAtMs: received
			});
			expect(explanation.kind === 'error' && explanation.clockOffsetSeconds).toBe(1000);
			expect(explanation.kind === 'error' && explanation.tsOffsetSeconds).toBeNull();
		}
	});
});

describe('Sender', () => {
	it('says when the sandbox never issued the kid it was sent, and keeps what /verify needs', async () => {
		const { playground, sender } = setup();
		pasteCredential(
			playground,
			JSON.stringify({ kid: 'real-kid', mac_key: 'real-key', scopeSet: ['basic_info'] })
		);
		await sender.send();
		expect(sender.result).toMatchObject({
			target: 'sandbox',
			kid: 'real-kid',
			kidUnknownToSandbox: true,
			signedRequest: { macKey: 'real-key' }
		});
		expect(sender.result?.signedRequest.curl).toContain('id="real-kid"');
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'access_denied' });

		playground.load({ id: 'demo', ...DEMO });
		await sender.send();
		expect(sender.result).toMatchObject({ kidUnknownToSandbox: false });
		expect(sender.result?.outcome).toMatchObject({ status: 200 });
	});

	it('marks the answer of another target as not current', async () => {
		const { sender } = setup();
		await sender.send();
		expect(sender.resultIsCurrent).toBe(true);
		sender.target = 'proxy';
		expect(sender.resultIsCurrent).toBe(false);
		sender.target = 'sandbox';
		expect(sender.resultIsCurrent).toBe(true);
	});

	it('asks once for the focus after a send that put an answer on screen', async () => {
		const { sender } = setup();
		expect(sender.takeAnswerFocus()).toBe(false);
		await sender.send();
		expect(sender.takeAnswerFocus()).toBe(true);
		expect(sender.takeAnswerFocus()).toBe(false);
	});

	it('sends to the sandbox from any target', async () => {
		const { sender } = setup();
		sender.target = 'direct';
		await sender.sendToSandbox();
		expect(sender.target).toBe('sandbox');
		expect(sender.result?.target).toBe('sandbox');
	});
});

/** The waits between attempts, taken at once: the test sees how long each would have been. */
function skipWaits(): number[] {
	const waits: number[] = [];
	vi.spyOn(globalThis, 'setTimeout').mockImplementation(((done: () => void, ms?: number) => {
		waits.push(ms ?? 0);
		queueMicrotask(done);
		return 0;
	}) as typeof setTimeout);
	return waits;
}

describe('Sender: server_error and retries', () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it('tries 3 times in all after server_error, waiting longer each time, then gives up', async () => {
		const { sandbox, sender } = setup();
		const waits = skipWaits();
		await sandbox.configure({ failNext: 5 });
		await sender.send();
		expect(MAX_ATTEMPTS).toBe(3);
		expect(sender.attempts.map((attempt) => attempt.serverError)).toEqual([true, true, true]);
		expect(sandbox.state.failNext).toBe(2);
		expect(waits).toEqual([RETRY_DELAY_MS, 2 * RETRY_DELAY_MS]);
		expect(sender.gaveUp).toBe(true);
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'server_error' });
	});

	it('stops retrying at the first answer that is not server_error', async () => {
		const { sandbox, sender } = setup();
		skipWaits();
		await sandbox.configure({ failNext: 1 });
		await sender.send();
		expect(sender.attempts.map((attempt) => attempt.serverError)).toEqual([true, false]);
		expect(sender.gaveUp).toBe(false);
		expect(sender.result?.outcome).toMatchObject({ status: 200 });
	});

	it('starts counting again at each Send', async () => {
		const { sandbox, sender } = setup();
		skipWaits();
		await sandbox.configure({ failNext: 3 });
		await sender.send();
		expect(sender.gaveUp).toBe(true);
		await sender.send();
		expect(sender.attempts).toHaveLength(1);
		expect(sender.gaveUp).toBe(false);
	});
});

describe('Sender: requests not to resubmit', () => {
	it('will not send again a request answered forbidden, until the request changes', async () => {
		const { playground, sandbox, sender } = setup();
		const basic = sandbox.state.tokens.find((token) => token.accountId === 'demo-basic')!;
		playground.useCredential(basic, 'the basic account');
		playground.operationOverride = 'profile';
		await sender.send();
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'forbidden' });
		expect(sender.cannotSend && render(sender.cannotSend)).toMatch(
			/answered forbidden to this exact request/
		);

		const before = sender.result;
		await sender.send();
		expect(sender.result).toBe(before);
		expect(sender.attempts).toHaveLength(1);

		playground.operationOverride = 'basic-info';
		expect(sender.cannotSend).toBeNull();
		await sender.send();
		expect(sender.result?.outcome).toMatchObject({ status: 200 });
	});

	it('will not send again a request answered not_found, but sends it with another kid', async () => {
		const { playground, sender } = setup();
		playground.customUrl = `${BASE_URLS.domestic}/account/nothing/v1?client_id=demo-client-0001`;
		await sender.send();
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'not_found' });
		expect(sender.cannotSend && render(sender.cannotSend)).toMatch(/answered not_found/);
		await sender.send();
		expect(sender.attempts).toHaveLength(1);

		playground.kid = 'another-kid';
		expect(sender.cannotSend).toBeNull();
	});

	it('sends again after other errors', async () => {
		const { playground, sender } = setup();
		playground.clientId = 'wrong';
		await sender.send();
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'invalid_client' });
		expect(sender.cannotSend).toBeNull();
	});
});

describe('Sender: actions on the answer', () => {
	it("re-signs with the server's time: the live ts follows the server's clock, and it sends", async () => {
		const { playground, sandbox, sender } = setup();
		await sandbox.configure({ clockSkewSeconds: 1000 });
		await sender.send();
		expect(sender.result?.explanation).toMatchObject({ kind: 'error', code: 'invalid_time' });
		const explanation = sender.result?.explanation;
		const offset = explanation?.kind === 'error' ? explanation.clockOffsetSeconds : null;
		expect(offset).toBeGreaterThan(990);

		playground.setTs('1700000000');
		await sender.resignWithServerTime(offset ?? 0);
		expect(playground.fixedTs).toBeNull();
		expect(playground.clockOffsetSeconds).toBe(offset);
		expect(sender.result?.outcome).toMatchObject({ status: 200 });
	});

	it('switches to a relay', () => {
		const { sender } = setup();
		sender.useRelay();
		expect(sender.target).toBe('proxy');
	});

	it("checks the relay's address once the Proxy target is chosen, and sends through it", async () => {
		const { sender } = setup();
		sender.setProxySetting('127.0.0.1:8787');
		sender.target = 'proxy';
		// Choosing Proxy starts loading the relay's rules; Send waits for that load, then sends nothing.
		await sender.send();
		expect(sender.result).toBeNull();
		expect(render(sender.cannotSend!)).toBe(
			"The relay's address must start with http:// or https://."
		);
		// A closed port on this machine: the request goes to the relay's URL and finds nobody.
		sender.setProxySetting('http://127.0.0.1:1/');
		await sender.send();
		expect(sender.result?.requestUrl).toBe(`http://127.0.0.1:1/${sender.upstreamUrl}`);
		expect(sender.result?.outcome).toMatchObject({ kind: 'fault', fault: 'unreachable' });
	});
});

describe('Playground.logInAgain', () => {
	it('puts a demo login in place of a credential it never issued, says so, and puts it back', async () => {
		const { playground, sandbox } = setup();
		pasteCredential(
			playground,
			JSON.stringify({ kid: 'real-kid', mac_key: 'real-key', scopeSet: ['basic_info'] })
		);
		playground.clientId = 'real-client';
		await playground.logInAgain(sandbox);
		expect(playground.kid).toMatch(/^demo-kid-profile-4f1c-\d+$/);
		expect(playground.clientId).toBe('demo-client-0001');
		expect(sandbox.issued(playground.kid)).toBe(true);
		expect(replacedText(playground.replaced!, presetLabel)).toMatch(
			/in place of yours \(kid real-kid\)/
		);

		// A second login still keeps the user's own credential to put back.
		await playground.logInAgain(sandbox);
		expect(replacedText(playground.replaced!, presetLabel)).toMatch(
			/in place of yours \(kid real-kid\)/
		);
		playground.putBackCredential();
		expect([playground.kid, playground.macKey, playground.clientId]).toEqual([
			'real-kid',
			'real-key',
			'real-client'
		]);
		expect(playground.scopes).toEqual({ basic_info: true, public_profile: false });
		expect(playground.replaced).toBeNull();
	});
});
