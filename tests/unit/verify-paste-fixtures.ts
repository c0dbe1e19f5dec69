// One signed request and what the verify page does with a paste of it, shared by the tests of the
// paste readers (fetch, HAR, PowerShell).
import { createHmac } from 'node:crypto';
import { caseFileMarkdown } from '$lib/verify';
import { diagnose, type Verdict } from '$lib/diagnosis';
import { parseSignedRequest } from '$lib/read';

export const KEY = 'k7Qx2mZpR4vN8sLw';
export const KID = 'kid-1234567890';
export const TS = '1700000000';
export const NONCE = 'bm9uY2Ux';
export const URL_CN = 'https://open.tapapis.cn/account/profile/v1?client_id=abc123';

/** The customer's signer, apart from the app: node:crypto over the literal base string. */
export function mac(base: string): string {
	return createHmac('sha1', KEY).update(base, 'utf8').digest('base64');
}

export const GOOD_MAC = mac(
	`${TS}\n${NONCE}\nGET\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn\n443\n\n`
);

/** The verdict on a pasted request, and what its case file says it was pasted as. */
export async function diagnosePaste(
	text: string,
	macKey: string
): Promise<{ verdict: Verdict; pastedAs: string | undefined }> {
	const request = parseSignedRequest(text);
	const diagnosis = await diagnose({
		authorization: request.authorization,
		method: request.method,
		url: request.url ?? '',
		uriForm: request.uriForm,
		macKey
	});
	const markdown = caseFileMarkdown({
		authorization: request.authorization,
		method: request.method ?? 'GET',
		url: request.url ?? '',
		diagnosis,
		source: { kind: request.kind, understood: request.understood }
	});
	return { verdict: diagnosis.verdict, pastedAs: /^- Pasted as: (.*)$/m.exec(markdown)?.[1] };
}
