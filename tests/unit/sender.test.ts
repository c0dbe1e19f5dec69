import { describe, expect, it } from 'vitest';
import { BASE_URLS, hostsOf } from '$lib/account-api/deployments';
import { Playground } from '$lib/playground/playground.svelte';
import { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { explainResponse } from '$lib/send/explain';
import { Sender } from '$lib/send/sender.svelte';

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
		playground.pasteCredential(
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

		playground.load({ id: 'demo', label: 'demo', ...DEMO });
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

describe('Playground.logInAgain', () => {
	it('puts a demo login in place of a credential it never issued, says so, and puts it back', async () => {
		const { playground, sandbox } = setup();
		playground.pasteCredential(
			JSON.stringify({ kid: 'real-kid', mac_key: 'real-key', scopeSet: ['basic_info'] })
		);
		playground.clientId = 'real-client';
		await playground.logInAgain(sandbox);
		expect(playground.kid).toMatch(/^demo-kid-profile-4f1c-\d+$/);
		expect(playground.clientId).toBe('demo-client-0001');
		expect(sandbox.issued(playground.kid)).toBe(true);
		expect(playground.replaced?.message).toMatch(/in place of yours \(kid real-kid\)/);

		// A second login still keeps the user's own credential to put back.
		await playground.logInAgain(sandbox);
		expect(playground.replaced?.message).toMatch(/in place of yours \(kid real-kid\)/);
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
