// The triage engine under Node, in a process of its own so that each figure has a fresh heap and
// JIT: the bench (triage.js) starts it and reads one JSON line from its stdout.
//
//   node triage-engine.js run LOG KEYS         the whole engine on the file (peak heap sampled)
//   node triage-engine.js diagnose LOG KEYS N  diagnosis alone on the first N mismatches
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { loadLib as load } from './load-lib.js';

/** @param {string} path */
function fileStream(path) {
	return /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(createReadStream(path)));
}

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** @param {string} log @param {string} keys */
async function run(log, keys) {
	const { triage } = await load('triage/index.ts');
	globalThis.gc?.();
	const before = process.memoryUsage();
	let peakHeap = before.heapUsed;
	let peakRss = before.rss;
	const sample = () => {
		const now = process.memoryUsage();
		peakHeap = Math.max(peakHeap, now.heapUsed);
		peakRss = Math.max(peakRss, now.rss);
	};
	let verdicts = 0;
	const cpu = process.cpuUsage();
	const summary = await triage(fileStream(log), readFileSync(keys, 'utf8'), {
		onProgress: sample,
		onVerdicts: (/** @type {unknown[]} */ batch) => {
			verdicts += batch.length;
			sample();
		}
	});
	sample();
	const used = process.cpuUsage(cpu);
	return {
		ms: summary.elapsedMs,
		cpuMs: (used.user + used.system) / 1000,
		requests: summary.requests,
		verdicts,
		groups: summary.groups,
		bytes: summary.bytesRead,
		heapBefore: before.heapUsed,
		peakHeap,
		peakRss,
		maxOldSpace: process.execArgv.find((arg) => arg.startsWith('--max-old-space-size')) ?? null
	};
}

/** @param {string} log @param {string} keysPath @param {number} count */
async function diagnoseAlone(log, keysPath, count) {
	const { readRequests } = await load('read/readers.ts');
	const { checkRequest, diagnoseMistake } = await load('triage/verify.ts');
	const { parseKeys } = await load('triage/keys.ts');
	const { MacChecks, syncDigests } = await load('triage/hmac/index.ts');
	const { NonceLedger } = await load('triage/tally.ts');
	const context = {
		keyring: parseKeys(readFileSync(keysPath, 'utf8')).keyring,
		checks: new MacChecks(),
		nonces: new NonceLedger(),
		windowSeconds: 300,
		nowMs: Date.now()
	};
	// As the engine diagnoses: every variant signed synchronously, each key's state kept.
	const digests = syncDigests();
	const inputs = [];
	const reading = await readRequests(fileStream(log));
	outer: for await (const items of reading.items) {
		for (const item of items) {
			if (item.kind !== 'request') continue;
			const checked = await checkRequest(item.request, context);
			if (checked.mismatch !== null) inputs.push(checked.mismatch);
			if (inputs.length >= count) break outer;
		}
	}
	// Warm-up on a few, then each timed alone.
	for (const input of inputs.slice(0, 20)) await diagnoseMistake(input, digests);
	const times = [];
	/** @type {Record<string, number[]>} */
	const byMistake = {};
	const started = performance.now();
	for (const input of inputs) {
		const start = performance.now();
		const mistake = await diagnoseMistake(input, digests);
		const time = performance.now() - start;
		times.push(time);
		(byMistake[mistake] ??= []).push(time);
	}
	return {
		count: inputs.length,
		totalMs: performance.now() - started,
		medianMs: median(times),
		maxMs: Math.max(...times),
		byMistake: Object.fromEntries(
			Object.entries(byMistake).map(([id, list]) => [
				id,
				{ count: list.length, medianMs: median(list) }
			])
		)
	};
}

const [mode, ...args] = process.argv.slice(2);
let result;
if (mode === 'run') result = await run(args[0] ?? '', args[1] ?? '');
else if (mode === 'diagnose')
	result = await diagnoseAlone(args[0] ?? '', args[1] ?? '', Number(args[2] ?? 1000));
else {
	console.error('Usage: node triage-engine.js run|diagnose …');
	process.exit(2);
}
console.log(JSON.stringify(result));
