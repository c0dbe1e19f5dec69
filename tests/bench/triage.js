// The triage section of `npm run bench`: a generated NDJSON log of 100,000 signed requests over 20
// kids with about 1% planted faults, and in the same run
//   - the reference: a plain Node script doing the same work (triage-reference.js);
//   - the engine under Node on the same file, on one thread (triage-engine.js);
//   - the page's triage in Chromium, from the click to the last count, when `pageTriage` is given
//     (the /triage page measures itself there: time and the longest main-thread task), with the
//     number of workers its pool used; and its control: the reference's own work in as many
//     Chromium workers (triage-control-chromium.js), what this browser gives a plain script here;
//   - diagnosis alone, per mismatch, on 1,000 mismatches;
//   - one HMAC-SHA-1 each way (hmac-candidates.js): the engine's own, noble, hash-wasm's
//     WebAssembly, SubtleCrypto one at a time and 256 in flight; node:crypto in Node; in Node and,
//     given a Chromium, in Chromium;
//   - the command line on a log of 1,000,000 requests, timed as whole processes (`npm run triage`
//     against `node triage-reference.js`, start-up included), on all its worker threads, and on
//     0 (this thread), 1 and 2 for the scaling; and its control: the reference's own work on as
//     many threads (triage-control-threads.js), what these cores give a plain script;
//   - the pool's peak memory (the process's VmHWM) on a 500 MB log, and the one-thread engine's
//     peak heap on it under a heap limit that a whole-file read would break.
// Each measurement runs in a process of its own (fresh heap and JIT); times are wall clock and CPU.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { chromiumHmacs } from './hmac-chromium.js';
import { chromiumControl } from './triage-control-chromium.js';
import { chromiumWorkerTriage } from './triage-chromium.js';
import { writeTriageLog } from './triage-log.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The ratios issue 27 sets: the reference's time over the page's, and over the command line's. */
export const TRIAGE_RATIO_TARGET = 1.0;
export const CLI_RATIO_TARGET = 1.5;
/** The pool's peak memory on a 500 MB log, at most. */
const POOL_MEMORY_LIMIT = 1024 * 1024 * 1024;
const PROJECT = fileURLToPath(new URL('../..', import.meta.url));
/** A heap limit far below the 200 MB log: only a streaming reader gets through it. */
const HEAP_LIMIT_MB = 128;

/**
 * @typedef {{ ms: number, cpuMs: number, [key: string]: unknown }} Timed
 * @typedef {(logPath: string, keysText: string) => Promise<{ ms: number, longestTaskMs: number, workers: number }>} PageTriage
 * @typedef {[string, string, string, boolean | null]} Row
 */

/**
 * Runs a Node script and parses the JSON line it prints.
 * @param {string[]} args
 * @returns {Promise<any>}
 */
function child(args) {
	return new Promise((resolve, reject) => {
		const process_ = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		process_.stdout.on('data', (chunk) => (out += chunk));
		process_.on('error', reject);
		process_.on('close', (code) => {
			if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
			else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? 'null'));
		});
	});
}

/**
 * Whether a control counted what the reference counts (or what was planted).
 * @param {import('./triage-reference-line.js').ReferenceCounts} counts
 * @param {Record<string, unknown>} expected
 */
const sameCounts = (counts, expected) =>
	counts.match === expected.match &&
	counts.mismatch === expected.mismatch &&
	counts.noKey === expected.noKey &&
	counts.unreadable === expected.unreadable;

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
/**
 * The Long Tasks API reports only tasks over 50 ms: none reported means none that long.
 * @param {number} ms
 */
const longest = (ms) =>
	ms === 0 ? 'no main-thread task over 50 ms' : `longest main-thread task ${ms.toFixed(0)} ms`;
/** @param {number} bytes */
const MiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The fastest of `rounds` runs: on a shared machine the minimum is the run least disturbed.
 * @param {number} rounds
 * @param {() => Promise<Timed>} measure
 */
async function best(rounds, measure) {
	/** @type {Timed[]} */
	const runs = [];
	for (let i = 0; i < rounds; i++) runs.push(await measure());
	return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
}

/**
 * @param {{ log?: (text: string) => void, pageTriage?: PageTriage, chromiumPath?: string, rounds?: number, bigLogBytes?: number, cliRequests?: number }} [options]
 * @returns {Promise<Row[]>}
 */
export async function triageSection(options = {}) {
	const log = options.log ?? console.log;
	const rounds = options.rounds ?? 2;
	const root = await mkdtemp(join(tmpdir(), 'mac-bench-triage-'));
	try {
		log('\n## Triage (npm run triage, the /triage worker)');
		const logPath = join(root, 'log.ndjson');
		const keysPath = join(root, 'keys.txt');
		const made = await writeTriageLog(logPath, { requests: 100_000, kids: 20, seed: 1 });
		await writeFile(keysPath, made.keys);
		const { expected } = made;
		log(
			`log: ${expected.requests} requests over 20 kids, ${MiB(made.bytes)}; planted: ${expected.mismatch} mismatches, ${expected.noKey} without a key, ${expected.unreadable} unreadable, ${expected.outsideWindow} ts outside the window, ${expected.noncesReused} nonces reused`
		);

		/** @type {Timed} */
		const reference = await best(rounds, () =>
			child([join(HERE, 'triage-reference.js'), logPath, keysPath])
		);
		/** @type {Timed} */
		const engine = await best(rounds, () =>
			child([join(HERE, 'triage-engine.js'), 'run', logPath, keysPath, 'own'])
		);
		const groups = /** @type {Record<string, number>} */ (engine.groups);
		const counted = sameCounts(
			{
				match: groups.match ?? -1,
				mismatch: groups.mismatch ?? -1,
				noKey: groups['no-key'] ?? -1,
				unreadable: groups.unreadable ?? -1
			},
			expected
		);
		log(
			`reference (readline, JSON.parse, node:crypto; no diagnosis): ${seconds(reference.ms)} wall, ${seconds(reference.cpuMs)} CPU`
		);
		log(
			`engine under Node (own HMAC-SHA-1, every mismatch diagnosed): ${seconds(engine.ms)} wall, ${seconds(engine.cpuMs)} CPU; counts ${counted ? 'as planted' : `NOT as planted: ${JSON.stringify(groups)}`}`
		);
		const nodeRatio = reference.ms / engine.ms;
		const cpuRatio = reference.cpuMs / engine.cpuMs;
		log(
			`ratio reference / engine: ${nodeRatio.toFixed(2)} wall, ${cpuRatio.toFixed(2)} CPU (target for the page >= ${TRIAGE_RATIO_TARGET})`
		);
		/** @type {Row[]} */
		const rows = [
			['Triage reference, 100k requests (Node, node:crypto)', seconds(reference.ms), '', null],
			['Triage engine under Node, 100k requests', seconds(engine.ms), '', null],
			[
				'Triage ratio reference ÷ engine (Node; wall, CPU)',
				`${nodeRatio.toFixed(2)}, ${cpuRatio.toFixed(2)}`,
				'',
				null
			],
			['Triage counts as planted', counted ? 'yes' : 'no', 'yes', counted]
		];

		if (options.pageTriage) {
			// As many runs as the reference's, each in a fresh browser: the fastest against the fastest,
			// and the longest main-thread task of any run.
			const runs = [];
			for (let run = 0; run < rounds; run++)
				runs.push(await options.pageTriage(logPath, made.keys));
			const page = {
				ms: Math.min(...runs.map((run) => run.ms)),
				longestTaskMs: Math.max(...runs.map((run) => run.longestTaskMs)),
				workers: runs[0]?.workers ?? 0
			};
			const ratio = reference.ms / page.ms;
			log(
				`page in Chromium, click to last count, ${page.workers} pool workers: ${seconds(page.ms)} (fastest of ${rounds}: ${runs.map((run) => seconds(run.ms)).join(', ')}), ${Math.round((expected.requests * 1000) / page.ms)} requests/s; ratio reference / page ${ratio.toFixed(2)}; longest main-thread task of any run ${page.longestTaskMs.toFixed(0)} ms`
			);
			// The control in the same section: what a plain script gets of this browser and these
			// cores, read beside the page's ratio (docs/triage-cli.md).
			const control = await chromiumControl({
				dir: root,
				executablePath: options.chromiumPath,
				logPath,
				keysText: made.keys,
				workers: page.workers,
				rounds
			});
			const asReference = sameCounts(control.counts, reference);
			const cold = reference.ms / control.coldMs;
			const warm = reference.ms / control.warmMs;
			log(
				`    control: the reference's own work in ${page.workers} Chromium workers (each reading its range of the File; the engine's HMAC), fastest of ${rounds}: ${seconds(control.coldMs)} as they start, ${seconds(control.warmMs)} once warm; ratio reference / control ${cold.toFixed(2)} cold, ${warm.toFixed(2)} warm${asReference ? '' : " (counts NOT as the reference's)"}: what a plain script gets of this browser on these cores (the page also diagnoses, groups and draws)`
			);
			rows.push(
				[`Triage page's pool workers (Chromium)`, String(page.workers), '', null],
				[
					`Triage control: reference ÷ its own work in ${page.workers} Chromium workers (cold, warm)`,
					`${cold.toFixed(2)}, ${warm.toFixed(2)}${asReference ? '' : ' (counts differ)'}`,
					'',
					null
				],
				[
					'Triage ratio reference ÷ page (Chromium)',
					ratio.toFixed(2),
					`≥ ${TRIAGE_RATIO_TARGET}`,
					ratio >= TRIAGE_RATIO_TARGET
				],
				[
					'Triage longest main-thread task',
					`${page.longestTaskMs.toFixed(0)} ms`,
					'≤ 50 ms',
					page.longestTaskMs <= 50
				]
			);
		} else {
			log(
				'page in Chromium: not measured here (pass pageTriage once the /triage page exists); meanwhile the same worker, started as the page will start it:'
			);
			const worker = await chromiumWorkerTriage({
				project: fileURLToPath(new URL('../..', import.meta.url)),
				dir: root,
				logPath,
				keysText: made.keys,
				engines: ['own', 'noble', 'subtle'],
				// The engine the page uses as often as the reference; the others, for comparison, once.
				rounds: { own: rounds + 1 }
			});
			for (const [engine, figure] of Object.entries(worker)) {
				const same =
					figure.groups.mismatch === expected.mismatch && figure.verdicts === expected.requests;
				log(
					`    Chromium worker, ${engine}: ${seconds(figure.ms)} from start to summary, ratio reference / worker ${(reference.ms / figure.ms).toFixed(2)}; ${longest(figure.longestTaskMs)}${same ? '' : ' (counts NOT as planted)'}`
				);
			}
			const own = worker.own;
			if (own) {
				const ratio = reference.ms / own.ms;
				const other = (/** @type {string} */ engine) =>
					worker[engine] ? seconds(worker[engine].ms) : 'n/a';
				rows.push(
					[
						'Triage in a Chromium worker, 100k requests (own; noble; SubtleCrypto)',
						`${seconds(own.ms)}; ${other('noble')}; ${other('subtle')}`,
						'',
						null
					],
					[
						'Triage ratio reference ÷ Chromium worker (no page yet)',
						ratio.toFixed(2),
						`≥ ${TRIAGE_RATIO_TARGET}`,
						ratio >= TRIAGE_RATIO_TARGET
					],
					[
						'Triage longest main-thread task (worker driven, no page yet)',
						own.longestTaskMs === 0 ? 'none over 50 ms' : `${own.longestTaskMs.toFixed(0)} ms`,
						'≤ 50 ms',
						own.longestTaskMs <= 50
					]
				);
			}
		}

		const mismatchLog = join(root, 'mismatches.ndjson');
		// Every line faulty: 8 of the 13 kinds of fault are mismatches, so 1,625 lines give 1,000.
		const mismatches = await writeTriageLog(mismatchLog, { requests: 1625, faultRate: 1, seed: 2 });
		await writeFile(join(root, 'mismatch-keys.txt'), mismatches.keys);
		const diagnosis = await child([
			join(HERE, 'triage-engine.js'),
			'diagnose',
			mismatchLog,
			join(root, 'mismatch-keys.txt'),
			'1000'
		]);
		log(
			`diagnosis alone, ${diagnosis.count} mismatches: ${seconds(diagnosis.totalMs)} in all, ${(diagnosis.totalMs / diagnosis.count).toFixed(2)} ms each on average, median ${diagnosis.medianMs.toFixed(2)} ms, slowest ${diagnosis.maxMs.toFixed(0)} ms`
		);
		for (const [id, figure] of Object.entries(
			/** @type {Record<string, { count: number, medianMs: number }>} */ (diagnosis.byMistake)
		))
			log(
				`    ${id.padEnd(24)} ${String(figure.count).padStart(4)} × median ${figure.medianMs.toFixed(2)} ms`
			);
		rows.push([
			'Triage diagnosis per mismatch (1,000; mean, median)',
			`${(diagnosis.totalMs / diagnosis.count).toFixed(2)} ms, ${diagnosis.medianMs.toFixed(2)} ms`,
			'',
			null
		]);

		const hmac = await child([join(HERE, 'triage-engine.js'), 'hmac', '100000']);
		const us = (/** @type {number} */ value) => `${value.toFixed(1)} µs`;
		/** @param {Record<string, number | boolean>} figures */
		const hmacLine = (figures) =>
			`own ${us(Number(figures.ownUs))}, noble ${us(Number(figures.nobleUs))}, hash-wasm ${us(Number(figures.wasmUs))}, SubtleCrypto ${us(Number(figures.subtleUs))} one at a time and ${us(Number(figures.subtleInFlightUs))} with ${figures.inFlight} in flight${figures.agree ? '' : ' (the candidates DISAGREE)'}`;
		log(
			`one HMAC-SHA-1 (100,000, Node): ${hmacLine(hmac)}; node:crypto ${us(hmac.nodeCryptoUs)}; the core's hmac() (importKey and sign each time) ${us(hmac.coreHmacUs)}`
		);
		rows.push([
			'HMAC-SHA-1 in Node: own, noble, hash-wasm, SubtleCrypto (256 in flight), node:crypto',
			[hmac.ownUs, hmac.nobleUs, hmac.wasmUs, hmac.subtleInFlightUs, hmac.nodeCryptoUs]
				.map(us)
				.join(', '),
			'',
			null
		]);
		if (options.chromiumPath !== undefined) {
			const browserHmac = await chromiumHmacs({ dir: root, executablePath: options.chromiumPath });
			log(`one HMAC-SHA-1 (100,000, Chromium): ${hmacLine(browserHmac)}`);
			rows.push([
				'HMAC-SHA-1 in Chromium: own, noble, hash-wasm, SubtleCrypto (256 in flight)',
				[browserHmac.ownUs, browserHmac.nobleUs, browserHmac.wasmUs, browserHmac.subtleInFlightUs]
					.map((value) => us(Number(value)))
					.join(', '),
				'',
				null
			]);
		}

		rows.push(...(await cliSection({ log, root, rounds, requests: options.cliRequests })));

		await rm(logPath);
		const bigPath = join(root, 'big.ndjson');
		const bigBytes = options.bigLogBytes ?? 500 * 1000 * 1000;
		const big = await writeTriageLog(bigPath, {
			requests: Math.ceil(bigBytes / (made.bytes / expected.requests)),
			seed: 3
		});
		await writeFile(keysPath, big.keys);
		const pooled = await processPeak([
			join(PROJECT, 'src', 'node', 'triage', 'run.js'),
			bigPath,
			'--keys',
			keysPath,
			'--summary-only',
			'--json'
		]);
		const pooledSummary = JSON.parse(pooled.stdout);
		log(
			`${MiB(big.bytes)} log (${big.expected.requests} requests), npm run triage on ${pooledSummary.workers} worker threads: ${seconds(pooled.ms)}, peak memory of the process (VmHWM) ${MiB(pooled.peak)}${pooledSummary.requests === big.expected.requests ? '' : ' (counts NOT as planted)'}`
		);
		rows.push([
			`Triage pool's peak memory, ${MiB(big.bytes)} log (${pooledSummary.workers} threads)`,
			MiB(pooled.peak),
			`< ${MiB(POOL_MEMORY_LIMIT)}`,
			pooled.peak < POOL_MEMORY_LIMIT && pooledSummary.requests === big.expected.requests
		]);
		const heap = await child([
			`--max-old-space-size=${HEAP_LIMIT_MB}`,
			'--expose-gc',
			join(HERE, 'triage-engine.js'),
			'run',
			bigPath,
			keysPath,
			'own'
		]);
		log(
			`the same log on one thread under --max-old-space-size=${HEAP_LIMIT_MB}: ${seconds(heap.ms)}, peak heap ${MiB(heap.peakHeap)} (${MiB(heap.heapBefore)} before), peak RSS ${MiB(heap.peakRss)}`
		);
		rows.push([
			`Triage peak heap, ${MiB(big.bytes)} log (Node, one thread, heap limit ${HEAP_LIMIT_MB} MB)`,
			MiB(heap.peakHeap),
			`< ${HEAP_LIMIT_MB} MiB`,
			heap.requests === big.expected.requests
		]);
		return rows;
	} finally {
		await rm(root, { recursive: true, force: true });
	}
}

/**
 * Runs a Node process to its end: its wall time, its standard output, and its peak memory (VmHWM of
 * /proc, read every 20 ms and once more as it ends; worker threads are in the same process).
 * @param {string[]} args
 * @returns {Promise<{ ms: number, stdout: string, peak: number, code: number | null }>}
 */
function processPeak(args) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const process_ = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
		let stdout = '';
		let peak = 0;
		const sample = async () => {
			try {
				const status = await readFile(`/proc/${process_.pid}/status`, 'utf8');
				const match = /VmHWM:\s+(\d+) kB/.exec(status);
				if (match) peak = Math.max(peak, Number(match[1]) * 1024);
			} catch {
				// Gone already.
			}
		};
		const timer = setInterval(() => void sample(), 20);
		process_.stdout.on('data', (chunk) => (stdout += chunk));
		process_.on('error', reject);
		process_.on('exit', () => void sample());
		process_.on('close', (code) => {
			clearInterval(timer);
			resolve({ ms: performance.now() - started, stdout, peak, code });
		});
	});
}

/**
 * A command's whole process, timed from outside: wall time from spawn to exit.
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<number>}
 */
function timeProcess(command, args) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const process_ = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'], cwd: PROJECT });
		process_.on('error', reject);
		process_.on('close', () => resolve(performance.now() - started));
	});
}

/** A fixed integer loop in a worker thread (a fresh isolate, as the pool's): its duration in ms. */
function spin() {
	const code = `const { parentPort } = require('node:worker_threads'); const t = performance.now(); let x = 0; for (let i = 0; i < 2e8; i++) x = (x + i * 7) | 0; parentPort.postMessage([performance.now() - t, x]);`;
	return new Promise((resolve, reject) =>
		new Worker(code, { eval: true }).on('message', ([ms]) => resolve(ms)).on('error', reject)
	);
}

/**
 * How much slower two threads run side by side than one alone: 1 when the machine has two whole
 * cores free. A VM's two cores can be one core's two hyperthreads, or shared with its neighbours;
 * the command line's ratio, which counts on every core, is read against this figure.
 */
async function twoCores() {
	// The faster of two tries each: one try can land on a moment the host took a core away.
	let alone = Number.POSITIVE_INFINITY;
	let both = Number.POSITIVE_INFINITY;
	for (let tries = 0; tries < 2; tries++) {
		alone = Math.min(alone, await spin());
		both = Math.min(both, Math.max(...(await Promise.all([spin(), spin()]))));
	}
	return both / alone;
}

/**
 * The command line on a log of 1,000,000 requests against the reference, both timed as whole
 * processes: `npm run triage -- LOG --keys KEYS --summary-only` (its bundle built beforehand by a
 * first run, as after any first use) and `node triage-reference.js LOG KEYS`; then the command on
 * 0, 1 and 2 threads for the scaling.
 * @param {{ log: (text: string) => void, root: string, rounds: number, requests?: number }} options
 * @returns {Promise<Row[]>}
 */
export async function cliSection({ log, root, rounds, requests = 1_000_000 }) {
	const logPath = join(root, 'cli.ndjson');
	const keysPath = join(root, 'cli-keys.txt');
	const made = await writeTriageLog(logPath, { requests, kids: 20, seed: 4 });
	await writeFile(keysPath, made.keys);
	const all = Math.min(8, Math.max(2, availableParallelism()));
	const triageArgs = (/** @type {string[]} */ extra) => [
		'run',
		'--silent',
		'triage',
		'--',
		logPath,
		'--keys',
		keysPath,
		'--summary-only',
		...extra
	];
	// The first run builds the bundle (node_modules/.cache/mac-triage) when the sources changed.
	await timeProcess('npm', triageArgs(['--threads', '0']));
	// The two in turn, reference then command, so that a change in the machine's speed during the
	// section weighs on both alike; the fastest of each, and each pair's ratio besides.
	/** @type {number[]} */
	const references = [];
	/** @type {number[]} */
	const clis = [];
	/** @type {number[]} the control: the reference's own work on `all` threads */
	const controls = [];
	/** @type {unknown} */
	let controlCounts;
	const cores = [await twoCores()];
	// At least three rounds: the host's noise moves one process's time by a third
	// (docs/triage-cli.md). Each round runs the reference, its control and the command in turn.
	for (let round = 0; round < Math.max(3, rounds); round++) {
		references.push(
			await timeProcess(process.execPath, [join(HERE, 'triage-reference.js'), logPath, keysPath])
		);
		const started = performance.now();
		controlCounts = await child([
			join(HERE, 'triage-control-threads.js'),
			logPath,
			keysPath,
			String(all)
		]);
		controls.push(performance.now() - started);
		clis.push(await timeProcess('npm', triageArgs([])));
	}
	cores.push(await twoCores());
	const reference = Math.min(...references);
	const cli = Math.min(...clis);
	const ratio = reference / cli;
	const pairs = references.map((ms, round) => (ms / (clis[round] ?? ms)).toFixed(2));
	const control = Math.min(...controls);
	const controlRatio = reference / control;
	const controlPairs = references.map((ms, round) => (ms / (controls[round] ?? ms)).toFixed(2));
	const asPlanted = sameCounts(
		/** @type {import('./triage-reference-line.js').ReferenceCounts} */ (controlCounts),
		made.expected
	);
	const rate = (/** @type {number} */ ms) =>
		`${Math.round((made.expected.requests * 1000) / ms)} requests/s`;
	log(
		`command line, ${made.expected.requests} requests (${MiB(made.bytes)}), whole processes, fastest of ${references.length} in turn: reference ${seconds(reference)} (${rate(reference)}), npm run triage on ${all} threads ${seconds(cli)} (${rate(cli)}); ratio reference / command ${ratio.toFixed(2)} (target >= ${CLI_RATIO_TARGET}); each pair's ratio ${pairs.join(', ')}`
	);
	log(
		`    control: the reference's own work on ${all} threads (triage-control-threads.js), fastest of ${controls.length}: ${seconds(control)}; ratio reference / control ${controlRatio.toFixed(2)}, each round's ${controlPairs.join(', ')}${asPlanted ? '' : ' (counts NOT as planted)'}: what a plain script gets of these cores (the command also diagnoses, groups and tells nonces, and signs faster than node:crypto)`
	);
	log(
		`    two threads' work at once took ${cores.map((slowdown) => slowdown.toFixed(2)).join(' and ')} times one thread's alone, before and after (1.00: the machine gave two whole cores; on a shared host it can be 1.75)`
	);
	/** @type {[number, number][]} threads (0: this thread) and wall time */
	const scaling = [];
	for (const threads of [0, 1, 2])
		scaling.push([threads, await timeProcess('npm', triageArgs(['--threads', String(threads)]))]);
	scaling.push([all, cli]);
	log(
		`    scaling: ${scaling.map(([threads, ms]) => `${threads === 0 ? 'this thread' : `${threads} threads`} ${seconds(ms)} (${rate(ms)})`).join(', ')}`
	);
	await rm(logPath);
	return [
		[
			`Triage command line, ${made.expected.requests} requests, whole process (${all} threads)`,
			seconds(cli),
			'',
			null
		],
		[
			'Triage ratio reference ÷ command line (whole processes)',
			ratio.toFixed(2),
			`≥ ${CLI_RATIO_TARGET}`,
			ratio >= CLI_RATIO_TARGET
		],
		[
			`Triage control: reference ÷ its own work on ${all} threads (whole processes)`,
			`${controlRatio.toFixed(2)}${asPlanted ? '' : ' (counts differ)'}`,
			'',
			null
		],
		[
			`Triage command line: this thread; 1; 2; ${all} threads`,
			scaling.map(([, ms]) => seconds(ms)).join('; '),
			'',
			null
		]
	];
}
