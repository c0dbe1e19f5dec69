// The ports the end-to-end suite serves the site and the relay on (playwright.config.ts).
import { createServer } from 'node:net';

/**
 * Listens on 127.0.0.1:port (0: any port the system gives) and resolves with the server, or with
 * null when the port is taken.
 * @param {number} port
 * @returns {Promise<import('node:net').Server | null>}
 */
function hold(port) {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', (/** @type {NodeJS.ErrnoException} */ error) =>
			error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(null) : reject(error)
		);
		server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
	});
}

/**
 * For each variable, its port: the variable's value when it is set, else its preferred port when
 * nothing listens there, else a free port the system picks. A port picked here is written to its
 * variable: Playwright evaluates its config in the runner and again in every worker, and the workers
 * inherit the runner's environment, so all of them use the port the runner chose.
 * @template {string} Variable
 * @param {Record<Variable, number>} preferred the port each variable defaults to, e.g. { E2E_PORT: 4173 }
 * @returns {Promise<Record<Variable, number>>}
 */
export async function suitePorts(preferred) {
	/** @type {import('node:net').Server[]} */
	const held = [];
	/** @type {Partial<Record<Variable, number>>} */
	const ports = {};
	try {
		for (const variable of /** @type {Variable[]} */ (Object.keys(preferred))) {
			const given = process.env[variable];
			if (given !== undefined && given !== '') {
				const port = Number(given);
				if (!Number.isInteger(port) || port < 1 || port > 65535)
					throw new Error(`${variable} must be a port number from 1 to 65535; it is "${given}".`);
				ports[variable] = port;
				continue;
			}
			// Held until every port is chosen, so that the system never hands out one port twice.
			const server = (await hold(preferred[variable])) ?? (await hold(0));
			const address = server?.address();
			if (!server || !address || typeof address === 'string')
				throw new Error(`No free port for ${variable} on 127.0.0.1: set ${variable} to one.`);
			held.push(server);
			ports[variable] = address.port;
			process.env[variable] = String(address.port);
		}
		return /** @type {Record<Variable, number>} */ (ports);
	} finally {
		await Promise.all(held.map((server) => new Promise((done) => server.close(done))));
	}
}
