// The sandbox server's diagnosis header (`npm run proxy -- --serve-sandbox`): to a request whose mac
// is wrong, the catalogued mistake that reproduces it and the client that most likely made it,
// `X-Sandbox-Diagnosis: mistake=uri-with-port; client=docs-java; confidence=high`. Node only: the
// relay's command line passes it to the sandbox service as a hook, and the page, which runs the
// same service, never imports it, so the diagnosis stays out of the page's bundle.
import { diagnose } from '../diagnosis/diagnose';
import { likelyClient } from '../diagnosis/likely-client';
import type { SandboxMismatch } from '../sandbox/service';

export const DIAGNOSIS_HEADER = 'x-sandbox-diagnosis';

/**
 * The header's value: `mistake=<id, a+b for a pair, or unexplained>; client=<id, several joined by
 * |, or unknown>; confidence=<high, medium, low or none>`. Ids only, in ASCII.
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
		mistake = diagnosis.explanations[0]?.id ?? 'unexplained';
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
