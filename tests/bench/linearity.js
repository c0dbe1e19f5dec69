// The linearity section of `npm run bench` (issue 23): every reader of outside input, timed on its
// worst shape at n characters and at 16n, in the same process. A reader that runs in linear time
// takes about 16 times as long on 16n; a regular expression that backtracks over a run of the same
// character takes 256 times as long. The section fails over 32.
//
//   npm run bench -- --linearity      this section alone (no build, no browser)
//   node tests/bench/linearity.js     the same
//
// The readers run one after the other, each in a worker thread of this process of its own (a fresh
// heap). A 16n run that takes longer than STOP_AFTER is stopped with its worker: a quadratic
// reader on a large input would otherwise keep the bench for hours, and its ratio is already known
// to be far over 32. Times are CPU time (process.cpuUsage, user + system) of the best of RUNS runs,
// each after a garbage collection: a loaded machine delays a run but does not make it cost more CPU.
//
// A ratio compares like with like only if n and 16n are on the same side of where V8 changes how
// it allocates: a string or array over 128 KiB goes to the large-object space, whose fresh pages
// cost a fault each (in a VM, tens of µs); and a string built a character at a time fills the young
// generation with pieces, whose promotion costs more the more there are. So each n is chosen past
// the first threshold where the reader allows it, and the worker's young generation is large
// (YOUNG_GENERATION_MB) for the second: either would otherwise put a step of 10 to 100 times into
// a linear reader's ratio, and hide nothing that a quadratic reader's 256 could be mistaken for.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { loadLib } from './load-lib.js';

/** The ratio t(16n) / t(n) over which a reader is not linear (linear: 16; quadratic: 256). */
export const LINEARITY_LIMIT = 32;
const RUNS = 5;
/** A 16n run is stopped past this many times t(n), or past STOP_FLOOR_MS if that is more. */
const STOP_AFTER = 64;
const STOP_FLOOR_MS = 10_000;
/** The run at n, warm-up included, is stopped past this: a reader that slow on n is not linear. */
const SMALL_STOP_MS = 30_000;
const YOUNG_GENERATION_MB = 512;

const HEADER = 'MAC id="kid-1",ts="1700000000",nonce="bm9uY2Ux",mac="bWFj"';
const BASE_STRING = '1700000000\nbm9uY2Ux\nGET\n/account/profile/v1\nopen.tapapis.cn\n443\n\n';

/**
 * @typedef {{ [name: string]: any }} Lib the modules of src/lib the readers need
 * @typedef {{
 *   reader: string,
 *   shape: string,
 *   n: number,
 *   input: (n: number, lib: Lib) => unknown,
 *   read: (lib: Lib, input: any) => unknown
 * }} Reader
 */

/** @param {() => unknown} read */
function ignoringErrors(read) {
	try {
		read();
	} catch {
		// A reader refusing the input says so by throwing: the time until it says so is what counts.
	}
}

/**
 * Each reader with the worst shape found for it: the issue's shapes, and what the linter and a
 * search by measurement found. `n` is how many characters the run of the shape has: 262,144 (past
 * 128 KiB) where the reader takes that much, smaller where the 16n run would otherwise take more than
 * a few hundred ms, and under the limit of a reader that refuses more (parseSignedRequest reads a
 * paste of up to 200,000 characters, a share link carries a text of up to 100,000). `input` builds
 * the text outside the timing; `read` is what is timed.
 * @type {Reader[]}
 */
export const READERS = [
	{
		reader: 'Authorization header (mac/header-parse.ts)',
		shape: '`MAC id=`, n spaces, `"`',
		n: 262_144,
		input: (n) => `MAC id=${' '.repeat(n)}"`,
		read: (lib, input) => ignoringErrors(() => lib.mac.parseAuthorization(input))
	},
	{
		reader: 'raw request (read/parse-raw-request.ts)',
		shape: 'a header line: n spaces, U+2028',
		n: 262_144,
		input: (n) => `GET / HTTP/1.1\nHost: a.example\nX-Note:${' '.repeat(n)}\u2028x`,
		read: (lib, input) => lib.read.parseRawRequest(input)
	},
	{
		reader: 'raw request (read/parse-raw-request.ts)',
		shape: 'n blank lines, then the request',
		n: 32_768,
		input: (n) => `${'\n'.repeat(n)}GET / HTTP/1.1\nHost: a.example`,
		read: (lib, input) => lib.read.parseRawRequest(input)
	},
	{
		reader: 'paste, kind detection (read/parse-signed-request.ts)',
		shape: 'a header line: n spaces, U+2028',
		n: 262_144,
		input: (n) => `X-Note:${' '.repeat(n)}\u2028x\nAuthorization: ${HEADER}`,
		read: (lib, input) => lib.read.detectKind(input)
	},
	{
		reader: 'paste, a log line (read/parse-signed-request.ts)',
		shape: 'a time, `MAC id=`, n spaces, `"`',
		n: 12_000,
		input: (n) => `2021-04-12 10:02:30 Authorization: MAC id=${' '.repeat(n)}"`,
		read: (lib, input) => ignoringErrors(() => lib.read.parseSignedRequest(input))
	},
	{
		reader: 'curl (read/shell-words.ts, read/parse-curl.ts)',
		shape: 'n backslashes in double quotes',
		n: 131_072,
		input: (n) => `curl https://a.example/ -H "X-Note: ${'\\'.repeat(n)}x"`,
		read: (lib, input) => lib.read.parseCurlCommand(input)
	},
	{
		reader: 'curl for cmd (read/shell-words.ts)',
		shape: 'n backslashes in ^"…^"',
		n: 131_072,
		input: (n) => `curl ^"https://a.example/^" -H ^"X-Note: ${'\\'.repeat(n)}x^"`,
		read: (lib, input) => lib.read.parseCurlCommand(input)
	},
	{
		reader: 'PowerShell (read/powershell/)',
		shape: 'a backtick, n spaces, not a line end',
		n: 100_000,
		input: (n) => `Invoke-WebRequest -Uri \`${' '.repeat(n)}x`,
		read: (lib, input) => ignoringErrors(() => lib.read.parsePowerShell(input))
	},
	{
		reader: 'fetch (read/parse-fetch.ts)',
		shape: 'n characters of \\" in a header value',
		n: 262_144,
		input: (n) => `fetch("https://a.example/", {"headers": {"x-note": "${'\\"'.repeat(n / 2)}"}})`,
		read: (lib, input) => lib.read.parseFetch(input)
	},
	{
		reader: 'log line (read/read-lines.ts)',
		shape: 'a URL ending in n dots, then a letter',
		n: 262_144,
		input: (n) => `${HEADER} GET https://a.example/p${'.'.repeat(n)}x`,
		read: (lib, input) => lib.lines.readLogLine(1, input)
	},
	{
		reader: 'log line (read/read-lines.ts)',
		shape: '`MAC a=b`, then n characters of ` , c=`',
		n: 131_072,
		input: (n) => `MAC a=b${' , c='.repeat(n / 5)} https://a.example/`,
		read: (lib, input) => lib.lines.readLogLine(1, input)
	},
	{
		reader: 'NDJSON line (read/read-lines.ts)',
		shape: 'a time of `1`, n spaces, a letter',
		n: 262_144,
		input: (n) =>
			JSON.stringify({
				url: 'https://a.example/',
				authorization: HEADER,
				time: `1${' '.repeat(n)}x`
			}),
		read: (lib, input) => lib.lines.readNdjsonLine(1, input)
	},
	{
		reader: 'SDK paste, logcat lines (mac/credential.ts)',
		shape: 'two logcat lines, n spaces after the tag',
		n: 262_144,
		input: (n) => {
			const line = `11-21 10:00:01.123  1234  1234 D TapLogin${' '.repeat(n / 2)}x`;
			return `${line}\n${line}`;
		},
		read: (lib, input) => lib.mac.pastedJson(input)
	},
	{
		reader: 'base-string diff (diagnosis/base-string-diff.ts)',
		shape: 'a line of n spaces, then a letter',
		n: 65_536,
		input: (n) => `1700000000\n${' '.repeat(n)}x\n`,
		read: (lib, input) => lib.diff.diffLoggedBaseString(BASE_STRING, input)
	},
	{
		reader: 'base-string diff (diagnosis/base-string-diff.ts)',
		shape: '`\\n` as text, n characters of CRLF',
		n: 16_384,
		input: (n) => `1700000000\\n${'\r\n'.repeat(n / 2)}x`,
		read: (lib, input) => lib.diff.diffLoggedBaseString(BASE_STRING, input)
	},
	{
		reader: 'invisible-character marks (ui/visible.ts)',
		shape: 'n spaces inside a line',
		n: 100_000,
		input: (n) => `a${' '.repeat(n)}b`,
		read: (lib, input) => lib.visible.visibleSegments(input)
	},
	{
		reader: 'share link (verify/case/share-state.ts, then the paste reader)',
		shape: 'a link to `MAC id=`, n spaces, `"`',
		n: 6_000,
		// Made as encodeShareState makes a link, but without reading the request first (that is the
		// header parser on the hostile text, outside the timing).
		input: (n, lib) => {
			const state = { signedRequest: `MAC id=${' '.repeat(n)}"`, url: '', baseString: '' };
			const json = JSON.stringify({ ...state, options: {} });
			return `v1.${lib.mac.toBase64Url(lib.mac.utf8Bytes(json))}`;
		},
		read: (lib, input) => {
			const state = lib.share.decodeShareState(input);
			if (state === null) throw new Error('decodeShareState does not read the link made here');
			ignoringErrors(() => lib.read.parseSignedRequest(state.signedRequest));
		}
	},
	{
		reader: 'Base64 (mac/base64-forms.ts)',
		shape: 'n `=`, then a letter',
		n: 262_144,
		input: (n) => `${'='.repeat(n)}A`,
		read: (lib, input) => lib.mac.isBase64(input)
	},
	{
		reader: 'cmd quoting (mac/windows.ts)',
		shape: 'n backslashes, then a letter',
		n: 32_768,
		input: (n) => `${'\\'.repeat(n)}x`,
		read: (lib, input) => lib.mac.cmdQuote(input)
	},
	{
		// What the playground writes for cmd (issue 42: a value with a long run of backslashes).
		reader: 'cmd curl command (mac/windows.ts cmdCurlCommand)',
		shape: 'a header: n backslashes, `"`, `%`',
		n: 32_768,
		input: (n) => `MAC id="${'\\'.repeat(n)}\\"%x",ts="1",nonce="n",mac="m"`,
		read: (lib, input) => lib.mac.cmdCurlCommand('https://a.example/p?q=%5C', input)
	},
	{
		reader: 'keys (triage/keys.ts)',
		shape: 'a line of n `{`',
		n: 65_536,
		input: (n) => '{'.repeat(n),
		read: (lib, input) => lib.keys.parseKeys(input)
	}
];

/**
 * @typedef {{ reader: string, shape: string, n: number, small: number | null, big: number | null, stoppedAfter: number | null, reps: number }} Figure
 *   CPU ms per call (each run timed `reps` calls); `big` null when a 16n run was stopped after
 *   `stoppedAfter` ms (per call); `small` null too when the run at n was stopped, after
 *   `stoppedAfter` ms (warm-up included)
 */

// ---- In the worker -----------------------------------------------------------------------------

/** @returns {Promise<Lib>} */
async function loadReaders() {
	const [mac, read, lines, diff, visible, share, keys] = await Promise.all(
		[
			'mac/index.ts',
			'read/index.ts',
			'read/read-lines.ts',
			'diagnosis/base-string-diff.ts',
			'ui/visible.ts',
			'verify/case/share-state.ts',
			'triage/keys.ts'
		].map(loadLib)
	);
	return { mac, read, lines, diff, visible, share, keys };
}

/** A full garbage collection, so that one run's garbage is not collected in the next one's time. */
function collector() {
	setFlagsFromString('--expose-gc');
	return /** @type {() => void} */ (runInNewContext('gc'));
}

/**
 * CPU milliseconds of one call.
 * @param {() => unknown} call
 */
function cpuTime(call) {
	const start = process.cpuUsage();
	call();
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

/** A run of the small input lasts at least this long: `reps` calls are timed together. */
const MIN_RUN_MS = 2;

async function worker() {
	const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
	const lib = await loadReaders();
	const gc = collector();
	port.on('message', (/** @type {{ index: number, runs: number }} */ { index, runs }) => {
		const reader = /** @type {Reader} */ (READERS[index]);
		const small = reader.input(reader.n, lib);
		const big = reader.input(16 * reader.n, lib);
		// Twice first: the JIT and the regular expressions' native code are then ready.
		reader.read(lib, small);
		reader.read(lib, small);
		const once = cpuTime(() => reader.read(lib, small));
		const reps = Math.min(10_000, Math.max(1, Math.ceil(MIN_RUN_MS / Math.max(once, 0.001))));
		/** The fastest of `runs` runs of `reps` calls; `before` is told before each. */
		const best = (/** @type {unknown} */ input, /** @type {() => void} */ before) => {
			let fastest = Infinity;
			for (let run = 0; run < runs; run++) {
				gc();
				before();
				fastest = Math.min(
					fastest,
					cpuTime(() => {
						for (let rep = 0; rep < reps; rep++) reader.read(lib, input);
					})
				);
			}
			return fastest;
		};
		const smallRun = best(small, () => undefined);
		port.postMessage({ kind: 'small', ms: smallRun, reps });
		const bigRun = best(big, () => port.postMessage({ kind: 'run' }));
		port.postMessage({ kind: 'done', small: smallRun / reps, big: bigRun / reps, reps });
	});
	port.postMessage({ kind: 'ready' });
}

// ---- In the main thread ------------------------------------------------------------------------

/** A worker that has loaded the readers. */
function startWorker() {
	const thread = new Worker(new URL(import.meta.url), {
		workerData: { linearityWorker: true },
		resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB }
	});
	return new Promise((resolve, reject) => {
		thread.once('error', reject);
		thread.once('message', () => resolve(thread));
	});
}

/**
 * Times one reader; a 16n run that does not end in time is stopped with its worker. Times are per
 * call; `stoppedAfter` is the time a stopped run had taken, per call.
 * @param {Worker} thread
 * @param {number} index
 * @param {number} runs
 * @returns {Promise<{ small: number | null, big: number | null, stoppedAfter: number | null, reps: number }>}
 */
function measure(thread, index, runs) {
	return new Promise((resolve, reject) => {
		let smallRun = 0;
		let reps = 1;
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		const finish = (/** @type {() => void} */ settle) => {
			clearTimeout(timer);
			thread.off('message', onMessage);
			thread.off('error', reject);
			settle();
		};
		const onMessage = (
			/** @type {{ kind: string, ms?: number, small?: number, big?: number, reps?: number }} */ message
		) => {
			if (message.kind === 'small') {
				clearTimeout(timer);
				smallRun = message.ms ?? 0;
				reps = message.reps ?? 1;
			} else if (message.kind === 'run') {
				clearTimeout(timer);
				const limit = Math.max(STOP_FLOOR_MS, STOP_AFTER * smallRun);
				timer = setTimeout(
					() =>
						finish(() =>
							resolve({ small: smallRun / reps, big: null, stoppedAfter: limit / reps, reps })
						),
					limit
				);
			} else if (message.kind === 'done')
				finish(() =>
					resolve({
						small: message.small ?? 0,
						big: message.big ?? 0,
						stoppedAfter: null,
						reps: message.reps ?? 1
					})
				);
		};
		thread.on('message', onMessage);
		thread.on('error', reject);
		thread.postMessage({ index, runs });
		timer = setTimeout(
			() => finish(() => resolve({ small: null, big: null, stoppedAfter: SMALL_STOP_MS, reps: 1 })),
			SMALL_STOP_MS
		);
	});
}

/** @param {number} ms */
const ms = (ms) =>
	ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

/** @param {Figure} figure */
export function ratioOf(figure) {
	if (figure.small === null) return Infinity;
	return figure.big === null
		? (figure.stoppedAfter ?? 0) / Math.max(figure.small, 0.001)
		: figure.big / Math.max(figure.small, 0.001);
}

/** @param {Figure} figure */
function shownRatio(figure) {
	if (figure.small === null) return 'stopped at n';
	return `${figure.big === null ? '> ' : ''}${ratioOf(figure).toFixed(1)}`;
}

/**
 * Runs every reader and prints the table; the rows for the bench's summary, and whether every
 * ratio is within LINEARITY_LIMIT.
 * @param {{ log?: (text: string) => void, runs?: number, only?: string }} [options]
 * @returns {Promise<{ figures: Figure[], rows: [string, string, string, boolean | null][], linear: boolean }>}
 */
export async function linearitySection(options = {}) {
	const log = options.log ?? console.log;
	const runs = options.runs ?? RUNS;
	log(
		`\n## Linearity: each reader of outside input on its worst shape at n and at 16n characters (CPU time, best of ${runs}; linear ≈ 16, over ${LINEARITY_LIMIT} fails)`
	);
	log(
		`${'reader'.padEnd(64)} ${'shape'.padEnd(42)} ${'n'.padStart(7)} ${'t(n)'.padStart(10)} ${'t(16n)'.padStart(11)} ${'ratio'.padStart(7)}`
	);
	/** @type {Figure[]} */
	const figures = [];
	for (const [index, reader] of READERS.entries()) {
		if (options.only && !reader.reader.includes(options.only)) continue;
		// A worker of its own for each reader: a fresh heap, which the readers before did not fill.
		const thread = /** @type {Worker} */ (await startWorker());
		let result;
		try {
			result = await measure(thread, index, runs);
		} finally {
			await thread.terminate();
		}
		const figure = { reader: reader.reader, shape: reader.shape, n: reader.n, ...result };
		figures.push(figure);
		const ratio = ratioOf(figure);
		const stopped = `> ${ms(figure.stoppedAfter ?? 0)}`;
		const small = figure.small === null ? stopped : ms(figure.small);
		const big = figure.small === null ? '' : figure.big === null ? stopped : ms(figure.big);
		log(
			`${reader.reader.padEnd(64)} ${reader.shape.padEnd(42)} ${String(reader.n).padStart(7)} ${small.padStart(10)} ${big.padStart(11)} ${shownRatio(figure).padStart(7)}${ratio > LINEARITY_LIMIT ? '  OVER' : ''}`
		);
	}
	const over = figures.filter((figure) => ratioOf(figure) > LINEARITY_LIMIT);
	log(
		over.length === 0
			? `every ratio is ${LINEARITY_LIMIT} or less`
			: `${over.length} reader(s) over ${LINEARITY_LIMIT}: ${over.map((figure) => `${figure.reader} (${figure.shape})`).join('; ')}`
	);
	/** @type {[string, string, string, boolean | null][]} */
	const rows = figures.map((figure) => [
		`Linearity, ${figure.reader}: ${figure.shape}, t(16n) / t(n) at n = ${figure.n}`,
		shownRatio(figure),
		`≤ ${LINEARITY_LIMIT}`,
		ratioOf(figure) <= LINEARITY_LIMIT
	]);
	return { figures, rows, linear: over.length === 0 };
}

if (!isMainThread && workerData?.linearityWorker) {
	await worker();
} else if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
	const { linear } = await linearitySection({ only: process.argv[2] });
	if (!linear) process.exitCode = 1;
}
