// A flood of idle connections must not grow a server's memory without bound: past the cap, a new
// connection gets a 503 answer and is closed, and the server serves again once connections close.
// Real processes on loopback (the processes load the loopback guard); every loop is bounded.
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, rawRequest, startRelay, type Started } from './relay-processes';

const CAP = 4;
const started: Started[] = [];

afterAll(() => {
	for (const server of started) server.child.kill();
});

/** Opens `count` connections that send nothing and stay open. */
async function idle(port: number, count: number): Promise<Socket[]> {
	const sockets: Socket[] = [];
	for (let i = 0; i < count; i++) {
		const socket = connect(port, '127.0.0.1');
		socket.on('error', () => {});
		await new Promise((done) => socket.once('connect', done));
		sockets.push(socket);
	}
	return sockets;
}

const GET = (host: string) => `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

describe.each([
	['the relay', [] as string[], 'relay_error'],
	['the sandbox server', ['--serve-sandbox'], 'data']
])('%s with --max-connections', (_name, extra, bodyField) => {
	it(`answers 503 past ${CAP} open connections, then serves again once they close`, async () => {
		const server = await startRelay([...extra, '--port', '0', '--max-connections', String(CAP)]);
		started.push(server);
		const held = await idle(server.port, CAP);

		const refused = await rawRequest(server.port, GET(`127.0.0.1:${server.port}`));
		expect(refused.status).toBe(503);
		expect(Object.keys(JSON.parse(refused.body))).toContain(bodyField);
		expect(refused.body).toMatch(/More than 4 connections are open/);

		// Each held connection ended, and closed once the server has closed its end too.
		await Promise.all(
			held.map((socket) => {
				const closed = new Promise((done) => socket.once('close', done));
				socket.end();
				return closed;
			})
		);
		// The server counts a connection as gone at its own 'close', a few turns of its event loop
		// after it closed its end: each try is a round trip through that loop, however slow it runs.
		let answer = refused;
		for (let tries = 0; tries < 50 && answer.status === 503; tries++)
			answer = await rawRequest(server.port, GET(`127.0.0.1:${server.port}`));
		expect(answer.status).not.toBe(503);
		expect(alive(server)).toBe(true);
	});
});

it('refuses a --max-connections that is not a whole number of 1 or more', async () => {
	await expect(startRelay(['--port', '0', '--max-connections', '0'])).rejects.toThrow(
		/--max-connections must be a whole number of 1 or more/
	);
});
