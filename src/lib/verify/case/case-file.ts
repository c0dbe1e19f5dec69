// Stage 3, the case: what leaves the page (a case file for the ticket, a share link without the
// mac_key) and what arrives from the signing page in the tab's memory.
import type { Text } from '$lib/i18n/text';
import { authorizationHeader, type MacHeaderParams } from '$lib/mac';
import { render as renderDiagnosis } from 'virtual:messages/diagnosis';
import { render as renderPaste } from 'virtual:messages/paste';
import { shownString } from '../paste/shown-text';
import type { ClockCheck } from '../diagnosis/clock-check';
import type { Diagnosis } from '../diagnosis/verdict';
import type { SignedRequestKind } from '../paste/parse-signed-request';

/**
 * What a case file is made of. There is deliberately no mac_key here: a case file is attached to
 * tickets and mails, and what it cannot receive it cannot leak.
 */
export interface CaseInput {
	authorization: MacHeaderParams;
	method: string;
	url: string;
	diagnosis: Diagnosis;
	clock?: ClockCheck;
	/** What the paste was, and what was read from it. */
	source?: { kind: SignedRequestKind; understood: Text[] };
}

export interface CaseOptions {
	/** Show the kid in full; masked by default, as it names the user's token. */
	revealKid?: boolean;
	createdAt?: Date;
}

/** A reproducible case for the customer's own tests: inputs, base string and the right mac. */
export interface TestVector {
	request: { method: string; url: string };
	base_string: string;
	header: string;
	expected_mac: string;
}

// The kinds are identifiers; a ticket reader needs words. The first three already read as words,
// and stay as they were so that earlier case files and their readers still agree.
const PASTED_AS: Record<SignedRequestKind, string> = {
	header: 'header',
	curl: 'curl',
	raw: 'raw',
	har: 'HAR file',
	fetch: 'fetch call',
	powershell: 'PowerShell'
};

/** A diagnosis or paste Text as plain text, in this module's language. */
function shown(value: Text): string {
	return shownString(
		(text) => (text.key.startsWith('paste_') ? renderPaste(text) : renderDiagnosis(text)),
		value
	);
}

/** First 4 and last 2 characters of a long kid, which is enough to tell two tokens apart. */
export function maskKid(kid: string): string {
	return kid.length >= 10 ? `${kid.slice(0, 4)}...${kid.slice(-2)}` : '<kid>';
}

function shownParams(params: MacHeaderParams, revealKid: boolean): MacHeaderParams {
	return { ...params, id: revealKid ? params.id : maskKid(params.id) };
}

/** The header as text, even for values no header can carry (quoted as JSON shows them). */
function headerText(params: MacHeaderParams): string {
	try {
		return authorizationHeader(params);
	} catch {
		return `MAC ${Object.entries(params)
			.map(([name, value]) => `${name}=${JSON.stringify(value)}`)
			.join(',')}`;
	}
}

/** Every occurrence of the kid masked, unless it is to be shown or too short to find safely. */
function masker(kid: string, revealKid: boolean): (text: string) => string {
	return revealKid || kid.length < 4
		? (text) => text
		: (text) => text.split(kid).join(maskKid(kid));
}

/**
 * The correct header and base string for this request, as a test vector. With the kid masked, a
 * kid that also sits in the URL (access_token equals it) is masked there too, which makes the
 * vector readable but not runnable; revealKid gives a runnable one.
 */
export function testVector(input: CaseInput, options: CaseOptions = {}): TestVector {
	const revealKid = options.revealKid ?? false;
	const mask = masker(input.authorization.id, revealKid);
	const params = shownParams(input.authorization, revealKid);
	return {
		request: { method: input.method.toUpperCase(), url: mask(input.url) },
		base_string: mask(input.diagnosis.expectedBaseString),
		header: headerText({ ...params, mac: input.diagnosis.expectedMac }),
		expected_mac: input.diagnosis.expectedMac
	};
}

/** A base string line by line, escapes visible, so that no LF or CR is lost in Markdown. */
function baseStringBlock(base: string): string {
	const lines = base.split('\n');
	const shown = lines.map((line, index) =>
		index === lines.length - 1
			? JSON.stringify(line).slice(1, -1)
			: `${JSON.stringify(line).slice(1, -1)}\\n`
	);
	if (shown.at(-1) === '') shown.pop();
	return ['```text', ...shown, '```'].join('\n');
}

function code(text: string): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const fence = '`'.repeat(longest + 1);
	return `${fence}${longest > 0 ? ' ' : ''}${text}${longest > 0 ? ' ' : ''}${fence}`;
}

/** The case as Markdown for a ticket: inputs, verdict, diagnosis and the test vector. */
export function caseFileMarkdown(input: CaseInput, options: CaseOptions = {}): string {
	const revealKid = options.revealKid ?? false;
	const { diagnosis } = input;
	const params = shownParams(input.authorization, revealKid);
	const out: string[] = [
		'# MAC signature case',
		'',
		`Created ${(options.createdAt ?? new Date()).toISOString()}. The mac_key is not in this file.`,
		'',
		'## Request',
		'',
		`- Method: ${code(input.method.toUpperCase())}`,
		`- URL: ${code(input.url)}`,
		`- Authorization${revealKid ? '' : ' (kid masked)'}: ${code(headerText(params))}`
	];
	if (input.source) {
		out.push(`- Pasted as: ${PASTED_AS[input.source.kind]}`);
		out.push(...input.source.understood.map((line) => `  - ${shown(line)}`));
	}
	out.push(
		'',
		'## Verdict',
		'',
		`- Customer's mac: ${code(diagnosis.customerMac)}`,
		`- Expected mac: ${code(diagnosis.expectedMac)}`,
		`- Match: ${diagnosis.match ? 'yes' : 'no'}`,
		`- ${shown(diagnosis.message)}`
	);
	if (input.clock) out.push(`- Clock: ${shown(input.clock.message)}`);
	if (diagnosis.explanations.length > 0) {
		out.push('', '## Diagnosis', '');
		diagnosis.explanations.forEach((reproduction, index) => {
			if (index > 0) out.push('');
			out.push(
				`${index + 1}. **${shown(reproduction.title)}** (\`${reproduction.id}\`)`,
				`   Fix: ${shown(reproduction.fix)}`,
				'',
				'   Base string it signed:',
				'',
				...baseStringBlock(reproduction.baseString)
					.split('\n')
					.map((line) => `   ${line}`)
			);
		});
	} else if (diagnosis.keyOrUnseenInputs) {
		out.push('', '## Diagnosis', '', shown(diagnosis.message));
	}
	out.push(
		'',
		'## Expected base string',
		'',
		baseStringBlock(diagnosis.expectedBaseString),
		'',
		'## Test vector',
		'',
		'```json',
		JSON.stringify(testVector(input, options), null, 2),
		'```',
		''
	);
	// The kid can also sit elsewhere (access_token in a query equals it); mask every occurrence.
	return masker(input.authorization.id, revealKid)(out.join('\n'));
}
