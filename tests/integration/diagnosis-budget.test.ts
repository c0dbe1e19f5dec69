// The diagnosis of one request is held to a budget counted in work (DIAGNOSIS_BUDGET): a mismatch
// whose URL is huge ends "diagnosis stopped: too long" in bounded time and memory, always at the
// same point, and the requests real clients send stay far below it and are explained as before.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
	DIAGNOSIS_BUDGET,
	DIAGNOSIS_STOPPED,
	MISTAKES,
	diagnose,
	type Diagnosis,
	type SigningInputs
} from '$lib/diagnosis';
import { signingInputsOf } from '$lib/diagnosis/diagnose';
import { SLOT_FIELDS } from '$lib/diagnosis/mistakes/entry';
import { hmac, parseAuthorization } from '$lib/mac';
import { syncDigests } from '$lib/triage/hmac';
import { diagnoseMistake } from '$lib/triage/verify';
import { mismatchDiagnosis } from '../../src/node/sandbox-server/diagnosis';
import { zooInputs } from '../unit/zoo-inputs';
import { english } from '../unit/verify-english';

const KEY = 'k7Qx2mZpR4vN8sLw';
const MB = 1_000_000;
const TS = '1780000000';
const NONCE = 'bm9uY2Ux';

/** The base string of a GET, lines as given (the URL's path and query as the parser writes them). */
function base(uri: string, host = 'open.tapapis.cn'): string {
	return `${TS}\n${NONCE}\nGET\n${uri}\n${host}\n443\n\n`;
}

const sign = (text: string, key = KEY) => createHmac('sha1', key).update(text).digest('base64');

/**
 * A request to open.tapapis.cn whose query holds `bytes` characters made of `unit` (characters the
 * URL parser leaves as they are), signed as `signer` signs: with another key, with the other
 * deployment's host, or without the query.
 */
function hugeMismatch(
	unit: string,
	bytes: number,
	signer: 'other-key' | 'other-host' | 'no-query',
	index: number
) {
	const path = `/account/profile/v1`;
	const query = `client_id=app-${index}&data=${unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes)}`;
	const uri = `${path}?${query}`;
	const mac =
		signer === 'other-key'
			? sign(base(uri), 'a-key-nobody-knows')
			: signer === 'other-host'
				? sign(base(uri, 'open.tapapis.com'))
				: sign(base(path));
	return {
		url: `https://open.tapapis.cn${uri}`,
		authorization: { id: 'kid-1', ts: TS, nonce: NONCE, mac },
		macKey: KEY
	};
}

const CHILD = resolve(import.meta.dirname, 'diagnosis-budget-child.js');
// `npm run triage` as package.json runs it.
const TRIAGE = resolve(import.meta.dirname, '../../src/node/triage/run.js');
/** Far below the 2.7 GB the search took before it had a budget, far above what it needs now. */
const HEAP_LIMIT_MB = 384;

/** Node on `args`, as a process of its own: its exit code and what it printed. */
function runNode(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', fail);
		child.on('close', (code) => done({ code, stdout, stderr }));
	});
}

// Not a speed test: without the diagnosis's budget the 16 took 119 s and 2.7 GB, so a search
// without one ends at the child's heap limit, long before it could look like a hang.
describe('16 mismatches with 1 MB URLs, as the triage diagnoses them', () => {
	it('each ends with a mistake or "diagnosis stopped", within a heap limit of 384 MB', async () => {
		const units = ['a', 'a%20b+c', '&k=v', '-._~0'];
		const signers = ['other-key', 'other-key', 'other-host', 'no-query'] as const;
		const cases = Array.from({ length: 16 }, (_, index) =>
			hugeMismatch(
				units[index % 4] ?? 'a',
				MB,
				signers[Math.floor(index / 4)] ?? 'other-key',
				index
			)
		);
		const dir = await mkdtemp(join(tmpdir(), 'diagnosis-budget-'));
		try {
			const path = join(dir, 'cases.json');
			await writeFile(path, JSON.stringify(cases));
			const { code, stdout, stderr } = await runNode([
				`--max-old-space-size=${HEAP_LIMIT_MB}`,
				CHILD,
				path
			]);
			expect(stderr).toBe('');
			expect(code).toBe(0);
			const { mistakes, peakHeap } = JSON.parse(stdout) as {
				mistakes: string[];
				peakHeap: number;
			};
			// Nothing reproduces another key's mac: past the budget, too long to say so.
			expect(mistakes.slice(0, 8)).toEqual(Array(8).fill(DIAGNOSIS_STOPPED));
			// The likeliest mistakes are tried first, within the budget, and still named.
			expect(mistakes.slice(8, 12)).toEqual(Array(4).fill('host-other-deployment'));
			expect(mistakes.slice(12)).toEqual(Array(4).fill('query-dropped'));
			expect(peakHeap).toBeLessThan(HEAP_LIMIT_MB * 1024 * 1024);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

/** What a search decided and how far it went: not its words, not its timing. */
const outcome = (diagnosis: Diagnosis) => ({
	verdict: diagnosis.verdict,
	variantsTried: diagnosis.variantsTried,
	work: diagnosis.work,
	explanations: diagnosis.explanations.map((reproduction) => [
		reproduction.id,
		reproduction.baseString
	])
});

// Every other field a log hands the diagnosis can be huge too: each is in every variant's base
// string, or is the key of every HMAC, and each stops as a huge URL does.
describe('mismatches with a 1 MB nonce, ts, ext, key or kid', () => {
	it('each ends "diagnosis stopped", within a heap limit of 384 MB', async () => {
		const normal = hugeMismatch('a', 10, 'other-key', 5);
		const huge = 'a%2B b'.repeat(MB / 6);
		const cases = [
			{ ...normal, authorization: { ...normal.authorization, nonce: huge } },
			{ ...normal, authorization: { ...normal.authorization, ts: '1'.repeat(MB) } },
			{ ...normal, authorization: { ...normal.authorization, ext: huge } },
			{ ...normal, macKey: `${huge} ` },
			{ ...normal, authorization: { ...normal.authorization, id: huge } }
		];
		const dir = await mkdtemp(join(tmpdir(), 'diagnosis-budget-'));
		try {
			const path = join(dir, 'cases.json');
			await writeFile(path, JSON.stringify(cases));
			const { code, stdout, stderr } = await runNode([
				`--max-old-space-size=${HEAP_LIMIT_MB}`,
				CHILD,
				path
			]);
			expect(stderr).toBe('');
			expect(code).toBe(0);
			const { mistakes } = JSON.parse(stdout) as { mistakes: string[] };
			expect(mistakes).toEqual(Array(5).fill(DIAGNOSIS_STOPPED));
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

// `npm run triage` as a real process on a log whose mismatches have URLs of 300 kB: the CSV's mistake
// column and the summary say "diagnosis-stopped" for the ones too long to diagnose, and the
// requests after them are judged as usual.
describe('npm run triage on huge URLs', () => {
	it('names the stopped diagnoses in the CSV and the summary, and judges the rest', async () => {
		const lines = [
			hugeMismatch('a%20b+c', 300_000, 'other-key', 1),
			hugeMismatch('&k=v', 300_000, 'no-query', 2),
			hugeMismatch('a', 100, 'other-key', 3)
		].map(({ url, authorization }) =>
			JSON.stringify({
				method: 'GET',
				url,
				authorization: `MAC id="${authorization.id}",ts="${authorization.ts}",nonce="${authorization.nonce}",mac="${authorization.mac}"`
			})
		);
		const dir = await mkdtemp(join(tmpdir(), 'diagnosis-budget-cli-'));
		try {
			const log = join(dir, 'log.ndjson');
			await writeFile(log, `${lines.join('\n')}\n`);
			await writeFile(join(dir, 'keys.txt'), `kid-1 ${KEY}\n`);
			const csvPath = join(dir, 'verdicts.csv');
			const { code, stdout, stderr } = await runNode([
				TRIAGE,
				log,
				'--keys',
				join(dir, 'keys.txt'),
				'--out',
				csvPath,
				'--json'
			]);
			expect(stderr).toBe('');
			expect(code).toBe(1);
			const summary = JSON.parse(stdout) as {
				groups: Record<string, number>;
				mistakes: { id: string; count: number }[];
				unexplained: number;
			};
			expect(summary.groups.mismatch).toBe(3);
			expect(summary.mistakes).toEqual(
				expect.arrayContaining([
					{ id: DIAGNOSIS_STOPPED, count: 1 },
					{ id: 'query-dropped', count: 1 }
				])
			);
			expect(summary.unexplained).toBe(1);
			const rows = (await readFile(csvPath, 'utf8')).trimEnd().split('\r\n');
			const mistake = rows[0]?.split(',').indexOf('mistake') ?? -1;
			// The URL holds no comma or quote: each row splits into its cells.
			expect(rows.slice(1).map((row) => row.split(',')[mistake])).toEqual([
				DIAGNOSIS_STOPPED,
				'query-dropped',
				'unexplained'
			]);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

describe('the budget', () => {
	it('stops a search at the same point every time, whichever signer and however busy', async () => {
		const request = hugeMismatch('a%20b+c', 200, 'other-key', 1);
		// The whole search of this request, then a budget that ends it halfway through the pairs.
		const whole = await diagnose(request, { hmac: syncDigests() });
		expect(whole.verdict).toBe('unexplained');
		const budget = Math.floor(whole.work / 2);
		const runs = [
			await diagnose(request, { budget, hmac: syncDigests() }),
			await diagnose(request, { budget, hmac }),
			await diagnose(request, { budget, hmac: syncDigests() })
		];
		const [first] = runs;
		expect(first?.verdict).toBe('stopped');
		expect(first?.variantsTried).toBeLessThan(whole.variantsTried);
		for (const run of runs) expect(outcome(run)).toEqual(outcome(first as Diagnosis));
		expect(english(first?.message)).toMatch(
			/^The mac does not match\. Diagnosis stopped: too long\./
		);
	});

	it('names the mistake found before it ran out: the one the whole search names first', async () => {
		// Signed with the other deployment's host: the likeliest single, tried first.
		const request = hugeMismatch('a', 300, 'other-host', 2);
		const whole = await diagnose(request, { hmac: syncDigests() });
		const cut = await diagnose(request, { budget: 10_000, hmac: syncDigests() });
		expect(cut.verdict).toBe('explained');
		expect(cut.explanations[0]?.id).toBe(whole.explanations[0]?.id);
		expect(cut.explanations[0]?.id).toBe('host-other-deployment');
	});

	it('gives the triage its own id for a stopped diagnosis, never "unexplained"', async () => {
		const request = hugeMismatch('a%20b+c', MB / 4, 'other-key', 3);
		expect(await diagnoseMistake(request, syncDigests())).toBe(DIAGNOSIS_STOPPED);
	});
});

describe("the sandbox server's diagnosis header", () => {
	// Node's HTTP server reads a request line of up to 16 kB: a 12 kB URL reaches the sandbox.
	it('says mistake=diagnosis-stopped for a URL too long to diagnose', async () => {
		const { url, authorization } = hugeMismatch('a%20b+c', 12_000, 'other-key', 6);
		const header = `MAC id="${authorization.id}",ts="${authorization.ts}",nonce="${authorization.nonce}",mac="${authorization.mac}"`;
		const diagnosis = await mismatchDiagnosis({
			authorization: header,
			params: parseAuthorization(header),
			method: 'GET',
			url,
			uriForm: 'as-written',
			macKey: KEY
		});
		expect(diagnosis).toMatch(/^mistake=diagnosis-stopped; client=/);
	});
});

describe('the requests real clients send', () => {
	// The zoo's 141 requests (fixtures/zoo-requests.json), read both ways a URL is read: the
	// budget changes nothing in their diagnoses, and none comes near it.
	// 564 diagnoses: seconds on a busy machine.
	it('are diagnosed as with no budget at all, each with a tenth of the budget or less', async () => {
		const digests = syncDigests();
		let most = 0;
		for (const { name, input } of zooInputs()) {
			const budgeted = await diagnose(input, { hmac: digests });
			const unbounded = await diagnose(input, { hmac: digests, budget: Infinity });
			expect(budgeted.verdict, name).not.toBe('stopped');
			expect(outcome(budgeted), name).toEqual(outcome(unbounded));
			most = Math.max(most, budgeted.work);
		}
		expect(most * 10).toBeLessThan(DIAGNOSIS_BUDGET);
	});

	it('an unexplained one with a 2 kB URL is searched to the end', async () => {
		const diagnosis = await diagnose(hugeMismatch('a%20b+c', 2_000, 'other-key', 4), {
			hmac: syncDigests()
		});
		expect(diagnosis.verdict).toBe('unexplained');
		expect(diagnosis.work).toBeLessThan(DIAGNOSIS_BUDGET / 2);
	});
});

describe('what the catalogue declares', () => {
	/** A request of odd shapes: hosts, ports, paths and queries each mistake has something to do with. */
	const request = fc.record({
		scheme: fc.constantFrom('https', 'http'),
		host: fc.constantFrom(
			'open.tapapis.cn',
			'OPEN.tapapis.com',
			'openapi.taptap.com',
			'example.com'
		),
		port: fc.constantFrom('', ':443', ':8443', ':80'),
		path: fc.constantFrom('', '/', '/a/b', '/a/b/', '/a;p=1/b', '/a/./b', '/account/profile/v1'),
		query: fc.constantFrom(
			'',
			'?',
			'?q=1',
			'?b=2&a=1',
			"?s=it's",
			'?x=a%20b+c',
			'?t=%7E&u=%e5%b0%8f',
			'?h=open.tapapis.cn',
			'?k'
		),
		key: fc.constantFrom(KEY, ' key ', 'a2V5', 'clé-密钥', 'k😀', 'kid-1'),
		nonce: fc.constantFrom(NONCE, ' n ', 'a+b%2F', 'x y'),
		ts: fc.constantFrom(TS, '0170000000', '1700000000123', 'abc'),
		method: fc.constantFrom('GET', 'get', 'POST'),
		ext: fc.constantFrom('', 'e'),
		uriForm: fc.constantFrom('browser', 'as-written')
	});

	/** The fields whose values differ (by identity), with the values of `inputs`. */
	const changesOf = (inputs: SigningInputs, from: SigningInputs) =>
		Object.fromEntries(
			(Object.keys(from) as (keyof SigningInputs)[])
				.filter((field) => inputs[field] !== from[field])
				.map((field) => [field, inputs[field]])
		);

	// The search applies a second mistake's changes to the first half of a pair without asking it
	// again wherever the first left the fields the second reads or changes (SLOT_FIELDS) as they were.
	// 40 requests, each through every pair of the catalogue: seconds on a busy machine.
	it('a mistake makes the same changes, titled the same, wherever the fields of its slot are the same', () => {
		fc.assert(
			fc.property(request, (r) => {
				const { correct, context } = signingInputsOf({
					authorization: { id: 'kid-1', ts: r.ts, nonce: r.nonce, mac: 'x', ext: r.ext },
					method: r.method,
					url: `${r.scheme}://${r.host}${r.port}${r.path}${r.query}`,
					uriForm: r.uriForm as 'browser' | 'as-written',
					macKey: r.key
				});
				const alone = MISTAKES.map((mistake) => mistake.variants(correct, context));
				MISTAKES.forEach((first, a) => {
					for (const { inputs } of alone[a] ?? []) {
						MISTAKES.forEach((second, b) => {
							if (second.slot === first.slot) return;
							const fields = SLOT_FIELDS[second.slot];
							if (fields.some((field) => inputs[field] !== correct[field])) return;
							const replayed = (alone[b] ?? []).map((candidate) => ({
								...candidate,
								inputs: { ...inputs, ...changesOf(candidate.inputs, correct) }
							}));
							expect(second.variants(inputs, context), `${first.id} then ${second.id}`).toEqual(
								replayed
							);
						});
					}
				});
			}),
			{ numRuns: 40 }
		);
	});
});
