// Answers true for the case at hand (issue 24 §1), the pure parts the pages build on: a request handed
// from /triage carries its logged time; two kids with the key of one; a wrong mac is not a revoked
// token; a preset keeps the credential typed before it; the demo's client_id beside one's own kid.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Playground } from '$lib/playground/playground.svelte';
import { PRESETS } from '$lib/playground/presets';
import { fieldMessage } from '$lib/playground/texts';
import { listLogged, parseSignedRequest } from '$lib/read/parse-signed-request';
import { explainResponse } from '$lib/send/explain';
import { signedRequestText } from '$lib/triage-desk/desk.svelte';
import type { VerdictRecord } from '$lib/triage/types';
import { keyKidOf, listedVerdicts, verdictsForKeyKid } from '$lib/verify/desk/request-list';

const HOST = 'open.tapapis.cn';
const PATH = '/account/profile/v1?client_id=cust-app';
const TS = '1795957502'; // 2026-11-24 13:05:02 UTC

function header(kid: string, key: string, nonce: string): string {
	const base = `${TS}\n${nonce}\nGET\n${PATH}\n${HOST}\n443\n\n`;
	const mac = createHmac('sha1', key).update(base).digest('base64');
	return `MAC id="${kid}",ts="${TS}",nonce="${nonce}",mac="${mac}"`;
}

describe('a request handed from /triage to /verify', () => {
	const record = (sentAt: VerdictRecord['sentAt']) =>
		({
			method: 'GET',
			url: `https://${HOST}${PATH}`,
			authorization: header('kid-a', 'key-a', 'bm9uY2U='),
			sentAt
		}) as VerdictRecord;

	it('carries its logged time, which /verify reads back as the time it was sent', () => {
		const ms = Date.UTC(2026, 10, 24, 13, 5, 0, 250);
		const parsed = parseSignedRequest(
			signedRequestText(record({ ms, source: 'har', zoneKnown: true }))
		);
		expect(parsed.sentAt).toEqual({ ms, source: 'log', zoneKnown: true });
		expect(parsed.url).toBe(`https://${HOST}${PATH}`);
	});

	it('keeps a time logged without a zone without one, and adds none when nothing was logged', () => {
		const ms = Date.UTC(2026, 10, 24, 13, 5, 0);
		const parsed = parseSignedRequest(
			signedRequestText(record({ ms, source: 'log', zoneKnown: false }))
		);
		expect(parsed.sentAt).toEqual({ ms, source: 'log', zoneKnown: false });
		expect(parseSignedRequest(signedRequestText(record(null))).sentAt).toBeUndefined();
	});
});

describe('a paste of two kids with the key of one', () => {
	const line = (kid: string, key: string, nonce: string) =>
		JSON.stringify({ url: `https://${HOST}${PATH}`, authorization: header(kid, key, nonce) });
	const requests = listLogged(
		[
			line('kid-a', 'key-a', 'bm9uY2UtMQ=='),
			line('kid-b', 'key-b', 'bm9uY2UtMg=='),
			line('kid-a', 'key-a', 'bm9uY2UtMw==')
		].join('\n')
	)!;

	it('says the key is for the kid it matches, and the other kid has no key here', async () => {
		const verdicts = await listedVerdicts(requests, 'key-a');
		expect(verdicts).toEqual(['match', 'mismatch', 'match']);
		const keyKid = keyKidOf(requests, verdicts, null);
		expect(keyKid).toBe('kid-a');
		expect(verdictsForKeyKid(requests, verdicts, keyKid)).toEqual([
			'match',
			'no-key-for-kid',
			'match'
		]);
	});

	it('takes the kid of the request opened when the key matches none', async () => {
		const verdicts = await listedVerdicts(requests, 'neither-key');
		expect(keyKidOf(requests, verdicts, 2)).toBe('kid-b');
		expect(verdictsForKeyKid(requests, verdicts, 'kid-b')).toEqual([
			'no-key-for-kid',
			'mismatch',
			'no-key-for-kid'
		]);
	});

	it('names no kid before a key is given, or for a paste of one kid', async () => {
		expect(keyKidOf(requests, await listedVerdicts(requests, ''), null)).toBeNull();
		const one = requests.filter((_, index) => index !== 1);
		expect(keyKidOf(one, await listedVerdicts(one, 'key-a'), null)).toBeNull();
	});
});

describe('access_denied', () => {
	const body = (extra: Record<string, string>) =>
		JSON.stringify({ data: { code: 0, error: 'access_denied', ...extra }, success: false });

	it('for a wrong mac (the sandbox signed another base string) is a signature mismatch', () => {
		expect(
			explainResponse({ status: 401, body: body({ sandbox_base_string: 'x\n' }) })
		).toMatchObject({ kind: 'error', signatureMismatch: true });
		expect(
			explainResponse({
				status: 401,
				body: body({}),
				diagnosis: 'mistake=unexplained; client=unknown; confidence=none'
			})
		).toMatchObject({ signatureMismatch: true });
	});

	it('for a revoked token is not', () => {
		expect(
			explainResponse({
				status: 401,
				body: body({ error_description: 'The token is no longer valid' })
			})
		).toMatchObject({ kind: 'error', signatureMismatch: false });
	});
});

describe('the playground', () => {
	const demo = PRESETS[0]!;
	const basic = PRESETS[1]!;

	it('keeps the credential typed before a preset, and puts all of it back', () => {
		const playground = new Playground();
		playground.kid = 'my-kid';
		playground.macKey = 'my-key';
		playground.clientId = 'my-client';
		playground.usePreset(basic);
		expect(playground.kid).toBe(basic.kid);
		expect(playground.replaced?.by).toEqual({ kind: 'preset', preset: basic.id, yours: 'my-kid' });
		playground.usePreset(demo);
		playground.putBackCredential();
		expect([playground.kid, playground.macKey, playground.clientId]).toEqual([
			'my-kid',
			'my-key',
			'my-client'
		]);
		expect(playground.replaced).toBeNull();
	});

	it('keeps nothing aside when a preset replaces another preset', () => {
		const playground = new Playground();
		playground.usePreset(basic);
		expect(playground.replaced).toBeNull();
	});

	it("marks the demo's client_id invalid beside a kid the sandbox did not issue, and signs anyway", async () => {
		const playground = new Playground();
		expect(playground.messages.client_id).toBeUndefined();
		playground.fillCredential({ kid: 'real-kid', mac_key: 'real-key' });
		expect(fieldMessage(playground.messages.client_id)).toMatchObject({
			blocking: false,
			invalid: true,
			message: expect.stringContaining("your application's own client_id")
		});
		expect((await playground.signed)?.ok).toBe(true);
		playground.kid = `${demo.kid}-3`;
		expect(playground.messages.client_id).toBeUndefined();
	});
});
