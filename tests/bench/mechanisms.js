// Each mechanism the triage keeps for speed, timed with it and without it in the same run (issue
// 41: a mechanism stays only while taking it out costs at least 20% on the figure it serves).
//
// "Without" is the simpler path in place of the mechanism, built from a snapshot of the working tree
// whose module is swapped for a plain one (the PATCHES below: no option in the app exists only
// for this comparison), or an option the command already has (`--threads 0`). Each round runs the
// build with every mechanism, then each build without one, in turn, so that a change in the
// machine's speed during the section weighs on all alike; each figure is the fastest of its rounds.
//   - the command line: `npm run triage` on the section's log of 1,000,000 requests, whole
//     processes (`npm run triage` in the snapshot: its own bundle, built by a first, untimed run);
//   - the page: /triage in Chromium on the 100,000-request log, click to last count (triage-page.js).
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { snapshotProject, viteBuild } from './projects.js';
import { serveStatic } from './static-server.js';
import { pageTriageAt } from './triage-page.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/** Taking a mechanism out must cost at least this much on its figure for it to stay. */
export const KEEP_GAIN = 0.2;

/**
 * Modules of src/lib/triage swapped in a snapshot: the text that replaces each. `{orig}` in a text
 * stands for the original module, kept beside it as NAME.orig.ts.
 * @typedef {{ file: string, text: string }} Patch
 * @typedef {{ id: string, name: string, cli?: { args?: string[], patches?: Patch[] }, page?: Patch[] }} Mechanism
 */

/** The triage worker with no pool: it triages every log itself (as it does a HAR). */
const NO_POOL_WORKER = `// The bench's variant (tests/bench/mechanisms.js): the triage worker without its pool.
import { serveTriage } from './protocol';

serveTriage(globalThis as never);
`;

/** Verdicts posted as records (structured clone), kept as records on the page. */
const NO_COLUMNS = [
	{
		file: 'src/lib/triage/verdict-batch.ts',
		text: `import type { Refusal } from '$lib/diagnosis/service-answer';
import type { VerdictKind, VerdictRecord } from './types';

export interface VerdictBatch {
	count: number;
	records: VerdictRecord[];
	/** The request numbers, five places apart, where the pool's merge reads them. */
	values: Float64Array;
}

export function encodeVerdicts(records: readonly VerdictRecord[]): VerdictBatch {
	const values = new Float64Array(records.length * 5);
	for (let index = 0; index < records.length; index++)
		values[index * 5] = (records[index] as VerdictRecord).number;
	return { count: records.length, records: records.slice(), values };
}

export function setNonceFirstUsedAt(batch: VerdictBatch, index: number, first: number): void {
	(batch.records[index] as VerdictRecord).nonceFirstUsedAt = first;
}

export function isMatchAt(batch: VerdictBatch, index: number): boolean {
	return (batch.records[index] as VerdictRecord).verdict === 'match';
}

export function setRefused(batch: VerdictBatch, index: number, refusal: Refusal): void {
	const record = batch.records[index] as VerdictRecord;
	record.verdict = 'refused';
	record.refusal = refusal;
}

export function transferables(_batch: VerdictBatch): Transferable[] {
	return [];
}

export function decodeVerdicts(batch: VerdictBatch): VerdictRecord[] {
	return batch.records;
}

export class VerdictColumns {
	#records: VerdictRecord[] = [];
	#statuses = new Set<number>();
	#withoutStatus = false;
	get length(): number {
		return this.#records.length;
	}
	add(batch: VerdictBatch): void {
		for (const record of batch.records) {
			this.#records.push(record);
			if (record.status === null) this.#withoutStatus = true;
			else this.#statuses.add(record.status);
		}
	}
	statuses(): number[] {
		return [...this.#statuses].sort((a, b) => a - b);
	}
	get withoutStatus(): boolean {
		return this.#withoutStatus;
	}
	#at(index: number): VerdictRecord {
		const record = this.#records[index];
		if (record === undefined) throw new RangeError(\`no verdict \${index}\`);
		return record;
	}
	at(index: number): VerdictRecord {
		return { ...this.#at(index) };
	}
	number(index: number): number {
		return this.#at(index).number;
	}
	verdict(index: number): VerdictKind {
		return this.#at(index).verdict;
	}
	mistake(index: number): string | null {
		return this.#at(index).mistake;
	}
	status(index: number): number | null {
		return this.#at(index).status;
	}
	refusal(index: number): Refusal | null {
		return this.#at(index).refusal;
	}
	headerFormat(index: number): boolean {
		return this.#at(index).headerFormat === true;
	}
	outsideWindow(index: number): boolean {
		return this.#at(index).clock?.outsideWindow === true;
	}
	nonceReused(index: number): boolean {
		return this.#at(index).nonceFirstUsedAt !== null;
	}
	client(index: number): number {
		return this.#at(index).client;
	}
	text(index: number, which: 0 | 1 | 2 | 3): string {
		const record = this.#at(index);
		return [record.method, record.url, record.kid, record.authorization][which] as string;
	}
}
`
	}
];

/** Every header and URL read by the core's parsers (the fast readers never answer). */
const NO_FAST_PARSE = [
	{
		file: 'src/lib/triage/fast-parse.ts',
		text: `export * from '{orig}';
export const fastAuthorization = (_header: string, _out?: unknown): null => null;
export const fastTarget = (_url: string): null => null;
`
	}
];

/** HMAC-SHA-1 by @noble/hashes (each key's state computed once) in place of sha1.ts. */
const NO_OWN_SHA1 = [
	{
		file: 'src/lib/triage/hmac/sha1.ts',
		text: `import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { toBase64 } from '$lib/mac';

export const base64Of = (bytes: Uint8Array): string => toBase64(bytes);
let scratch = new Uint8Array(4096);
const encoder = new TextEncoder();

export class HmacSha1 {
	#keyed;
	#scratch;
	readonly digest = new Uint8Array(20);
	constructor(key: Uint8Array) {
		this.#keyed = hmac.create(sha1, key);
		this.#scratch = this.#keyed._cloneInto();
	}
	sign(text: string): this {
		if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3);
		return this.signUtf8(scratch, encoder.encodeInto(text, scratch).written);
	}
	signUtf8(bytes: Uint8Array, length: number): this {
		this.#scratch = this.#keyed._cloneInto(this.#scratch);
		this.#scratch.update(bytes.subarray(0, length));
		this.#scratch.digestInto(this.digest);
		return this;
	}
	bytes(): Uint8Array<ArrayBuffer> {
		return this.digest.slice();
	}
	matches(mac: string): boolean {
		return toBase64(this.digest) === mac;
	}
}
`
	}
];

/** @type {Mechanism[]} */
export const MECHANISMS = [
	{
		id: 'pool',
		name: 'triage pool (worker threads, Web Workers)',
		cli: { args: ['--threads', '0'] },
		page: [{ file: 'src/lib/triage/worker.ts', text: NO_POOL_WORKER }]
	},
	{
		id: 'warm-up',
		name: "the pool's warm-up (pool/warm-up.ts)",
		page: [
			{
				file: 'src/lib/triage/pool/warm-up.ts',
				text: "export * from '{orig}';\nexport async function warmUpPool(): Promise<void> {}\n"
			}
		]
	},
	{ id: 'columns', name: 'bit-packed verdict columns (verdict-batch.ts)', page: NO_COLUMNS },
	{ id: 'fast-parse', name: 'fast-parse.ts', cli: { patches: NO_FAST_PARSE }, page: NO_FAST_PARSE },
	{
		id: 'sha1',
		name: 'own SHA-1 (hmac/sha1*.ts) against @noble/hashes',
		cli: { patches: NO_OWN_SHA1 },
		page: NO_OWN_SHA1
	}
];

/**
 * A snapshot of the project with `patches` applied.
 * @param {string} into
 * @param {Patch[]} patches
 */
export async function patchedSnapshot(into, patches) {
	await snapshotProject(PROJECT, into);
	// The TypeScript settings the sources are compiled with (tsconfig.json extends Kit's).
	await mkdir(join(into, '.svelte-kit'), { recursive: true });
	await copyFile(
		join(PROJECT, '.svelte-kit', 'tsconfig.json'),
		join(into, '.svelte-kit', 'tsconfig.json')
	);
	const { readFile, rename } = await import('node:fs/promises');
	for (const { file, text } of patches) {
		const path = join(into, file);
		if (text.includes('{orig}')) {
			const orig = path.replace(/\.ts$/, '.orig.ts');
			await rename(path, orig);
			const name = `./${orig.split('/').at(-1)?.replace(/\.ts$/, '')}`;
			await writeFile(path, text.replaceAll('{orig}', name));
		} else {
			await readFile(path);
			await writeFile(path, text);
		}
	}
}

/**
 * CPU time of this process's children that have ended (/proc/self/stat's cutime and cstime, with
 * theirs: npm's, and its node's), in milliseconds; 0 where there is no /proc.
 */
function childrenCpuMs() {
	try {
		const stat = readFileSync('/proc/self/stat', 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// Fields 16 and 17 of the line, counted after the name: cutime, cstime (clock ticks, 100 a second).
		return (Number(fields[13]) + Number(fields[14])) * 10;
	} catch {
		return 0;
	}
}

/**
 * A command's whole process, timed from outside: wall time from spawn to exit, and CPU time (its
 * and its children's, every thread).
 * @param {string} cwd
 * @param {string[]} args npm's
 * @returns {Promise<{ ms: number, cpuMs: number }>}
 */
function timeNpm(cwd, args) {
	return new Promise((resolve, reject) => {
		const cpu = childrenCpuMs();
		const started = performance.now();
		const child = spawn('npm', args, { stdio: ['ignore', 'ignore', 'inherit'], cwd });
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0 && code !== 1) reject(new Error(`npm ${args.join(' ')} exited ${code}`));
			else resolve({ ms: performance.now() - started, cpuMs: childrenCpuMs() - cpu });
		});
	});
}

/**
 * @typedef {{ id: string, name: string, figure: string, withMs: number, withoutMs: number, gain: number, kept: boolean, rounds: [number, number][], cpu: [number, number] | null, note?: string }} Comparison
 */

/**
 * @param {Comparison[]} comparisons
 * @param {(text: string) => void} log
 */
function printComparisons(comparisons, log) {
	for (const c of comparisons)
		log(
			`    ${c.name}, ${c.figure}: with ${(c.withMs / 1000).toFixed(2)} s, without ${(c.withoutMs / 1000).toFixed(2)} s; gain ${(c.gain * 100).toFixed(0)}% (each round with/without: ${c.rounds.map(([w, o]) => `${(w / 1000).toFixed(2)}/${(o / 1000).toFixed(2)}`).join(', ')})${c.cpu === null ? '' : `; CPU ${(c.cpu[0] / 1000).toFixed(2)} s against ${(c.cpu[1] / 1000).toFixed(2)} s`}: ${c.kept ? 'kept' : 'does NOT pay'}`
		);
}

/**
 * @param {string} id @param {string} name @param {string} figure
 * @param {number[]} withs @param {number[]} withouts
 * @param {[number[], number[]]} [cpus] CPU times of the same runs, with and without
 * @returns {Comparison}
 */
function compare(id, name, figure, withs, withouts, cpus) {
	const withMs = Math.min(...withs);
	const withoutMs = Math.min(...withouts);
	const gain = withoutMs / withMs - 1;
	return {
		id,
		name,
		figure,
		withMs,
		withoutMs,
		gain,
		kept: gain >= KEEP_GAIN,
		rounds: withs.map((ms, round) => [ms, withouts[round] ?? Number.NaN]),
		cpu: cpus === undefined ? null : [Math.min(...cpus[0]), Math.min(...cpus[1])]
	};
}

/**
 * The command line's mechanisms on `logPath`, each round: with every mechanism, then without each.
 * @param {{ log: (text: string) => void, root: string, logPath: string, keysPath: string, requests: number, rounds: number }} options
 * @returns {Promise<Comparison[]>}
 */
export async function cliMechanisms({ log, root, logPath, keysPath, requests, rounds }) {
	const cache = join(PROJECT, 'node_modules', '.cache', 'mac-triage');
	const before = new Set(await readdir(cache).catch(() => []));
	const base = ['run', '--silent', 'triage', '--', logPath, '--keys', keysPath, '--summary-only'];
	/** @type {{ mechanism: Mechanism, cwd: string, args: string[], times: number[], cpus: number[] }[]} */
	const variants = [];
	for (const mechanism of MECHANISMS) {
		if (mechanism.cli === undefined) continue;
		let cwd = PROJECT;
		if (mechanism.cli.patches !== undefined) {
			cwd = join(root, `cli-without-${mechanism.id}`);
			await patchedSnapshot(cwd, mechanism.cli.patches);
		}
		variants.push({
			mechanism,
			cwd,
			args: [...base, ...(mechanism.cli.args ?? [])],
			times: [],
			cpus: []
		});
	}
	try {
		// Each bundle built (and the page cache warmed) by a first run, untimed.
		for (const variant of variants) await timeNpm(variant.cwd, variant.args);
		/** @type {number[]} */
		const withs = [];
		/** @type {number[]} */
		const withCpus = [];
		for (let round = 0; round < rounds; round++) {
			const run = await timeNpm(PROJECT, base);
			withs.push(run.ms);
			withCpus.push(run.cpuMs);
			for (const variant of variants) {
				const without = await timeNpm(variant.cwd, variant.args);
				variant.times.push(without.ms);
				variant.cpus.push(without.cpuMs);
			}
		}
		const figure = `npm run triage, ${requests.toLocaleString('en')} requests, whole process`;
		const comparisons = variants.map(({ mechanism, times, cpus }) =>
			compare(mechanism.id, mechanism.name, figure, withs, times, [withCpus, cpus])
		);
		log(
			`mechanisms on the command line (${rounds} rounds, each with every mechanism then without each in turn; fastest of each):`
		);
		printComparisons(comparisons, log);
		return comparisons;
	} finally {
		// The snapshots' bundles went to this checkout's cache (node_modules is linked): removed.
		for (const name of await readdir(cache).catch(() => []))
			if (!before.has(name) && variants.some((variant) => variant.cwd !== PROJECT))
				await rm(join(cache, name), { recursive: true, force: true });
	}
}

/**
 * The page's mechanisms: a build of the snapshot without each, served beside the site's; each round
 * the site, then each build without one, in turn.
 * @param {{ log: (text: string) => void, root: string, origin: string, chromiumPath: string | undefined, logPath: string, keysText: string, requests: number, rounds: number }} options
 * @returns {Promise<Comparison[]>}
 */
export async function pageMechanisms({
	log,
	root,
	origin,
	chromiumPath,
	logPath,
	keysText,
	requests,
	rounds
}) {
	/** @type {{ mechanism: Mechanism, run: import('./triage.js').PageTriage, close: () => Promise<void>, times: number[] }[]} */
	const variants = [];
	try {
		for (const mechanism of MECHANISMS) {
			if (mechanism.page === undefined) continue;
			const dir = join(root, `page-without-${mechanism.id}`);
			await patchedSnapshot(dir, mechanism.page);
			await viteBuild(PROJECT, dir);
			const server = await serveStatic(join(dir, 'build'));
			variants.push({
				mechanism,
				run: pageTriageAt(server.origin, chromiumPath),
				close: async () => {
					await server.close();
					await rm(dir, { recursive: true, force: true });
				},
				times: []
			});
		}
		const site = pageTriageAt(origin, chromiumPath);
		/** @type {number[]} */
		const withs = [];
		for (let round = 0; round < rounds; round++) {
			withs.push((await site(logPath, keysText)).ms);
			for (const variant of variants)
				variant.times.push(
					await variant.run(logPath, keysText).then(
						(without) => without.ms,
						(error) => {
							log(`    without ${variant.mechanism.id}: the run failed (${error})`);
							return Number.POSITIVE_INFINITY;
						}
					)
				);
		}
		const figure = `/triage in Chromium, ${requests.toLocaleString('en')} requests, click to last count`;
		const comparisons = variants.map(({ mechanism, times }) =>
			compare(mechanism.id, mechanism.name, figure, withs, times)
		);
		log(
			`mechanisms on the page (${rounds} rounds, each the site then each build without one in turn, fresh browsers; fastest of each):`
		);
		printComparisons(comparisons, log);
		return comparisons;
	} finally {
		for (const variant of variants) await variant.close();
	}
}
