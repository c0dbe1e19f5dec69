// The triage engine under Node, in a process of its own so that each figure has a fresh heap and
// JIT: the bench (triage.js) starts it and reads one JSON line from its stdout.
//
//   node triage-engine.js run LOG KEYS own|noble|subtle   the whole engine on the file (peak heap sampled)
//   node triage-engine.js diagnose LOG KEYS N          diagnosis alone on the first N mismatches
//   node triage-engine.js hmac N                       N HMACs each way (hmac-candidates.js, the core's, node:crypto)
import { createHmac } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { loadLib as load } from './load-lib.js';
import { KEY, baseStrings, timeCandidates } from './hmac-candidates.js';

/** @param {string} path */
function fileStream(path) {
	return /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(createReadStream(path)));
}

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** @param {string} log @param {string} keys @param {'own' | 'noble' | 'subtle'} hmac */
async function run(log, keys, hmac) {
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
		hmac,
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
		checks: new MacChecks('own'),
		nonces: new NonceLedger(),
		windowSeconds: 300,
		nowMs: Date.now()
	};
	// As the engine diagnoses: every variant signed synchronously, each key's state kept.
	const digests = syncDigests('own');
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

/** @param {number} count */
async function hmacs(count) {
	const { hmac } = await load('mac/sign.ts');
	const app = await load('triage/hmac/index.ts');
	const { nodeMacCheck } = await load('../node/triage/node-hmac.ts');
	const bases = baseStrings(count);
	const candidates = await timeCandidates(app, count);
	const node = nodeMacCheck(KEY);
	const mac = createHmac('sha1', KEY)
		.update(bases[0] ?? '', 'utf8')
		.digest('base64');
	// The core's hmac(): importKey and sign each time, awaited (the playground's single signature).
	const core = async () => {
		const some = bases.slice(0, 10_000);
		const start = performance.now();
		for (const base of some) await hmac(KEY, base);
		return ((performance.now() - start) * 1000) / some.length;
	};
	const nodeUs = (() => {
		for (const base of bases.slice(0, 2000)) node(base, mac);
		const start = performance.now();
		for (const base of bases) node(base, mac);
		return ((performance.now() - start) * 1000) / count;
	})();
	return {
		...candidates,
		agree: candidates.agree && node(bases[0] ?? '', mac),
		coreHmacUs: await core(),
		// node:crypto as the command line's --hmac node checks (its key made once).
		nodeCryptoUs: nodeUs
	};
}

const [mode, ...args] = process.argv.slice(2);
let result;
if (mode === 'run')
	result = await run(
		args[0] ?? '',
		args[1] ?? '',
		args[2] === 'subtle' || args[2] === 'noble' ? args[2] : 'own'
	);
else if (mode === 'diagnose')
	result = await diagnoseAlone(args[0] ?? '', args[1] ?? '', Number(args[2] ?? 1000));
else if (mode === 'hmac') result = await hmacs(Number(args[0] ?? 100000));
else {
	console.error('Usage: node triage-engine.js run|diagnose|hmac …');
	process.exit(2);
}
console.log(JSON.stringify(result));
