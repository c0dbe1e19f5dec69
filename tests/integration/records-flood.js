// A child process of records-flood.test.ts: the triage engine (loaded as `npm run triage`
// loads it) reads MEGABYTES of `[`, generated as a stream a mebibyte at a time (never a string),
// after a HAR's start (`har`) or alone (`plain`). It prints the summary's reading fields and how
// far the process's peak memory (RSS) grew past what it held before reading.
//   node tests/integration/records-flood.js har|plain MEGABYTES
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const [shape = 'har', megabytes = '150'] = process.argv.slice(2);
const lib = fileURLToPath(new URL('../../src/lib', import.meta.url));
const { module } = await runnerImport(`${lib}/triage/engine.ts`, {
	configFile: false,
	logLevel: 'silent',
	resolve: { alias: { $lib: lib } }
});

const head = new TextEncoder().encode(shape === 'har' ? '{"log":{"entries":[' : '');
const chunks = Number(megabytes);
let sent = 0;
const stream = new ReadableStream({
	start(controller) {
		if (head.length > 0) controller.enqueue(head);
	},
	pull(controller) {
		if (sent === chunks) controller.close();
		else {
			controller.enqueue(new Uint8Array(1 << 20).fill(0x5b));
			sent += 1;
		}
	}
});

globalThis.gc?.();
const before = process.memoryUsage().rss;
let records = 0;
const summary = await module.triage(stream, 'kid key', {
	onVerdicts: (/** @type {unknown[]} */ batch) => void (records += batch.length)
});
const peak = process.resourceUsage().maxRSS * 1024;
const { format, empty, stopped, bytesRead, requests, unreadable } = summary;
process.stdout.write(
	JSON.stringify({
		format,
		empty,
		stopped,
		bytesRead,
		requests,
		unreadable,
		records,
		growth: Math.max(0, peak - before)
	})
);
