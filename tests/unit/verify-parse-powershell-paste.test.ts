import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis';
import { parseSignedRequest } from '$lib/read';
import { requestForLink } from '$lib/verify';
import { KEY, NONCE, TS, URL_CN, diagnosePaste, mac } from './verify-paste-fixtures';
import { CHROME, HEADER, PARAMS, VARIANTS, psAuthorization } from './verify-powershell-fixtures';
import { englishAll, thrownEnglish } from './verify-english';

describe('parseSignedRequest on a PowerShell command', () => {
	it.each(VARIANTS)('reads %s with nothing missing but the key', (_, text) => {
		expect(parseSignedRequest(text)).toMatchObject({
			kind: 'powershell',
			method: 'GET',
			url: URL_CN,
			authorization: PARAMS,
			authorizationValue: HEADER,
			missing: ['mac_key']
		});
	});

	it.each(VARIANTS)(
		'matches the signature of %s, end to end, and the case file says it was PowerShell',
		async (_, text) => {
			expect(await diagnosePaste(text, KEY)).toEqual({
				verdict: 'match',
				pastedAs: 'PowerShell'
			});
		}
	);

	it('matches a signature over the "path" bytes, which the -Uri alone would not', async () => {
		// Signed over %2D as the browser sent it; the -Uri shows the decoded "-".
		const signature = mac(
			`${TS}\n${NONCE}\nGET\n/account/profile/v1?client_id=abc%2D123\nopen.tapapis.cn\n443\n\n`
		);
		const text = `Invoke-WebRequest -UseBasicParsing -Uri "https://open.tapapis.cn/account/profile/v1?client_id=abc-123" \`
-Headers @{
"authority"="open.tapapis.cn"
  "method"="GET"
  "path"="/account/profile/v1?client_id=abc%2D123"
  "scheme"="https"
  "authorization"="${psAuthorization(signature)}"
}`;
		const request = parseSignedRequest(text);
		expect(request.url).toBe('https://open.tapapis.cn/account/profile/v1?client_id=abc%2D123');
		const verdict = async (url: string) =>
			(await diagnose({ authorization: request.authorization, url, macKey: KEY })).verdict;
		expect(await verdict(request.url ?? '')).toBe('match');
		expect(await verdict('https://open.tapapis.cn/account/profile/v1?client_id=abc-123')).not.toBe(
			'match'
		);
	});

	it('matches a POST signed over POST', async () => {
		const signature = mac(
			`${TS}\n${NONCE}\nPOST\n/account/profile/v1?client_id=abc123\nopen.tapapis.cn\n443\n\n`
		);
		const request = parseSignedRequest(
			`Invoke-WebRequest -Uri '${URL_CN}' -Method POST -Headers @{Authorization="${psAuthorization(signature)}"} -ContentType 'application/json' -Body '{}'`
		);
		expect(request.method).toBe('POST');
		const diagnosis = await diagnose({
			authorization: request.authorization,
			method: request.method,
			url: request.url ?? '',
			macKey: KEY
		});
		expect(diagnosis.verdict).toBe('match');
	});

	it('says the command sends no Authorization header when it has none', () => {
		for (const text of [
			`Invoke-WebRequest -Uri "${URL_CN}"`,
			`Invoke-WebRequest -Uri "${URL_CN}" -Headers @{"accept"="*/*"}`
		]) {
			expect(thrownEnglish(() => parseSignedRequest(text))).toMatch(
				'The PowerShell command sends no Authorization header (-Headers @{"authorization"="MAC …"}).'
			);
		}
	});

	it('tells a Bearer header apart from MAC', () => {
		expect(
			thrownEnglish(() =>
				parseSignedRequest(
					`Invoke-WebRequest -Uri "${URL_CN}" -Headers @{"authorization"="Bearer abc"}`
				)
			)
		).toMatch(/"Bearer", not MAC/);
	});

	it('keeps a URL that cannot be signed to correct, and asks for the URL', () => {
		const result = parseSignedRequest(
			`Invoke-WebRequest -Uri "ftp://h/p" -Headers @{"authorization"="${psAuthorization()}"}`
		);
		expect(result.url).toBe('ftp://h/p');
		expect(result.missing).toEqual(['url', 'mac_key']);
		expect(englishAll(result.understood).join(' ')).toMatch(/The URL cannot be signed: Only https/);
	});

	it('puts only the method, URL and Authorization header in a share link', () => {
		const link = requestForLink(CHROME);
		expect(link).not.toMatch(/session|cookie|Mozilla|sec-ch-ua/i);
		expect(parseSignedRequest(link)).toMatchObject({
			kind: 'curl',
			method: 'GET',
			url: URL_CN,
			authorization: PARAMS
		});
		const post = requestForLink(
			`Invoke-WebRequest -Uri "${URL_CN}" -Method "POST" -Headers @{"authorization"="${psAuthorization()}"} -Body "secret=1"`
		);
		expect(post).not.toContain('secret');
		expect(parseSignedRequest(post)).toMatchObject({ kind: 'curl', method: 'POST', url: URL_CN });
	});
});
