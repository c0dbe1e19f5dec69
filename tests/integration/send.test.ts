import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxUnreachable } from '$lib/sandbox/service';
import { sendRequest } from '$lib/send/send';
import { renderText as render } from '$lib/i18n/render-text';

let server: Server;
let origin: string;

beforeAll(async () => {
	server = createServer((request, response) => {
		if (request.url === '/hang') return; // never answers
		response.writeHead(403, {
			'content-type': 'application/json',
			'x-relay-error': 'host_not_allowed',
			date: 'Tue, 14 Nov 2023 22:13:20 GMT'
		});
		response.end(
			JSON.stringify({
				relay_error: 'host_not_allowed',
				message: 'no',
				auth: request.headers.authorization ?? null
			})
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
	server.closeAllConnections();
	server.close();
});

const unusedSandbox = () => Promise.reject(new Error('not the sandbox'));

describe('sendRequest', () => {
	it('reports a relay that answers for itself, with the headers and body as sent', async () => {
		const outcome = await sendRequest({
			target: 'proxy',
			requestUrl: `${origin}/x`,
			authorization: 'MAC id="k"',
			sandbox: unusedSandbox
		});
		expect(outcome).toMatchObject({
			kind: 'response',
			status: 403,
			relayError: 'host_not_allowed'
		});
		if (outcome.kind === 'response') expect(JSON.parse(outcome.body).auth).toBe('MAC id="k"');
	});

	it('sends no Authorization header when asked to', async () => {
		const outcome = await sendRequest({
			target: 'direct',
			requestUrl: `${origin}/x`,
			authorization: null,
			sandbox: unusedSandbox
		});
		expect(outcome.kind === 'response' && JSON.parse(outcome.body).auth).toBeNull();
		expect(outcome.kind === 'response' && outcome.relayError).toBeNull();
	});

	it('gives up after the time limit and says so', async () => {
		const outcome = await sendRequest({
			target: 'proxy',
			requestUrl: `${origin}/hang`,
			authorization: null,
			sandbox: unusedSandbox,
			timeoutMs: 300
		});
		expect(outcome).toMatchObject({ kind: 'fault', fault: 'timeout' });
		if (outcome.kind === 'fault') expect(render(outcome.message)).toMatch(/No answer within 0.3 s/);
	});

	it('says what to check when a relay cannot be reached', async () => {
		const outcome = await sendRequest({
			target: 'proxy',
			requestUrl: 'http://127.0.0.1:9/x',
			authorization: null,
			sandbox: unusedSandbox
		});
		expect(outcome).toMatchObject({ kind: 'fault', fault: 'unreachable' });
		if (outcome.kind === 'fault')
			expect(render(outcome.message)).toMatch(/Is the relay running \(npm run proxy\)/);
	});

	it('passes on the sandbox saying it does not serve a host', async () => {
		const outcome = await sendRequest({
			target: 'sandbox',
			requestUrl: 'https://example.com/account/profile/v1',
			authorization: null,
			sandbox: () => Promise.reject(new SandboxUnreachable(['open.tapapis.cn'], 'example.com'))
		});
		expect(outcome).toMatchObject({ kind: 'fault', fault: 'unreachable' });
		if (outcome.kind === 'fault')
			expect(render(outcome.message)).toBe(
				'The sandbox answers only for open.tapapis.cn, not example.com.'
			);
	});
});
