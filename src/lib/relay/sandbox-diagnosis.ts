// The sandbox server's diagnosis header (`npm run proxy -- --serve-sandbox`): to a request whose mac
// is wrong, the catalogued mistake that reproduces it and the client that most likely made it,
// `X-Sandbox-Diagnosis: mistake=host-other-deployment; client=docs-node-old; confidence=high`. Node
// only: the relay's command line wraps the sandbox service's answers with it, and the service
// itself (which the page runs too) knows nothing of it, so the diagnosis stays out of the page.
import { parseAuthorization, type MacHeaderParams } from '$lib/mac';
import { diagnose } from '$lib/diagnosis/diagnose';
import { likelyClient } from '$lib/diagnosis/likely-client';
import { DIAGNOSIS_STOPPED } from '$lib/diagnosis/verdict';
import type { SandboxState } from '$lib/sandbox/service';

export const DIAGNOSIS_HEADER = 'x-sandbox-diagnosis';

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
 * The header's value: `mistake=<id, a+b for a pair, unexplained, or diagnosis-stopped for a URL too
 * long to diagnose>; client=<id, several joined by |, or unknown>; confidence=<high, medium, low or
 * none>`. Ids only, in ASCII.
 */
export async function diagnosisHeaders(mismatch: SandboxMismatch): Promise<Record<string, string>> {
	let mistake = 'unexplained';
	try {
		const diagnosis = await diagnose({
			authorization: mismatch.params,
			method: mismatch.method,
			url: mismatch.url,
			uriForm: mismatch.uriForm,
			macKey: mismatch.macKey
		});
		mistake =
			diagnosis.verdict === 'stopped'
				? DIAGNOSIS_STOPPED
				: (diagnosis.explanations[0]?.id ?? 'unexplained');
	} catch {
		// A URL the diagnosis cannot sign: nothing reproduces it.
	}
	const client = likelyClient({
		authorization: mismatch.authorization,
		mistakes: mistake,
		url: mismatch.url
	});
	return {
		[DIAGNOSIS_HEADER]: `mistake=${mistake}; client=${client.id}; confidence=${client.confidence ?? 'none'}`
	};
}

/**
 * The sandbox's answer, with the diagnosis header when it refuses a wrong mac: a 401 whose body
 * carries the base string the sandbox signed (only that refusal does), for one of its own kids.
 * `target` is the path and query as received.
 */
export async function withDiagnosis(
	state: SandboxState,
	request: Request,
	target: string | undefined,
	response: Response
): Promise<Response> {
	if (response.status !== 401) return response;
	const authorization = request.headers.get('authorization');
	if (authorization === null) return response;
	try {
		const body = (await response.clone().json()) as { data?: { sandbox_base_string?: unknown } };
		if (typeof body.data?.sandbox_base_string !== 'string') return response;
		const params = parseAuthorization(authorization);
		const token = state.tokens.find((candidate) => candidate.kid === params.id);
		if (!token) return response;
		const url = new URL(request.url);
		// The host and port as the client wrote them in Host, the path and query as received.
		const host = request.headers.get('host') ?? url.host;
		const headers = await diagnosisHeaders({
			authorization,
			params,
			method: request.method,
			url: target === undefined ? request.url : `${url.protocol}//${host}${target}`,
			uriForm: target === undefined ? 'browser' : 'as-written',
			macKey: token.macKey
		});
		for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
	} catch {
		// The answer stands without its diagnosis.
	}
	return response;
}
