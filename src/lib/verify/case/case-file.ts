// Stage 3, the case: what leaves the page (a case file for the ticket, a share link without the
// mac_key) and what arrives from the signing page in the tab's memory. The case file is written in
// the page's language; the kid stays masked in every language.
import { authorizationHeader, type MacHeaderParams } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';
import type { Text } from '$lib/i18n/text';
import { macErrorText } from '$lib/i18n/mac-error-text';
import { urlRewritesText } from '$lib/i18n/url-rewrite-text';
import { renderText } from '$lib/i18n/render-text';
import { shownParts, shownString } from '$lib/i18n/shown-text';
import type { ClockCheck } from '$lib/diagnosis/clock-check';
import type { LikelyClient } from '$lib/diagnosis/likely-client';
import { maskKid, masker } from '$lib/diagnosis/mask-kid';
import type { Diagnosis } from '$lib/diagnosis/verdict';
import type { SignedRequestKind } from '$lib/read/parse-signed-request';

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
	/** Which of the vendor's clients most likely made it. */
	likelyClient?: LikelyClient;
	/** What the paste was, and what was read from it. */
	source?: { kind: SignedRequestKind; understood: Text[] };
	/** The signature is right but the service would refuse it (service-answer.ts): not a match. */
	refused?: boolean;
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

// The kinds are identifiers; a ticket reader needs words. In English the first three already read as
// words, and stay as they were so that earlier case files and their readers still agree.
const PASTED_AS: Record<SignedRequestKind, () => string> = {
	header: m.verify_case_kind_header,
	curl: m.verify_case_kind_curl,
	raw: m.verify_case_kind_raw,
	har: m.verify_case_kind_har,
	fetch: m.verify_case_kind_fetch,
	powershell: m.verify_case_kind_powershell,
	ndjson: m.verify_case_kind_ndjson,
	'log-lines': m.verify_case_kind_log_lines
};

/** A diagnosis or paste Text as plain text, in this module's language. */
function shown(value: Text): string {
	return shownString(renderText, value, {
		urlRewrites: urlRewritesText,
		macError: macErrorText
	});
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

/** A client_* Text as Markdown, its values in code spans. */
function markdown(value: Text): string {
	return shownParts(renderText, value)
		.map((part) => (part.code ? code(part.text) : part.text))
		.join('');
}

/** The case as Markdown for a ticket: inputs, verdict, diagnosis and the test vector. */
export function caseFileMarkdown(input: CaseInput, options: CaseOptions = {}): string {
	const revealKid = options.revealKid ?? false;
	const { diagnosis } = input;
	const params = shownParams(input.authorization, revealKid);
	const header = code(headerText(params));
	const out: string[] = [
		`# ${m.verify_case_title()}`,
		'',
		m.verify_case_created({ time: (options.createdAt ?? new Date()).toISOString() }),
		'',
		`## ${m.verify_case_request()}`,
		'',
		`- ${m.verify_case_method({ value: code(input.method.toUpperCase()) })}`,
		`- ${m.verify_case_url({ value: code(input.url) })}`,
		`- ${revealKid ? m.verify_case_authorization({ value: header }) : m.verify_case_authorization_masked({ value: header })}`
	];
	if (input.source) {
		out.push(`- ${m.verify_case_pasted_as({ kind: PASTED_AS[input.source.kind]() })}`);
		out.push(...input.source.understood.map((line) => `  - ${shown(line)}`));
	}
	out.push(
		'',
		`## ${m.verify_case_verdict()}`,
		'',
		`- ${m.verify_case_customer_mac({ value: code(diagnosis.customerMac) })}`,
		`- ${m.verify_case_expected_mac({ value: code(diagnosis.expectedMac) })}`,
		`- ${diagnosis.match ? (input.refused ? m.verify_case_refused() : m.verify_case_match_yes()) : m.verify_case_match_no()}`,
		`- ${shown(diagnosis.message)}`
	);
	if (input.clock) out.push(`- ${m.verify_case_clock({ message: shown(input.clock.message) })}`);
	if (input.likelyClient) out.push(`- ${m.client_label()} ${markdown(input.likelyClient.summary)}`);
	if (diagnosis.explanations.length > 0) {
		out.push('', `## ${m.verify_case_diagnosis()}`, '');
		diagnosis.explanations.forEach((reproduction, index) => {
			if (index > 0) out.push('');
			out.push(
				`${index + 1}. **${shown(reproduction.title)}** (\`${reproduction.id}\`)`,
				`   ${m.verify_case_fix({ fix: shown(reproduction.fix) })}`,
				'',
				`   ${m.verify_case_signed_base()}`,
				'',
				...baseStringBlock(reproduction.baseString)
					.split('\n')
					.map((line) => `   ${line}`)
			);
		});
	} else if (diagnosis.keyOrUnseenInputs) {
		out.push('', `## ${m.verify_case_diagnosis()}`, '', shown(diagnosis.message));
	}
	out.push(
		'',
		`## ${m.verify_case_expected_base()}`,
		'',
		baseStringBlock(diagnosis.expectedBaseString),
		'',
		`## ${m.verify_case_test_vector()}`,
		'',
		'```json',
		JSON.stringify(testVector(input, options), null, 2),
		'```',
		''
	);
	// The kid can also sit elsewhere (access_token in a query equals it); mask every occurrence.
	return masker(input.authorization.id, revealKid)(out.join('\n'));
}
