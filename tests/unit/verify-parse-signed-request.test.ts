import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { detectKind, parseSignedRequest } from '$lib/read';
import { englishAll, thrownEnglish } from './verify-english';

const params = { id: 'kid-1234567890', ts: '1700000000', nonce: 'bm9uY2Ux', mac: 'q/+Ab==' };
const header = `MAC id="${params.id}",ts="${params.ts}",nonce="${params.nonce}",mac="${params.mac}"`;
const url = 'https://open.tapapis.cn/account/profile/v1?client_id=abc123';

describe('detectKind', () => {
	it.each([
		[header, 'header'],
		[`Authorization: ${header}`, 'header'],
		[`MAC id="a",\n ts="1",\n nonce="n",\n mac="m"`, 'header'],
		['Authorization: Bearer abc', 'header'],
		[`curl '${url}' -H 'Authorization: ${header}'`, 'curl'],
		[`  $ curl.exe ${url}`, 'curl'],
		['GET /account/profile/v1 HTTP/1.1\nHost: h', 'raw'],
		[`Authorization: ${header}\nHost: open.tapapis.cn`, 'raw'],
		[':method: GET\n:path: /p', 'raw'],
		['{"log":{"entries":[]}}', 'har'],
		['\ufeff\n  {\n  "log": {\n    "version": "1.2",', 'har'],
		['{"entries": []}', null],
		['[{"log": 1}]', null],
		[`fetch("${url}")`, 'fetch'],
		[`fetch("${url}", {\n  "headers": {}\n});`, 'fetch'],
		[`  await   fetch ("${url}")`, 'fetch'],
		[`await fetch("${url}", {\n    "method": "GET"\n});`, 'fetch'],
		[`fetcher("${url}")`, null],
		[`window.fetch("${url}")`, null],
		[
			'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession\n$session.UserAgent = "x"',
			'powershell'
		],
		[
			'\ufeff\r\n  $Session.Cookies.Add((New-Object System.Net.Cookie("a", "b", "/", "h")))',
			'powershell'
		],
		[
			`Invoke-WebRequest -UseBasicParsing -Uri "${url}" \`\n-Headers @{\n"accept"="*/*"\n}`,
			'powershell'
		],
		[`invoke-restmethod '${url}'`, 'powershell'],
		[`# signed by the SDK\r\n$r = Invoke-RestMethod -Uri '${url}'`, 'powershell'],
		[`$headers = @{}\n\t$response=Invoke-WebRequest -Uri '${url}' -Headers $headers`, 'powershell'],
		[`$sessionId = 1\nWrite-Host $sessionId`, null],
		[`PS C:\\> Invoke-WebRequest -Uri '${url}'`, null],
		[`Invoke-WebRequestX -Uri '${url}'`, null],
		[`curl '${url}' -H 'X-Note: Invoke-WebRequest -Uri'`, 'curl'],
		[`curl '${url}' \\\n  --data-raw 'a'`, 'curl'],
		[`$ curl '${url}'`, 'curl'],
		['POST /p HTTP/1.1\nHost: h\n\n$session = 1', 'raw'],
		[`Authorization: ${header}\n\n# Invoke-WebRequest`, 'header'],
		[`fetch("${url}", {"headers": {"x": "\\nInvoke-WebRequest"}})`, 'fetch'],
		['hello world', null],
		['', null]
	])('%j is %s', (text, kind) => {
		expect(detectKind(text)).toBe(kind);
	});
});

describe('parseSignedRequest', () => {
	it('reads a header alone, and says the URL is still missing', () => {
		const result = parseSignedRequest(`Authorization: ${header}`);
		expect(result.kind).toBe('header');
		expect(result.authorization).toEqual(params);
		expect(result.url).toBeUndefined();
		expect(result.method).toBeUndefined();
		expect(result.missing).toEqual(['url', 'mac_key']);
	});

	it('reads a Chrome bash curl paste: URL, method and the lower-case authorization header', () => {
		const result = parseSignedRequest(
			`curl '${url}' \\\n  -H 'accept: */*' \\\n  -H 'authorization: ${header}' \\\n  --compressed`
		);
		expect(result).toMatchObject({ kind: 'curl', method: 'GET', url, authorization: params });
		expect(result.missing).toEqual(['mac_key']);
		expect(englishAll(result.understood)).toContain(
			'kid, ts, nonce and mac from the Authorization header.'
		);
	});

	it('reads a Chrome cmd curl paste', () => {
		const cmd = [
			`curl ^"https://open.tapapis.cn/account/profile/v1?client_id=abc123^&x=1^" ^`,
			`  -H ^"accept: */*^" ^`,
			`  -H ^"authorization: MAC id=^\\^"kid-1234567890^\\^",ts=^\\^"1700000000^\\^",nonce=^\\^"bm9uY2Ux^\\^",mac=^\\^"q/+Ab==^\\^"^" ^`,
			'  --compressed'
		].join('\r\n');
		const result = parseSignedRequest(cmd);
		expect(result.kind).toBe('curl');
		expect(result.url).toBe(`${url}&x=1`);
		expect(result.authorization).toEqual(params);
	});

	it('reads a raw CRLF request and reports the assumed port', () => {
		const result = parseSignedRequest(
			`GET /account/profile/v1?client_id=abc123 HTTP/1.1\r\nHost: open.tapapis.cn\r\nAuthorization: ${header}\r\n\r\n`
		);
		expect(result).toMatchObject({ kind: 'raw', method: 'GET', url, authorization: params });
		expect(englishAll(result.understood)).toContain('Method GET from the request line.');
		expect(englishAll(result.understood)).toContain(
			'Port 443 assumed: a raw request does not say its scheme.'
		);
	});

	it('reads a raw request without Host, with the URL missing', () => {
		const result = parseSignedRequest(`GET /p HTTP/1.1\nAuthorization: ${header}\n`);
		expect(result.missing).toEqual(['url', 'mac_key']);
		expect(result.method).toBe('GET');
	});

	it.each([
		[
			'',
			/Paste the Authorization header, .*the PowerShell command, the fetch call or the HAR file/
		],
		['   \n ', /Paste the Authorization header/],
		['hello world', /Could not tell what this is: .*a fetch call .* or a HAR file\./],
		['hello world', /a PowerShell command \(devtools’ "Copy as PowerShell"\), a fetch call/],
		[
			`PS C:\\> Invoke-WebRequest -Uri '${url}'`,
			/It mentions Invoke-WebRequest, but not at the start of a line: paste the PowerShell command alone, as devtools’ "Copy as PowerShell" writes it\./
		],
		[
			`Invoke-WebRequest -Uri '${url}' -Headers @{'accept'='*/*'}`,
			/^The PowerShell command sends no Authorization header \(-Headers @\{"authorization"="MAC …"\}\)\.$/
		],
		[`Invoke-WebRequest -Uri "${url}`, /double-quoted string opened at line 1, column 24/],
		[
			'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession',
			/holds no Invoke-WebRequest/
		],
		['{"entries": []}', /It looks like JSON, but not a HAR file, which has a "log" object\./],
		['{"log": {"entries": []}}', /The HAR holds no requests/],
		['{"log": {"entries": [', /^The HAR is cut short: it ends at entry 1\./],
		[`fetch("${url}")`, /The fetch call sends no Authorization header/],
		[`fetch('${url}')`, /double-quoted string/],
		['Authorization: Bearer abc', /"Bearer", not MAC/],
		[`curl '${url}`, /single quote/],
		[`curl '${url}' -H 'accept: */*'`, /sends no Authorization header/],
		['GET /p HTTP/1.1\nHost: h\n', /no Authorization header line/],
		[`curl ${url} -H 'Authorization: MAC id="a"'`, /Missing ts, nonce, mac/],
		['curl “https://h/” -H “Authorization: MAC”', /Authorization/],
		['“MAC id=x”', /curly quotes/],
		['x'.repeat(300_000), /too long/]
	])('refuses %j with a MacInputError saying why', (text, message) => {
		expect(() => parseSignedRequest(text)).toThrow(MacInputError);
		expect(thrownEnglish(() => parseSignedRequest(text))).toMatch(message);
	});

	it('throws nothing but MacInputError for random junk', () => {
		let seed = 12345;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const alphabet = `curlGETMAC:/?"'\\^$ \n\r\t=,#&%@-HX\u0000\u00ff\ud83d\udd11`;
		const prefixes = [
			'',
			'curl ',
			'GET ',
			'Authorization: MAC ',
			':path: ',
			'MAC id="',
			'{"log":{"entries":[{"request":{"headers":[{"name":"Authorization","value":"MAC ',
			'fetch("https://h/", {"headers": {"authorization": "MAC ',
			'Invoke-WebRequest -Uri "https://h/" -Headers @{"authorization"="MAC ',
			"$session = New-Object X\nInvoke-RestMethod 'https://h/' -Headers @{Authorization='MAC "
		];
		for (let round = 0; round < 400; round += 1) {
			const length = Math.floor(random() * 80);
			let text = prefixes[round % prefixes.length] ?? '';
			for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(random() * alphabet.length)];
			try {
				parseSignedRequest(text);
			} catch (error) {
				expect(error, JSON.stringify(text)).toBeInstanceOf(MacInputError);
			}
		}
		const binary = String.fromCharCode(...Array.from({ length: 512 }, (_, i) => (i * 37) % 256));
		expect(() => parseSignedRequest(binary)).toThrow(MacInputError);
	});
});

describe('parseSignedRequest with an unusable URL', () => {
	it('keeps the URL to correct, says why it cannot be signed, and lists it as missing', () => {
		const result = parseSignedRequest(`curl ftp://h/p -H 'Authorization: ${header}'`);
		expect(result.url).toBe('ftp://h/p');
		expect(result.missing).toEqual(['url', 'mac_key']);
		expect(englishAll(result.understood).join(' ')).toMatch(/cannot be signed: Only https/);
	});
});
