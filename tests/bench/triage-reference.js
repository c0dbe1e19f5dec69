// The reference the triage is measured against: the same work done the plainest way in Node, with
// nothing of the app: read the file line by line, parse each line, rebuild the base string,
// node:crypto HMAC-SHA-1, compare (triage-reference-line.js). No diagnosis, no grouping beyond
// match and mismatch.
//
//   node tests/bench/triage-reference.js LOG.ndjson KEYS   prints {"ms":…,"match":…,"mismatch":…}
import { createHmac } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { referenceCounts, referenceKeys, referenceLine } from './triage-reference-line.js';

/** @type {import('./triage-reference-line.js').MacMatches} */
export const nodeMacMatches = (key, base, mac) =>
	createHmac('sha1', key).update(base, 'utf8').digest('base64') === mac;

/** @param {string} path @param {string} keysText */
export async function referenceTriage(path, keysText) {
	const started = performance.now();
	const cpu = process.cpuUsage();
	const keys = referenceKeys(keysText);
	const counts = referenceCounts();
	const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
	for await (const line of lines) referenceLine(line, keys, counts, nodeMacMatches);
	const used = process.cpuUsage(cpu);
	return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, ...counts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [path, keys] = process.argv.slice(2);
	if (path === undefined || keys === undefined) {
		console.error('Usage: node tests/bench/triage-reference.js LOG.ndjson KEYS');
		process.exit(2);
	}
	console.log(JSON.stringify(await referenceTriage(path, readFileSync(keys, 'utf8'))));
}
