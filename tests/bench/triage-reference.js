// The reference the triage is measured against: the same work done the plainest way in Node, with
// nothing of the app: read the file line by line, parse each line, rebuild the base string,
// node:crypto HMAC-SHA-1, compare. No diagnosis, no grouping beyond match and mismatch.
//
//   node tests/bench/triage-reference.js LOG.ndjson KEYS   prints {"ms":…,"match":…,"mismatch":…}
import { createHmac } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// From a word's start only: a name is read once, not again from each of its letters.
const PARAM = /\b([a-z]+)="([^"]*)"/g;

/** @param {string} path @param {string} keysText */
export async function referenceTriage(path, keysText) {
	const started = performance.now();
	const cpu = process.cpuUsage();
	const keys = new Map(
		keysText
			.split('\n')
			.map((line) => line.trim().split(/\s+/))
			.filter((words) => words.length === 2)
			.map(([kid, key]) => [kid, key])
	);
	const counts = { match: 0, mismatch: 0, noKey: 0, unreadable: 0 };
	const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
	for await (const line of lines) {
		if (line === '') continue;
		let record;
		try {
			record = JSON.parse(line);
		} catch {
			counts.unreadable += 1;
			continue;
		}
		const header = String(record.authorization);
		if (!header.startsWith('MAC ')) {
			counts.unreadable += 1;
			continue;
		}
		/** @type {Record<string, string>} */
		const params = {};
		for (const [, name = '', value = ''] of header.matchAll(PARAM)) params[name] = value;
		const key = keys.get(params.id ?? '');
		if (key === undefined) {
			counts.noKey += 1;
			continue;
		}
		const url = new URL(record.url);
		const port = url.port || (url.protocol === 'http:' ? '80' : '443');
		const base = `${params.ts}\n${params.nonce}\n${String(record.method).toUpperCase()}\n${url.pathname}${url.search}\n${url.hostname}\n${port}\n${params.ext ?? ''}\n`;
		const mac = createHmac('sha1', key).update(base, 'utf8').digest('base64');
		if (mac === params.mac) counts.match += 1;
		else counts.mismatch += 1;
	}
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
