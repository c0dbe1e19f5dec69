// A worker thread of `npm run triage`'s pool ($lib/triage/pool): parts of the log in, their
// verdicts out, as the page's pool workers do. Started by pool.ts from the bundle
// (src/build/triage-bundle.js), one per core.
import { parentPort } from 'node:worker_threads';
import { servePool } from '$lib/triage/pool/serve';
import type { PoolCommand } from '$lib/triage/pool/pool';

const port = parentPort;
if (port !== null)
	servePool({
		postMessage: (report, transfer) =>
			port.postMessage(report, (transfer ?? []) as unknown as ArrayBuffer[]),
		onCommand: (listener) => port.on('message', (command: PoolCommand) => listener(command))
	});
