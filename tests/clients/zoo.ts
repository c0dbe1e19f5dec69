// The zoo run: each client signs its requests with its own toolchain, each request goes to the
// sandbox service over raw HTTP on loopback, the whole goes through the triage command line as an
// NDJSON log, and every outcome is judged against the matrix's expectation.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, signAll, type ClientOutput } from './clients';
import { ACCOUNTS, catalogueIds, NON_ASCII, type ClientId, type ZooRequest } from './matrix';
import { verifySample, writeReport } from './report';
import { sendRaw, startSandbox, type Answer } from './sandbox';
import { loggedUrl, runTriage, specBaseString, type LogLine, type Verdict } from './triage';

export type Judgement =
	/** The triage says match, as expected. */
	| 'match'
	/** A mismatch named with exactly the expected mistake(s). */
	| 'explained'
	/** A mismatch no catalogued mistake reproduces. */
	| 'unexplained'
	/** A mismatch named with another mistake than the expected one. */
	| 'explained-otherwise'
	/** A mismatch where a match was expected. */
	| 'mismatch-unexpected'
	/** A match where a mistake was expected. */
	| 'match-unexpected'
	/** The client's own HTTP stack would not send it, or the triage could not read it. */
	| 'not-judged';

export interface Outcome {
	request: ZooRequest;
	sent: ClientOutput;
	/** The sandbox's answer; null when the client would not send the request. */
	answer: Answer | null;
	/** The log line, 1-based; null when not sent. */
	logLine: number | null;
	log: LogLine | null;
	verdict: Verdict | null;
	/** The base string the spec asks for, for what was sent (as the triage reads the log). */
	specBaseString: string | null;
	judgement: Judgement;
	/** The catalogue ids expected (sorted; empty for a match). */
	expectedIds: string[];
}

export interface ZooRun {
	outcomes: Outcome[];
	triageSummary: Record<string, unknown>;
	dir: string;
	files: { log: string; csv: string; results: string; report: string; verifySample: string };
}

/** The catalogue ids the triage named for a mismatch, sorted. */
export function namedIds(verdict: Verdict): string[] {
	return verdict.mistake === '' ? [] : verdict.mistake.split('+').sort();
}

export function judge(expectedIds: readonly string[], verdict: Verdict | null): Judgement {
	if (verdict === null || (verdict.verdict !== 'match' && verdict.verdict !== 'mismatch'))
		return 'not-judged';
	if (verdict.verdict === 'match') return expectedIds.length === 0 ? 'match' : 'match-unexpected';
	if (expectedIds.length === 0) return 'mismatch-unexpected';
	if (verdict.mistake === 'unexplained') return 'unexplained';
	return namedIds(verdict).join('+') === expectedIds.join('+')
		? 'explained'
		: 'explained-otherwise';
}

/** Runs the zoo for the clients given, writing its files into `dir`. */
export async function runZoo(
	requests: readonly ZooRequest[],
	clients: readonly ClientId[],
	dir: string
): Promise<ZooRun> {
	await mkdir(dir, { recursive: true });
	const chosen = requests.filter((request) => clients.includes(request.client));
	const commands = await build(clients);
	const signed = new Map<ZooRequest, ClientOutput>();
	await Promise.all(
		clients.map(async (client) => {
			const command = commands.get(client);
			if (!command) throw new Error(`${client} was not built`);
			const own = chosen.filter((request) => request.client === client);
			const outputs = await signAll(command, own);
			own.forEach((request, index) => {
				const output = outputs[index];
				if (output) signed.set(request, output);
			});
		})
	);

	// One request at a time, in the matrix's order, each answered at the instant its client read the
	// clock: the answers (a nonce used again included) are the same on every run.
	const sandbox = await startSandbox([NON_ASCII]);
	const sent: { request: ZooRequest; output: ClientOutput; answer: Answer | null }[] = [];
	try {
		for (const request of chosen) {
			const output = signed.get(request);
			if (!output) throw new Error(`no output for ${request.id}`);
			if (output.refused) {
				sent.push({ request, output, answer: null });
				continue;
			}
			sandbox.setNow(Number(request.input.now_ms?.split(',')[0]));
			const answer = await sendRaw(sandbox.url, {
				method: output.method,
				target: output.target,
				host: output.host,
				authorization: output.authorization,
				https: request.url.startsWith('https:')
			});
			sent.push({ request, output, answer });
		}
	} finally {
		await sandbox.close();
	}

	const logged = sent.filter((entry) => entry.answer !== null);
	const lines: LogLine[] = logged.map(({ request, output, answer }) => ({
		method: output.method,
		url: loggedUrl(output.host, output.target, request.url.startsWith('https:')),
		authorization: output.authorization,
		status: answer?.status ?? 0,
		time: Number(request.input.now_ms?.split(',')[0]) / 1000
	}));
	const triage = await runTriage(dir, lines, ACCOUNTS);

	const outcomes = sent.map(({ request, output, answer }): Outcome => {
		const index = logged.findIndex((entry) => entry.request === request);
		const log = index < 0 ? null : (lines[index] ?? null);
		const verdict = index < 0 ? null : (triage.verdicts[index] ?? null);
		const expectedIds = catalogueIds(request.expect);
		return {
			request,
			sent: output,
			answer,
			logLine: index < 0 ? null : index + 1,
			log,
			verdict,
			specBaseString: log === null ? null : specBaseString(log),
			judgement: judge(expectedIds, verdict),
			expectedIds
		};
	});
	const files = {
		log: triage.logPath,
		csv: triage.csvPath,
		results: join(dir, 'results.json'),
		report: join(dir, 'report.md'),
		verifySample: join(dir, 'verify-sample.json')
	};
	await writeFile(files.results, JSON.stringify(outcomes, null, '\t') + '\n');
	await writeFile(files.report, writeReport(outcomes));
	await writeFile(files.verifySample, JSON.stringify(verifySample(outcomes), null, '\t') + '\n');
	return { outcomes, triageSummary: triage.summary, dir, files };
}
