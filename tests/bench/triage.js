// The triage section of `npm run bench`: a generated NDJSON log of 100,000 signed requests over 20
// kids with about 1% planted faults, and in the same run
//   - the reference: a plain Node script doing the same work (triage-reference.js);
//   - the engine under Node on the same file, on one thread (triage-engine.js);
//   - the page's triage in Chromium, from the click to the last count, when `pageTriage` is given
//     (the /triage page measures itself there: time and the longest main-thread task), and its
//     control: the reference's own work in as many Chromium workers (triage-control-chromium.js),
//     what this browser gives a plain script here; the floors read against it;
//   - the page's mechanisms with and without (mechanisms.js), when `siteOrigin` is given;
//   - diagnosis alone, per mismatch, on 1,000 mismatches;
//   - the command line on a log of 1,000,000 requests, timed as whole processes, in turn with its
//     control, the reference's own work on as many threads (triage-control-threads.js), and the
//     reference; its floor; its mechanisms with and without; 1 and 2 threads for the scaling;
//   - the pool's peak memory (the process's VmHWM) on a 500 MB log, and the one-thread engine's
//     peak heap on it under a heap limit that a whole-file read would break;
//   - the table of mechanisms: each with its figure with and without it, and whether it is kept.
// Each measurement runs in a process (or a browser) of its own; times are wall clock.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { KEEP_GAIN, cliMechanisms, pageMechanisms } from './mechanisms.js';
import { chromiumControl } from './triage-control-chromium.js';
import { writeTriageLog } from './triage-log.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/**
 * Issue 41's floors, each read beside its control in the same run: the command line's throughput
 * at least 0.8 times its thread control's, the page's at least 0.5 times its Chromium control's,
 * no main-thread task over 200 ms during the page's run, and the pool's peak memory on a 500 MB log
 * under 1 GiB.
 */
export const FLOORS = {
	cliOverControl: 0.8,
	pageOverControl: 0.5,
	longestTaskMs: 200,
	poolMemory: 1024 * 1024 * 1024
};
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
 * The mechanisms' table: each mechanism kept for speed, each figure it serves with it and without it
 * (the same run, alternating rounds), the gain, and whether it pays its way (mechanisms.js): a
 * mechanism is kept when it gains at least KEEP_GAIN on one of its figures.
 * @param {import('./mechanisms.js').Comparison[]} comparisons
 * @param {(text: string) => void} log
 * @returns {Row[]}
 */
export function mechanismRows(comparisons, log) {
	const kept = new Set(comparisons.filter((c) => c.kept).map((c) => c.id));
	/** @param {import('./mechanisms.js').Comparison} c */
	const keptText = (c) => (c.kept ? 'yes' : kept.has(c.id) ? 'yes, by its other figure' : '**no**');
	log(
		`\nmechanisms kept for speed (each kept only while taking it out costs ≥ ${KEEP_GAIN * 100}% on a figure it serves):`
	);
	log('| mechanism | figure | with | without | gain | kept (≥ 20%) |');
	log('| --- | --- | --- | --- | --- | --- |');
	for (const c of comparisons)
		log(
			`| ${c.name} | ${c.figure}${c.note ? ` (${c.note})` : ''} | ${seconds(c.withMs)} | ${seconds(c.withoutMs)} | ${(c.gain * 100).toFixed(0)}% | ${keptText(c)} |`
		);
	return comparisons.map((c) => [
		`Mechanism: ${c.name} (${c.figure}${c.note ? `; ${c.note}` : ''}), with · without · gain${!c.kept && kept.has(c.id) ? ' (kept by its other figure)' : ''}`,
		`${seconds(c.withMs)} · ${seconds(c.withoutMs)} · ${(c.gain * 100).toFixed(0)}%`,
		`≥ ${KEEP_GAIN * 100}%`,
		kept.has(c.id)
	]);
}

/**
 * A floor, printed as figure / target / met beside its control.
 * @param {(text: string) => void} log
 * @param {string} name
 * @param {string} figure
 * @param {string} control
 * @param {string} target
 * @param {boolean} met
 * @returns {Row}
 */
function floorRow(log, name, figure, control, target, met) {
	log(`floor: ${name}: ${figure} / ${target} / ${met ? 'met' : 'NOT met'} (${control})`);
	return [`Floor: ${name} [${control}]`, figure, target, met];
}

/**
 * @param {{ log?: (text: string) => void, pageTriage?: PageTriage, siteOrigin?: string, chromiumPath?: string, rounds?: number, bigLogBytes?: number, cliRequests?: number }} [options]
 * @returns {Promise<Row[]>}
 */
export async function triageSection(options = {}) {
	const log = options.log ?? console.log;
	const rounds = options.rounds ?? 3;
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
		const reference = await best(2, () =>
			child([join(HERE, 'triage-reference.js'), logPath, keysPath])
		);
		/** @type {Timed} */
		const engine = await best(2, () =>
			child([join(HERE, 'triage-engine.js'), 'run', logPath, keysPath])
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
			`engine under Node, one thread (every mismatch diagnosed): ${seconds(engine.ms)} wall, ${seconds(engine.cpuMs)} CPU; counts ${counted ? 'as planted' : `NOT as planted: ${JSON.stringify(groups)}`}`
		);
		/** @type {Row[]} */
		const rows = [
			['Triage reference, 100k requests (Node, node:crypto)', seconds(reference.ms), '', null],
			['Triage engine under Node, one thread, 100k requests', seconds(engine.ms), '', null],
			['Triage counts as planted', counted ? 'yes' : 'no', 'yes', counted]
		];
		/** @type {import('./mechanisms.js').Comparison[]} */
		const comparisons = [];

		if (options.pageTriage) {
			// Each run in a fresh browser: the fastest against the fastest, and the longest main-thread
			// task of any run.
			const runs = [];
			for (let run = 0; run < rounds; run++)
				runs.push(await options.pageTriage(logPath, made.keys));
			const page = {
				ms: Math.min(...runs.map((run) => run.ms)),
				longestTaskMs: Math.max(...runs.map((run) => run.longestTaskMs)),
				workers: runs[0]?.workers ?? 0
			};
			log(
				`page in Chromium, click to last count, ${page.workers} pool workers: ${seconds(page.ms)} (fastest of ${rounds}: ${runs.map((run) => seconds(run.ms)).join(', ')}), ${Math.round((expected.requests * 1000) / page.ms)} requests/s; reference / page ${(reference.ms / page.ms).toFixed(2)}; longest main-thread task of any run ${page.longestTaskMs.toFixed(0)} ms`
			);
			// The control in the same section: what a plain script gets of this browser and these
			// cores (docs/triage-cli.md).
			const control = await chromiumControl({
				dir: root,
				executablePath: options.chromiumPath,
				logPath,
				keysText: made.keys,
				workers: page.workers,
				rounds
			});
			const asReference = sameCounts(control.counts, reference);
			const overControl = control.coldMs / page.ms;
			log(
				`    control: the reference's own work in ${page.workers} Chromium workers (each reading its range of the File), started 2 s before as the page's pool is, fastest of ${rounds}: ${seconds(control.coldMs)} on their first run, ${seconds(control.warmMs)} on their second${asReference ? '' : " (counts NOT as the reference's)"}`
			);
			rows.push(
				[
					`Triage page, 100k requests (Chromium, ${page.workers} pool workers)`,
					seconds(page.ms),
					'',
					null
				],
				[
					`Triage page's Chromium control (first run, second run)`,
					`${seconds(control.coldMs)}, ${seconds(control.warmMs)}${asReference ? '' : ' (counts differ)'}`,
					'',
					null
				],
				floorRow(
					log,
					"the page's throughput ÷ its Chromium control's (100k requests)",
					overControl.toFixed(2),
					`page ${seconds(page.ms)}, control ${seconds(control.coldMs)}`,
					`≥ ${FLOORS.pageOverControl}`,
					overControl >= FLOORS.pageOverControl && asReference
				),
				floorRow(
					log,
					"longest main-thread task during the page's triage (PerformanceObserver longtask)",
					page.longestTaskMs === 0 ? 'none over 50 ms' : `${page.longestTaskMs.toFixed(0)} ms`,
					`the longest of ${rounds} runs`,
					`≤ ${FLOORS.longestTaskMs} ms`,
					page.longestTaskMs <= FLOORS.longestTaskMs
				)
			);
			if (options.siteOrigin !== undefined)
				comparisons.push(
					...(await pageMechanisms({
						log,
						root,
						origin: options.siteOrigin,
						chromiumPath: options.chromiumPath,
						logPath,
						keysText: made.keys,
						requests: expected.requests,
						rounds
					}))
				);
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

		const cli = await cliSection({ log, root, rounds, requests: options.cliRequests });
		rows.push(...cli.rows);
		comparisons.unshift(...cli.comparisons);

		await rm(logPath);
		const bigPath = join(root, 'big.ndjson');
		const bigBytes = options.bigLogBytes ?? 500 * 1000 * 1000;
		const big = await writeTriageLog(bigPath, {
			requests: Math.ceil(bigBytes / (made.bytes / expected.requests)),
			seed: 3
		});
		await writeFile(keysPath, big.keys);
		// The command as npm runs it (node --single-threaded-gc run.js), its pool on every core; its
		// peak resident memory read from /proc (VmHWM, the threads included).
		const pooled = await processPeak([
			'--single-threaded-gc',
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
		rows.push(
			floorRow(
				log,
				`the pool's peak memory (VmHWM), ${MiB(big.bytes)} log`,
				MiB(pooled.peak),
				`${pooledSummary.workers} threads, whole process`,
				`< ${MiB(FLOORS.poolMemory)}`,
				pooled.peak < FLOORS.poolMemory && pooledSummary.requests === big.expected.requests
			)
		);
		const heap = await child([
			`--max-old-space-size=${HEAP_LIMIT_MB}`,
			'--expose-gc',
			join(HERE, 'triage-engine.js'),
			'run',
			bigPath,
			keysPath
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
		rows.push(...mechanismRows(comparisons, log));
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
 * The command line on a log of 1,000,000 requests, timed as whole processes in turn with its
 * control (the reference's own work on as many threads) and the reference: `npm run triage -- LOG
 * --keys KEYS --summary-only` (its bundle built beforehand by a first run, as after any first use),
 * `node triage-control-threads.js` and `node triage-reference.js`; then the command's mechanisms
 * with and without (mechanisms.js), and the command on 0 (this thread), 1 and 2 threads for the
 * scaling.
 * @param {{ log: (text: string) => void, root: string, rounds: number, requests?: number }} options
 * @returns {Promise<{ rows: Row[], comparisons: import('./mechanisms.js').Comparison[] }>}
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
	/** @type {number[]} */
	const references = [];
	/** @type {number[]} */
	const clis = [];
	/** @type {number[]} the control: the reference's own work on `all` threads */
	const controls = [];
	/** @type {unknown} */
	let controlCounts;
	const cores = [await twoCores()];
	// At least three rounds: the host's noise moves one process's time by a third. Each round runs
	// the control, the command and the reference in turn.
	for (let round = 0; round < Math.max(3, rounds); round++) {
		const started = performance.now();
		controlCounts = await child([
			join(HERE, 'triage-control-threads.js'),
			logPath,
			keysPath,
			String(all)
		]);
		controls.push(performance.now() - started);
		clis.push(await timeProcess('npm', triageArgs([])));
		references.push(
			await timeProcess(process.execPath, [join(HERE, 'triage-reference.js'), logPath, keysPath])
		);
	}
	cores.push(await twoCores());
	const reference = Math.min(...references);
	const cli = Math.min(...clis);
	const control = Math.min(...controls);
	const overControl = control / cli;
	// The control counts signatures: a refused request's is right (a match to it).
	const asPlanted = sameCounts(
		/** @type {import('./triage-reference-line.js').ReferenceCounts} */ (controlCounts),
		{ ...made.expected, match: made.expected.match + made.expected.refused }
	);
	const rate = (/** @type {number} */ ms) =>
		`${Math.round((made.expected.requests * 1000) / ms)} requests/s`;
	log(
		`command line, ${made.expected.requests} requests (${MiB(made.bytes)}), whole processes, fastest of ${clis.length} in turn: npm run triage on ${all} threads ${seconds(cli)} (${rate(cli)}); each round's ${clis.map(seconds).join(', ')}`
	);
	log(
		`    control: the reference's own work on ${all} threads (triage-control-threads.js, node:crypto), ${seconds(control)} (${rate(control)}); each round's ${controls.map(seconds).join(', ')}${asPlanted ? '' : ' (counts NOT as planted)'}`
	);
	log(
		`    reference, one thread: ${seconds(reference)} (${rate(reference)}); reference / command ${(reference / cli).toFixed(2)}`
	);
	log(
		`    two threads' work at once took ${cores.map((slowdown) => slowdown.toFixed(2)).join(' and ')} times one thread's alone, before and after (1.00: the machine gave two whole cores)`
	);
	const floor = floorRow(
		log,
		`the command line's throughput ÷ its thread control's (${made.expected.requests.toLocaleString('en')} requests)`,
		overControl.toFixed(2),
		`command ${seconds(cli)}, control ${seconds(control)} on ${all} threads`,
		`≥ ${FLOORS.cliOverControl}`,
		overControl >= FLOORS.cliOverControl && asPlanted
	);
	const comparisons = await cliMechanisms({
		log,
		root,
		logPath,
		keysPath,
		requests: made.expected.requests,
		rounds
	});
	// The pool's gain is two cores' work: read it beside whether the machine gave two.
	const slowest = Math.max(...cores);
	for (const comparison of comparisons)
		if (comparison.id === 'pool')
			comparison.note = `two threads at once took ${cores.map((slowdown) => slowdown.toFixed(2)).join(' and ')} times one alone${slowest > 1.3 ? ': the machine did not give two whole cores' : ''}`;
	/** @type {[number, number][]} threads (0: this thread) and wall time */
	const scaling = [];
	for (const threads of [1, 2])
		scaling.push([threads, await timeProcess('npm', triageArgs(['--threads', String(threads)]))]);
	scaling.push([all, cli]);
	log(
		`    scaling: ${scaling.map(([threads, ms]) => `${threads} threads ${seconds(ms)} (${rate(ms)})`).join(', ')}`
	);
	await rm(logPath);
	return {
		comparisons,
		rows: [
			[
				`Triage command line, ${made.expected.requests} requests, whole process (${all} threads)`,
				seconds(cli),
				'',
				null
			],
			[
				`Triage command line's thread control (${all} threads, whole process)`,
				`${seconds(control)}${asPlanted ? '' : ' (counts differ)'}`,
				'',
				null
			],
			['Triage reference ÷ command line (whole processes)', (reference / cli).toFixed(2), '', null],
			floor,
			[
				`Triage command line: 1; 2; ${all} threads`,
				scaling.map(([, ms]) => seconds(ms)).join('; '),
				'',
				null
			]
		]
	};
}
