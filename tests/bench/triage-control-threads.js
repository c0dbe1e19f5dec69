// A control for the command line's ratio: the reference's own work (triage-reference-line.js, with
// node:crypto, each range read line by line as the reference reads its file) split across N worker
// threads, each given a line-aligned range of the log. Timed as a whole process beside the
// reference, it shows what the machine's cores give a plain script that does nothing more than the
// reference does: the command line does that and more (it diagnoses, groups and tells nonces),
// though its own HMAC signs faster than node:crypto.
//
//   node tests/bench/triage-control-threads.js LOG.ndjson KEYS THREADS   prints the counts as JSON
import { createReadStream, openSync, closeSync, fstatSync, readFileSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { nodeMacMatches } from './triage-reference.js';
import { referenceCounts, referenceKeys, referenceLine } from './triage-reference-line.js';

/**
 * Byte offsets that cut the file into `parts` ranges, each cut just after a line feed.
 * @param {string} path
 * @param {number} parts
 * @returns {number[]} parts + 1 offsets, from 0 to the file's size
 */
export function lineCuts(path, parts) {
	const fd = openSync(path, 'r');
	try {
		const size = fstatSync(fd).size;
		const cuts = [0];
		const chunk = Buffer.alloc(64 * 1024);
		for (let part = 1; part < parts; part++) {
			let at = Math.max(Math.floor((size * part) / parts), cuts.at(-1) ?? 0);
			// Forward to the next line feed; a file with none left ends the last range at its end.
			for (;;) {
				const read = readSync(fd, chunk, 0, chunk.length, at);
				const feed = chunk.subarray(0, read).indexOf(10);
				if (feed >= 0) {
					at += feed + 1;
					break;
				}
				at += read;
				if (read === 0) break;
			}
			cuts.push(Math.min(at, size));
		}
		cuts.push(size);
		return cuts;
	} finally {
		closeSync(fd);
	}
}

/** A thread's range, read and counted as the reference reads and counts its file. */
async function countRange() {
	const { path, start, end, keysText } = workerData;
	const keys = referenceKeys(keysText);
	const counts = referenceCounts();
	if (end > start) {
		const input = createReadStream(path, { start, end: end - 1 });
		const lines = createInterface({ input, crlfDelay: Infinity });
		for await (const line of lines) referenceLine(line, keys, counts, nodeMacMatches);
	}
	parentPort?.postMessage(counts);
}

/**
 * @param {string} path
 * @param {string} keysText
 * @param {number} threads
 */
export async function controlOnThreads(path, keysText, threads) {
	const cuts = lineCuts(path, threads);
	const parts = await Promise.all(
		cuts.slice(0, -1).map(
			(start, index) =>
				/** @type {Promise<import('./triage-reference-line.js').ReferenceCounts>} */ (
					new Promise((resolve, reject) =>
						new Worker(new URL(import.meta.url), {
							workerData: { path, start, end: cuts[index + 1], keysText }
						})
							.once('message', resolve)
							.once('error', reject)
					)
				)
		)
	);
	const total = referenceCounts();
	for (const counts of parts)
		for (const name of /** @type {(keyof typeof total)[]} */ (Object.keys(total)))
			total[name] += counts[name];
	return total;
}

if (!isMainThread && workerData?.path !== undefined) await countRange();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [path, keys, threads = '2'] = process.argv.slice(2);
	if (path === undefined || keys === undefined || !/^[1-9]\d?$/.test(threads)) {
		console.error('Usage: node tests/bench/triage-control-threads.js LOG.ndjson KEYS THREADS');
		process.exit(2);
	}
	const counts = await controlOnThreads(path, readFileSync(keys, 'utf8'), Number(threads));
	console.log(JSON.stringify({ threads: Number(threads), ...counts }));
}
