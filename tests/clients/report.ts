// What the zoo leaves behind: a report for the catalogue's engineer (every request, and for each one
// the triage did not judge as expected, the base string the client signed beside the one the spec
// asks for), and a sample of signed requests with their keys for /verify's end-to-end test.
import { CLIENTS } from './clients';
import type { ClientId } from './matrix';
import type { Judgement, Outcome } from './zoo';

/** Shows a base string on one line: each line feed as \n. */
export function oneLine(text: string | null): string {
	return text === null ? '' : text.replace(/\n/g, '\\n');
}

function cell(text: string): string {
	return text
		.replace(/\\/g, '\\\\')
		.replace(/\|/g, '\\|')
		.replace(/[\r\n]+/g, ' ');
}

function answerText(outcome: Outcome): string {
	if (outcome.answer === null) return `not sent (${outcome.sent.refused ?? 'refused'})`;
	const { status, error, description } = outcome.answer;
	return `${status} ${error ?? ''}${description ? `: ${description}` : ''}`.trim();
}

function verdictText(outcome: Outcome): string {
	const verdict = outcome.verdict;
	if (verdict === null) return 'not in the log';
	return verdict.verdict === 'mismatch' ? `mismatch: ${verdict.mistake}` : verdict.verdict;
}

const FAILING: readonly Judgement[] = [
	'unexplained',
	'explained-otherwise',
	'mismatch-unexpected',
	'match-unexpected',
	'not-judged'
];

/** Counts of each judgement per client. */
export function tally(outcomes: readonly Outcome[]): Map<ClientId, Record<Judgement, number>> {
	const counts = new Map<ClientId, Record<Judgement, number>>();
	for (const outcome of outcomes) {
		const client = outcome.request.client;
		const row = counts.get(client) ?? {
			match: 0,
			explained: 0,
			unexplained: 0,
			'explained-otherwise': 0,
			'mismatch-unexpected': 0,
			'match-unexpected': 0,
			'not-judged': 0
		};
		row[outcome.judgement] += 1;
		counts.set(client, row);
	}
	return counts;
}

/** The report as Markdown. */
export function writeReport(outcomes: readonly Outcome[]): string {
	const out = [
		'# Client zoo',
		'',
		'Each vendor client signed its requests with its own toolchain; each went to the sandbox over',
		'raw HTTP and into an NDJSON log that the triage command line read. Expected: match, or the',
		'mistake(s) named in tests/clients/matrix.ts (MISTAKE_IDS).',
		'',
		'## Per client',
		'',
		'| client | requests | match | explained | unexplained | explained otherwise | other failures |',
		'| --- | ---: | ---: | ---: | ---: | ---: | ---: |'
	];
	for (const [client, row] of tally(outcomes)) {
		const total = Object.values(row).reduce((sum, count) => sum + count, 0);
		const other = row['mismatch-unexpected'] + row['match-unexpected'] + row['not-judged'];
		out.push(
			`| ${CLIENTS[client].name} | ${total} | ${row.match} | ${row.explained} | ${row.unexplained} | ${row['explained-otherwise']} | ${other} |`
		);
	}
	const failing = outcomes.filter((outcome) => FAILING.includes(outcome.judgement));
	out.push('', `## Not judged as expected (${failing.length})`, '');
	for (const outcome of failing) {
		const { request } = outcome;
		out.push(
			`### ${request.id}`,
			'',
			`- ${CLIENTS[request.client].name}: ${request.name}`,
			`- judgement: ${outcome.judgement}; triage: ${verdictText(outcome)}; expected: ${outcome.expectedIds.join(' + ') || 'match'}`,
			`- URL written: \`${request.url}\`; sent: \`${outcome.sent.method} ${outcome.sent.target}\`, Host \`${outcome.sent.host}\``,
			`- sandbox: ${answerText(outcome)}`,
			`- mac_key the client was given: \`${request.input.mac_key ?? ''}\`${request.input.mac_key === request.account.kid ? ' (the kid)' : ''}; the kid's mac_key: \`${request.account.macKey}\`${request.charset === 'UTF-8' ? '' : `; platform charset ${request.charset}`}${request.input.mac_algorithm ? `; mac_algorithm ${request.input.mac_algorithm}` : ''}`,
			'- base string the client signed:',
			'',
			'  ```text',
			`  ${oneLine(outcome.sent.base_string)}`,
			'  ```',
			'',
			'- base string the spec asks for (what was sent, as the triage reads the log):',
			'',
			'  ```text',
			`  ${oneLine(outcome.specBaseString)}`,
			'  ```',
			''
		);
	}
	out.push(
		'## Every request',
		'',
		'| request | sent | sandbox | triage | expected | judgement |',
		'| --- | --- | --- | --- | --- | --- |'
	);
	for (const outcome of outcomes) {
		out.push(
			`| ${cell(outcome.request.id)} | ${cell(`${outcome.sent.target}`)} | ${cell(answerText(outcome))} | ${cell(verdictText(outcome))} | ${cell(outcome.expectedIds.join(' + ') || 'match')} | ${outcome.judgement} |`
		);
	}
	out.push('');
	return out.join('\n');
}

/** One signed request for /verify: what to paste, the key to give, and what it must say. */
export interface VerifyCase {
	id: string;
	client: string;
	name: string;
	method: string;
	/** `https://` + Host + the request-target as sent. */
	url: string;
	authorization: string;
	/** A curl command carrying the request as sent (curl sends the URL's bytes as written). */
	curl: string;
	kid: string;
	macKey: string;
	/** 'match', or the catalogue ids the verify page must name (sorted, joined by "+"). */
	expected: string;
	/** What the triage said when the sample was written. */
	triage: string;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A sample of the zoo's requests for /verify's end-to-end test: per client, up to `perClient`
 * requests, mismatches first (one per expected mistake), then matches; only requests that were sent.
 */
export function verifySample(outcomes: readonly Outcome[], perClient = 3): VerifyCase[] {
	const sample: VerifyCase[] = [];
	const byClient = new Map<ClientId, Outcome[]>();
	for (const outcome of outcomes) {
		if (outcome.log === null) continue;
		const list = byClient.get(outcome.request.client) ?? [];
		list.push(outcome);
		byClient.set(outcome.request.client, list);
	}
	for (const [client, list] of byClient) {
		const seen = new Set<string>();
		const mismatches = list.filter((outcome) => {
			const key = outcome.expectedIds.join('+');
			if (key === '' || seen.has(key)) return false;
			seen.add(key);
			return true;
		});
		const matches = list.filter((outcome) => outcome.expectedIds.length === 0);
		for (const outcome of [...mismatches, ...matches].slice(0, perClient)) {
			const log = outcome.log;
			if (log === null) continue;
			sample.push({
				id: outcome.request.id,
				client,
				name: outcome.request.name,
				method: log.method,
				url: log.url,
				authorization: log.authorization,
				curl: `curl -s -H ${shellQuote(`Authorization: ${log.authorization}`)} ${shellQuote(log.url)}`,
				kid: outcome.request.account.kid,
				macKey: outcome.request.account.macKey,
				expected: outcome.expectedIds.join('+') || 'match',
				triage: verdictText(outcome)
			});
		}
	}
	return sample;
}
