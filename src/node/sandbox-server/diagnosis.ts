// The sandbox server's answer to a request that fails verification says why, in two headers:
// X-Sandbox-Diagnosis (`reason=mac-mismatch; mistake=host-other-deployment; client=unknown;
// confidence=none; verdict=mismatch; headline=mismatch:host-other-deployment`, or
// `reason=ts-outside-window; verdict=refused; headline=refused:ts-milliseconds` …; for a host signed
// that is not the one called, also `signed=<host>; called=<host:port>; hint="signed <host> but
// called <host:port>: sign the host you call"`) and X-Sandbox-Base-String (the base string the
// sandbox built). Node only: the service itself, which the page runs too, knows nothing of the
// diagnosis, so the catalogue stays out of the page.
import type { MacHeaderParams } from '$lib/mac';
import { diagnose } from '$lib/diagnosis/diagnose';
import { likelyClient } from '$lib/diagnosis/likely-client';
import { headerFormatOf } from '$lib/read/header-format';
import { DIAGNOSIS_STOPPED, type Diagnosis } from '$lib/diagnosis/verdict';
import { headlineId, judge } from '$lib/diagnosis/service-answer';
import type { SandboxOutcome, SandboxToken, SandboxVerdict } from '$lib/sandbox/service';

export const DIAGNOSIS_HEADER = 'x-sandbox-diagnosis';
export const BASE_STRING_HEADER = 'x-sandbox-base-string';

/** A request whose mac is wrong, as the sandbox received it, with its kid's key. */
export interface SandboxMismatch {
	/** The Authorization header as received. */
	authorization: string;
	params: MacHeaderParams;
	method: string;
	/** The URL: its host as Host writes it, its path and query the bytes received when known. */
	url: string;
	/** Which bytes the URL's path and query are: as received ('as-written'), or the parser's. */
	uriForm: 'as-written' | 'browser';
	macKey: string;
}

/**
 * Mistakes whose signer put another host name on the host line: the called host may be no
 * deployment's at all (a sandbox on loopback), so the sentence names both hosts and no deployment.
 */
const OTHER_HOST = new Set(['host-other-deployment', 'host-legacy', 'host-as-written']);

/**
 * The host a reproduction signed when it is another host name than the one called, else null.
 * Line 5 of its base string is the host line (spec §5.3).
 */
function otherHostSigned(
	explanation: { mistakes: readonly { id: string }[]; baseString: string },
	called: string
): string | null {
	if (!explanation.mistakes.some((mistake) => OTHER_HOST.has(mistake.id))) return null;
	const signed = explanation.baseString.split('\n')[4];
	return signed === undefined || signed === '' || signed.toLowerCase() === called.toLowerCase()
		? null
		: signed;
}

/**
 * What the diagnosis makes of a wrong mac: `mistake=<id, a+b for a pair, unexplained, or
 * diagnosis-stopped for a URL too long to diagnose>; client=<id, or unknown>;
 * confidence=<high, medium, or none for unknown>`, then for another host signed than the one called
 * `; signed=<host>; called=<host:port>; hint="signed <host> but called <host:port>: sign the host
 * you call"`. ASCII (the caller makes it header-safe).
 */
export async function mismatchDiagnosis(
	mismatch: SandboxMismatch,
	known: Diagnosis | null = null
): Promise<string> {
	let mistake = 'unexplained';
	let hostHint = '';
	try {
		const diagnosis =
			known ??
			(await diagnose({
				authorization: mismatch.params,
				method: mismatch.method,
				url: mismatch.url,
				uriForm: mismatch.uriForm,
				macKey: mismatch.macKey
			}));
		mistake =
			diagnosis.verdict === 'stopped'
				? DIAGNOSIS_STOPPED
				: (diagnosis.explanations[0]?.id ?? 'unexplained');
		const first = diagnosis.explanations[0];
		const url = new URL(mismatch.url);
		const signed = first === undefined ? null : otherHostSigned(first, url.hostname);
		// The address as called, its port named even when it is the scheme's default.
		const called = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
		if (signed !== null && !/["\\;]/.test(signed))
			hostHint = `; signed=${signed}; called=${called}; hint="signed ${signed} but called ${called}: sign the host you call"`;
	} catch {
		// A URL the diagnosis cannot sign: nothing reproduces it.
	}
	const client = likelyClient({
		authorization: mismatch.authorization,
		mistakes: mistake,
		url: mismatch.url
	});
	return `mistake=${mistake}; client=${client.id}; confidence=${client.confidence ?? 'none'}${hostHint}`;
}

/**
 * The sandbox's answers that the headline judges (service-answer.ts): those where the signature
 * decides, or where a right signature is refused for its ts or its nonce.
 */
const JUDGED: ReadonlySet<SandboxVerdict> = new Set([
	'header-format',
	'mac-mismatch',
	'ts-not-seconds',
	'ts-outside-window',
	'nonce-reused'
]);

/**
 * X-Sandbox-Diagnosis for an answer: null for a request that passed; `reason=<verdict>` for the
 * others. Where the signature decides (JUDGED) and the kid's key is known, for a mismatch the
 * diagnosis of its mac follows, and then the verdict and the headline that /verify and the triage
 * give the same request: `verdict=<match, refused or mismatch>; headline=<headlineId>`. The sandbox's
 * clock at receipt is the request's send time; its nonce memory says whether the nonce was used.
 * `url` is the URL as called, its path and query as received.
 */
export async function diagnosisOf(
	outcome: SandboxOutcome,
	request: { method: string; url: string; authorization: string | null },
	tokenFor: (kid: string) => SandboxToken | undefined = () => undefined
): Promise<string | null> {
	if (outcome.verdict === 'ok') return null;
	const reason = `reason=${outcome.verdict}`;
	const { params } = outcome;
	const token = outcome.token ?? (params === null ? undefined : tokenFor(params.id));
	if (
		!JUDGED.has(outcome.verdict) ||
		params === null ||
		token === undefined ||
		request.authorization === null
	)
		return reason;
	let diagnosis: Diagnosis | null = null;
	try {
		diagnosis = await diagnose({
			authorization: params,
			method: request.method,
			url: request.url,
			uriForm: 'as-written',
			macKey: token.macKey
		});
	} catch {
		// A URL the diagnosis cannot sign: nothing reproduces it.
	}
	if (diagnosis === null || !diagnosis.match) {
		const found = await mismatchDiagnosis(
			{
				authorization: request.authorization,
				params,
				method: request.method,
				url: request.url,
				uriForm: 'as-written',
				macKey: token.macKey
			},
			diagnosis
		);
		const mistake = /^mistake=([^;]*)/.exec(found)?.[1] ?? 'unexplained';
		return `${reason}; ${found}; verdict=mismatch; headline=${headlineId('mismatch', null, mistake)}`;
	}
	// The sandbox's clock when it received the request is its send time; its nonce memory says
	// whether the nonce was used (by a request it does not number).
	const { verdict, headline } = judge(diagnosis, {
		ts: params.ts,
		ext: params.ext,
		outsideWindow: outcome.verdict === 'ts-outside-window',
		nonceFirstUsedAt: outcome.verdict === 'nonce-reused' ? 0 : null,
		headerFormat: headerFormatOf(request.authorization)
	});
	return `${reason}; verdict=${verdict}; headline=${headline}`;
}

/**
 * A base string as one header line: `\n` for a line feed, `\\` for a backslash, and `\uXXXX` for
 * every other character outside printable ASCII, so that any base string fits a header.
 */
export function headerSafe(text: string): string {
	let out = '';
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === 0x0a) out += '\\n';
		else if (code === 0x5c) out += '\\\\';
		else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
		else out += text[i];
	}
	return out;
}
