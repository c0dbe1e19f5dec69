// The headline is the service's answer, not the signature's: a request whose mac is right can still
// be refused. One home for that judgement, used by /verify, the triage (page and CLI) and the sandbox
// server's diagnosis header, so that all four say the same for the same request.
import { isTimestamp } from '$lib/mac';
import { text, type Text } from '$lib/i18n/text';
import type { HeaderFormat } from '$lib/read/header-format';
import { DIAGNOSIS_STOPPED, type Diagnosis } from './verdict';

/**
 * Why a request whose signature is right would still not be accepted, most certain first:
 * - 'ts-not-seconds', 'ts-milliseconds': spec §5.2 says ts is whole seconds; §7 names `invalid_time`;
 * - 'ext-not-signed': spec §5.3 line 7 is empty, so the service's mac differs from one that signs
 *   the header's ext there;
 * - 'ts-outside-window': ts too far from the time it was sent, by a window the spec does not state
 *   (§5.8): an assumption, said so;
 * - 'nonce-reused': the spec does not say a reused nonce is refused (§5.8): said so;
 * - 'header-format': the header is not written as the spec shows it (§5.1: `MAC`, each value in
 *   double quotes); whether the service reads it, the spec does not say: said so.
 */
export type Refusal =
	| 'ts-not-seconds'
	| 'ts-milliseconds'
	| 'ext-not-signed'
	| 'ts-outside-window'
	| 'nonce-reused'
	| 'header-format';

export const REFUSALS: readonly Refusal[] = [
	'ts-not-seconds',
	'ts-milliseconds',
	'ext-not-signed',
	'ts-outside-window',
	'nonce-reused',
	'header-format'
];

/** The refusals the spec leaves open: the service may refuse, or may not. */
export function refusalUncertain(refusal: Refusal): boolean {
	return refusal === 'nonce-reused' || refusal === 'header-format';
}

/** What a request shows beside its right signature, as each of the four readers of it knows it. */
export interface AnswerInput {
	ts: string;
	/** The header's ext part; undefined or '' when it has none. */
	ext?: string | undefined;
	/**
	 * Whether ts lay outside the window at the time the request was sent (clockCheck against the
	 * logged time, or the sandbox's clock when it received it); null without a send time: the window
	 * is then not judged against the moment the request is read.
	 */
	outsideWindow: boolean | null;
	/** The number of an earlier request with the same kid and nonce, or 0 when one was but unnumbered. */
	nonceFirstUsedAt: number | null;
	/** How the header departs from the spec's form (headerFormatOf); null or absent: it does not. */
	headerFormat?: HeaderFormat | null;
}

/**
 * A ts of 13 digits (leading zeros aside) is milliseconds since 1970 between 2001 and 2286: never a
 * time in seconds the service would take, whatever the clock says.
 */
export function isMillisecondsTs(ts: string): boolean {
	return isTimestamp(ts) && ts.replace(/^0+/, '').length === 13;
}

/** The first reason the service would refuse a request whose signature is right; null: none seen. */
export function refusalOf(input: AnswerInput): Refusal | null {
	if (!isTimestamp(input.ts)) return 'ts-not-seconds';
	if (isMillisecondsTs(input.ts)) return 'ts-milliseconds';
	if (input.ext !== undefined && input.ext !== '') return 'ext-not-signed';
	if (input.outsideWindow === true) return 'ts-outside-window';
	if (input.nonceFirstUsedAt !== null) return 'nonce-reused';
	if (input.headerFormat) return 'header-format';
	return null;
}

/**
 * The verdict all four readers give: 'match' only when nothing seen says the service would refuse;
 * 'refused' when the signature is right but it would (or, for a nonce, may) be refused.
 */
export type ServiceVerdict = 'match' | 'refused' | 'mismatch';

/**
 * The headline as an id, in ASCII: `match`, `refused:<refusal>`, or `mismatch:<mistake id,
 * unexplained or diagnosis-stopped>`. The sandbox's X-Sandbox-Diagnosis carries it; the tests compare
 * it across /verify, /triage, the CLI and the sandbox server.
 */
export function headlineId(
	verdict: ServiceVerdict,
	refusal: Refusal | null,
	mistake: string | null
): string {
	if (verdict === 'match') return 'match';
	if (verdict === 'refused') return `refused:${refusal ?? 'unknown'}`;
	return `mismatch:${mistake ?? 'unexplained'}`;
}

const REFUSAL_TEXTS = {
	'ts-not-seconds': 'diagnosis_refused_ts_not_seconds',
	'ts-milliseconds': 'diagnosis_refused_ts_milliseconds',
	'ext-not-signed': 'diagnosis_refused_ext',
	'ts-outside-window': 'diagnosis_refused_window',
	'nonce-reused': 'diagnosis_refused_nonce',
	'header-format': 'diagnosis_refused_header_format'
} as const satisfies Record<Refusal, string>;

/**
 * The headline's sentence for a right signature the service would refuse: what it answers first,
 * then why. `first` names the earlier request with the same nonce, where one is known.
 */
export function refusalText(
	refusal: Refusal,
	detail: { ts: string; first?: number | null; format?: HeaderFormat | null }
): Text {
	switch (refusal) {
		case 'header-format':
			return text('diagnosis_refused_header_format', { seen: detail.format?.seen ?? '' });
		case 'ts-not-seconds':
		case 'ts-milliseconds':
			return text(REFUSAL_TEXTS[refusal], { ts: detail.ts.slice(0, 30) });
		case 'nonce-reused':
			return detail.first === null || detail.first === undefined || detail.first === 0
				? text('diagnosis_refused_nonce_unnumbered')
				: text('diagnosis_refused_nonce', { first: String(detail.first) });
		default:
			return text(REFUSAL_TEXTS[refusal]);
	}
}

/** What the headline says of a request: the service's verdict, why it refuses, and the id of both. */
export interface Judgement {
	verdict: ServiceVerdict;
	refusal: Refusal | null;
	/** headlineId's id. */
	headline: string;
}

/**
 * The judgement of a request from its diagnosis and what it shows beside it: every reader (/verify,
 * the sandbox server) calls this, and the triage's verdicts follow the same refusalOf.
 */
export function judge(diagnosis: Diagnosis, answer: AnswerInput): Judgement {
	if (!diagnosis.match) {
		const mistake =
			diagnosis.verdict === 'stopped' ? DIAGNOSIS_STOPPED : (diagnosis.explanations[0]?.id ?? null);
		return { verdict: 'mismatch', refusal: null, headline: headlineId('mismatch', null, mistake) };
	}
	// A mac that signs the spec's empty line 7 is what the service signs, ext or not.
	const refusal = refusalOf({ ...answer, ext: diagnosis.signedExt ? answer.ext : '' });
	const verdict = refusal === null ? 'match' : 'refused';
	return { verdict, refusal, headline: headlineId(verdict, refusal, null) };
}
