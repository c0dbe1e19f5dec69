import { describe, expect, it } from 'vitest';
import { MacInputError } from '$lib/mac';
import { parsePowerShell } from '$lib/read';
import { TS, URL_CN } from './verify-paste-fixtures';
import {
	CHROME,
	HEADER,
	NO_SESSION,
	SINGLE_QUOTED,
	VARIANTS,
	authorizationOf,
	psAuthorization
} from './verify-powershell-fixtures';
import { englishAll, thrownEnglish } from './verify-english';

describe('parsePowerShell', () => {
	it.each(VARIANTS)('reads the URL, GET and the Authorization header of %s', (_, text) => {
		const request = parsePowerShell(text);
		expect(request.url).toBe(URL_CN);
		expect(request.method).toBe('GET');
		expect(authorizationOf(text)).toBe(HEADER);
		expect(englishAll(request.understood)).toContain(
			'Method GET: PowerShell’s default when there is no -Method.'
		);
	});

	it('reads every real header in order, and none of the four HTTP/2 pseudo-header entries', () => {
		const request = parsePowerShell(CHROME);
		expect(request.headers.map((h) => h.name)).toEqual([
			'accept',
			'accept-language',
			'authorization',
			'sec-ch-ua',
			'sec-fetch-mode'
		]);
		expect(request.headers[3]?.value).toBe('"Chromium";v="131", "Not_A Brand";v="24"');
	});

	it('says what it took and what it ignored of a Chrome paste', () => {
		expect(englishAll(parsePowerShell(CHROME).understood)).toEqual([
			'URL from -Uri.',
			'Method GET: PowerShell’s default when there is no -Method.',
			'The web session’s user agent and cookies ($session) are not signed, so they were ignored.',
			'Ignored, as they do not change what is signed: -UseBasicParsing -WebSession.'
		]);
	});

	it('unescapes double-quoted strings as PowerShell does, without evaluating anything', () => {
		const request = parsePowerShell(
			`Invoke-WebRequest -Uri "https://h/p" -Headers @{"x-escapes"="q\`"b\`\`n\`nr\`rt\`t0\`0d\`$x ""y"" \`a\`b\`f\`v\`e \`u{1F600} \`q"}`
		);
		expect(request.headers).toEqual([
			{ name: 'x-escapes', value: 'q"b`n\nr\rt\t0\0d$x "y" \x07\b\f\v\x1b 😀 q' }
		]);
		// Every $ was escaped, so nothing would have been expanded.
		expect(englishAll(request.understood).join(' ')).not.toMatch(/expanded/);
	});

	it('reads single-quoted strings verbatim: doubled quotes, a literal backtick and $', () => {
		const request = parsePowerShell(SINGLE_QUOTED);
		expect(request.headers[1]).toEqual({ name: 'X-Note', value: "it's `n literal" });
		const dollar = parsePowerShell(`Invoke-WebRequest -Uri 'https://h/$p' -Headers @{'x'='$y'}`);
		expect(dollar.url).toBe('https://h/$p');
		expect(dollar.headers).toEqual([{ name: 'x', value: '$y' }]);
		expect(englishAll(dollar.understood).join(' ')).not.toMatch(/expanded/);
	});

	it('reads the characters devtools writes as $([char]N)', () => {
		const request = parsePowerShell(
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{"x-name"="Jos$([char]233) $([char]55357)$([char]56832)$([char]10)"}'
		);
		expect(request.headers).toEqual([{ name: 'x-name', value: 'José 😀\n' }]);
		expect(englishAll(request.understood).join(' ')).not.toMatch(/expanded/);
	});

	it('keeps a $variable or $(subexpression) as written, and says PowerShell would have expanded it', () => {
		const request = parsePowerShell(
			'Invoke-WebRequest -Uri "https://h/$env:TENANT/p" -Headers @{"Authorization"="MAC id=`"$kid`",ts=`"$(Get-Date -UFormat %s)`",nonce=`"n`",mac=`"m`""}'
		);
		expect(request.url).toBe('https://h/$env:TENANT/p');
		expect(request.headers[0]?.value).toBe(
			'MAC id="$kid",ts="$(Get-Date -UFormat %s)",nonce="n",mac="m"'
		);
		expect(englishAll(request.understood)).toContain(
			'PowerShell would have expanded "$env:TENANT" in the -Uri: it is kept as written here, but the request sent had its value instead.'
		);
		expect(englishAll(request.understood)).toContain(
			'PowerShell would have expanded "$kid", "$(Get-Date -UFormat %s)" in the "Authorization" header: it is kept as written here, but the request sent had their values instead.'
		);
	});

	it('takes -Method in any spelling PowerShell accepts, and GET when there is none', () => {
		const method = (args: string) =>
			parsePowerShell(`Invoke-WebRequest -Uri "https://h/p" ${args}`).method;
		expect(method('-Method "POST"')).toBe('POST');
		expect(method('-Method POST')).toBe('POST');
		expect(method("-Method 'put'")).toBe('PUT');
		expect(method('-Meth Delete')).toBe('DELETE');
		expect(method('-method:patch')).toBe('PATCH');
		expect(method('-Method Default')).toBe('GET');
		expect(method('-CustomMethod propfind')).toBe('PROPFIND');
		expect(method('')).toBe('GET');
		const custom = parsePowerShell('Invoke-WebRequest -Uri "https://h/p" -CustomMethod "lock"');
		expect(englishAll(custom.understood)).toContain(
			'Method LOCK from -CustomMethod (PowerShell upper-cases it).'
		);
		const refused = parsePowerShell('Invoke-WebRequest -Uri "https://h/p" -Method Fetch');
		expect(refused.method).toBe('Fetch');
		expect(englishAll(refused.understood)).toContain(
			'PowerShell’s -Method takes Get, Post, Put, Delete, Patch, Head, Options, Trace or Merge, so "Fetch" would be refused (-CustomMethod sends others).'
		);
	});

	it('knows no parameter or method that only Object.prototype has', () => {
		const request = parsePowerShell(
			`Invoke-WebRequest -__proto__ x -toString -Uri "${URL_CN}" -Method constructor`
		);
		expect(request.url).toBe(URL_CN);
		expect(request.method).toBe('constructor');
		expect(englishAll(request.understood)).toContain(
			'Ignored, as they do not change what is signed: -__proto__ -toString.'
		);
		expect(
			parsePowerShell(`Invoke-WebRequest -Uri "${URL_CN}" -Method hasOwnProperty`).method
		).toBe('hasOwnProperty');
	});

	it('reads the URL quoted, bare, positional or typed with a word processor’s quotes and dash', () => {
		for (const args of [
			`-Uri ${URL_CN}`,
			`'${URL_CN}'`,
			`"${URL_CN}" -Method Get`,
			`–Uri “${URL_CN}”`,
			`-Uri:"${URL_CN}"`
		]) {
			expect(parsePowerShell(`Invoke-RestMethod ${args}`).url, args).toBe(URL_CN);
		}
		expect(englishAll(parsePowerShell(`Invoke-RestMethod '${URL_CN}'`).understood)[0]).toBe(
			'URL from the command’s first argument (-Uri).'
		);
	});

	it('adds http:// to a URL without a scheme, as PowerShell does, and says so', () => {
		const request = parsePowerShell('Invoke-WebRequest -Uri "open.tapapis.cn/p"');
		expect(request.url).toBe('http://open.tapapis.cn/p');
		expect(englishAll(request.understood)[0]).toBe(
			'The -Uri has no scheme, so PowerShell uses http:// (port 80): add https:// to call the service.'
		);
	});

	it('ignores -ContentType and the body, and says so', () => {
		const request = parsePowerShell(`Invoke-WebRequest -UseBasicParsing -Uri "${URL_CN}" \`
-Method "POST" \`
-Headers @{
"method"="POST"
  "authorization"="${psAuthorization()}"
} \`
-ContentType "application/json" \`
-Body "{\`"nickname\`":\`"Ann\`"}"`);
		expect(request.method).toBe('POST');
		expect(request.headers.map((h) => h.name)).toEqual(['authorization']);
		expect(englishAll(request.understood)).toContain(
			'The body (-Body) is not signed, so it was ignored.'
		);
		expect(englishAll(request.understood)).toContain(
			'Ignored, as they do not change what is signed: -UseBasicParsing -ContentType.'
		);
		const bytes = parsePowerShell(
			`Invoke-WebRequest -Uri "${URL_CN}" -Method "POST" -Body ([System.Text.Encoding]::UTF8.GetBytes("{\`"n\`":\`"Jos$([char]233)\`"}"))`
		);
		expect(englishAll(bytes.understood)).toContain(
			'The body (-Body) is not signed, so it was ignored.'
		);
	});

	it('warns that a hashtable -Body with GET goes into the query string', () => {
		const request = parsePowerShell(`Invoke-RestMethod -Uri "${URL_CN}" -Body @{page=2}`);
		expect(request.url).toBe(URL_CN);
		expect(englishAll(request.understood)).toContain(
			'With GET, PowerShell appends a hashtable -Body to the query string (in no set order), which the URL here leaves out: check the query the server received.'
		);
		const post = parsePowerShell(`Invoke-RestMethod -Uri "${URL_CN}" -Method Post -Body @{page=2}`);
		expect(englishAll(post.understood).join(' ')).not.toMatch(/query string/);
	});

	it('builds the URL from the "path" entry when it differs from the -Uri, and says so', () => {
		const request = parsePowerShell(
			NO_SESSION.replace(
				'"path"="/account/profile/v1?client_id=abc123"',
				'"path"="/account/profile/v1?client_id=abc%31%323"'
			)
		);
		expect(request.url).toBe('https://open.tapapis.cn/account/profile/v1?client_id=abc%31%323');
		expect(englishAll(request.understood)).toContain(
			'The -Uri says "/account/profile/v1?client_id=abc123" but the "path" entry (the HTTP/2 :path the browser sent) says "/account/profile/v1?client_id=abc%31%323": the URL is built from "path", the bytes actually sent.'
		);
	});

	it('keeps the -Uri when "path" agrees with it or is not a path', () => {
		expect(englishAll(parsePowerShell(NO_SESSION).understood).join(' ')).not.toMatch(/"path"/);
		const star = parsePowerShell(NO_SESSION.replace(/"path"="[^"]*"/, '"path"="*"'));
		expect(star.url).toBe(URL_CN);
		expect(englishAll(star.understood)).toContain(
			'The "path" entry "*" is not a path, so it was not used.'
		);
	});

	it('reads headers from a variable the paste sets: a hashtable, or a Dictionary filled with .Add', () => {
		const hashtable = parsePowerShell(`$headers = @{
    "Accept" = "application/json"
    "Authorization" = "${psAuthorization()}"
}
Invoke-RestMethod -Uri "${URL_CN}" -Method Get -Headers $headers`);
		expect(hashtable.headers[1]).toEqual({ name: 'Authorization', value: HEADER });
		expect(englishAll(hashtable.understood)).toContain(
			'Headers from $headers, set earlier in the paste.'
		);

		// Postman's "PowerShell - RestMethod" snippet.
		const postman =
			parsePowerShell(`$headers = New-Object "System.Collections.Generic.Dictionary[[String],[String]]"
$headers.Add("Authorization", "${psAuthorization()}")

$response = Invoke-RestMethod '${URL_CN}' -Method 'GET' -Headers $headers
$response | ConvertTo-Json`);
		expect(postman.url).toBe(URL_CN);
		expect(postman.headers).toEqual([{ name: 'Authorization', value: HEADER }]);

		const fromVariables = parsePowerShell(`$uri = '${URL_CN}'
$auth = '${HEADER}'
Invoke-WebRequest -Uri $uri -Headers @{ Authorization = $auth; Cookie = $null }`);
		expect(fromVariables.url).toBe(URL_CN);
		expect(fromVariables.headers).toEqual([{ name: 'Authorization', value: HEADER }]);
	});

	it('leaves out a header it cannot read without running anything, and says so', () => {
		const request = parsePowerShell(
			`Invoke-WebRequest -Uri "${URL_CN}" -Headers @{"X-Trace"=[guid]::NewGuid(); "authorization"="${psAuthorization()}"}`
		);
		expect(request.headers.map((h) => h.name)).toEqual(['authorization']);
		expect(englishAll(request.understood)).toContain(
			'The "X-Trace" header is "[guid]::NewGuid()", which is not evaluated here, so it was left out.'
		);
	});

	it('reads the first MAC-signed command of "Copy all as PowerShell", and says so', () => {
		const page = `Invoke-WebRequest -UseBasicParsing -Uri "https://game.example/" \`
-Headers @{
"accept"="text/html"
}`;
		const request = parsePowerShell(`${page};\r\n${CHROME};\r\n${NO_SESSION}`);
		expect(request.url).toBe(URL_CN);
		expect(request.headers.some((h) => h.name === 'authorization')).toBe(true);
		expect(englishAll(request.understood)[0]).toBe(
			'The paste holds 3 commands; the first MAC-signed one (number 2, Invoke-WebRequest) is read. To check another, paste it alone.'
		);
	});

	it('skips comments, other statements and a pipeline after the command', () => {
		const request = parsePowerShell(`# Sent from the support laptop
<# copied from Edge
   devtools #>
$ProgressPreference = 'SilentlyContinue'
$r = Invoke-WebRequest -Uri "${URL_CN}" -Headers @{ # the header the SDK sends
  "authorization"="${psAuthorization()}"  # signed at ${TS}
} | Select-Object -ExpandProperty Content
Write-Host $r`);
		expect(request.url).toBe(URL_CN);
		expect(request.headers).toEqual([{ name: 'authorization', value: HEADER }]);
	});

	it.each([
		['curl https://h/', /^Expected a PowerShell command, Invoke-WebRequest -Uri "https:\/\/…"/],
		[
			'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession\n$session.UserAgent = "x"',
			'The paste sets up a web session ($session) but holds no Invoke-WebRequest or Invoke-RestMethod command: was it cut short?'
		],
		[
			`Invoke-WebRequest -Headers @{"authorization"="${psAuthorization()}"}`,
			'The Invoke-WebRequest command names no URL (-Uri "https://…"): was the paste cut short?'
		],
		['Invoke-WebRequest -Uri ""', 'The -Uri is empty: PowerShell would refuse to run the command.'],
		[
			'Invoke-WebRequest -Uri "https://h/p -Headers @{}',
			'A double-quoted string opened at line 1, column 24 ("https://h/p -Headers @{…) is never closed: the paste is cut off, or a quote inside it is not escaped (`").'
		],
		[
			"Invoke-WebRequest -Uri 'https://h/p -Headers @{}",
			"A single-quoted string opened at line 1, column 24 ('https://h/p -Headers @{…) is never closed: the paste is cut off, or a quote inside it is not doubled ('')."
		],
		[
			'$body = @"\n{"a": 1}\n',
			'A here-string (@") opened at line 1, column 9 (@" {"a": 1} …) is never closed: it ends with "@ at the start of a line.'
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{\n  "accept"="*/*"\n',
			'The hashtable @{ opened at line 1, column 47 (@{ "accept"="*/*" …) is never closed: it ends with "}": was the paste cut short?'
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers $headers',
			'-Headers is $headers, a variable set elsewhere: the paste does not define it. Paste its definition ($headers = @{…}) too, or copy the request as cURL.'
		],
		[
			'$headers = Get-SignedHeaders\nInvoke-WebRequest -Uri "https://h/p" -Headers $headers',
			'-Headers is $headers, which the paste does not set to a hashtable @{…}: paste the command as devtools copies it, or copy the request as cURL.'
		],
		[
			`Invoke-WebRequest -Uri "https://h/p" -Headers "Authorization: ${psAuthorization()}"`,
			/^-Headers must be a hashtable such as @\{"Authorization"="MAC …"\}, as devtools writes it, not "Authorization: MAC id=\\"kid-1234567890\\",t…": paste the command as copied, or copy the request as cURL\.$/
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers (Get-SignedHeaders)',
			/^-Headers must be a hashtable .* not "\(Get-SignedHeaders\)"/
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{"authorization" "MAC x"}',
			'In the hashtable @{…} (line 1, column 49), "\\"authorization\\"" is not a key followed by "=" and a value.'
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{"authorization"=}',
			'In the hashtable @{…} (line 1, column 49), "\\"authorization\\"" has no value after "=".'
		],
		[
			'Invoke-WebRequest -Headers @{} -Uri',
			'PowerShell’s -Uri needs a value, but the command ends there.'
		],
		[
			'Invoke-WebRequest -Uri -Method GET',
			'PowerShell’s -Uri needs a value, but "-Method" follows.'
		],
		[
			'Invoke-WebRequest -Uri $uri -Headers @{}',
			'The -Uri is $uri, a variable set elsewhere: the paste does not define it. Paste its definition ($uri = "https://…") too, or copy the request as cURL.'
		],
		[
			'Invoke-WebRequest -Uri ($base + "/p")',
			'The -Uri is "($base + \\"/p\\")", which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the value written out, or copy the request as cURL.'
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{"Authorization"=$signature}',
			/^The Authorization header is \$signature, a variable set elsewhere: the paste does not define it\. Paste its definition \(\$signature = "MAC id=`"…`",…"\) too, or copy the request as cURL\.$/
		],
		[
			'Invoke-WebRequest -Uri "https://h/p" -Headers @{"Authorization"="MAC " + $sig}',
			'The Authorization header is "\\"MAC \\" + $sig", which PowerShell works out when it runs; nothing is evaluated here. Paste the command with the header written out, or copy the request as cURL.'
		]
	])('refuses %j with a MacInputError saying why', (text, message) => {
		expect(() => parsePowerShell(text)).toThrow(MacInputError);
		expect(thrownEnglish(() => parsePowerShell(text))).toMatch(message);
	});

	it('says where a paste cut short inside the Authorization value breaks off', () => {
		const cut = CHROME.slice(0, CHROME.indexOf('nonce='));
		expect(thrownEnglish(() => parsePowerShell(cut))).toMatch(
			/^A double-quoted string opened at line 13, column 19 \("MAC id=`"kid-1234567890…\) is never closed/
		);
	});

	it('refuses strings nested past any paste devtools writes, with a MacInputError', () => {
		const deep = `Invoke-WebRequest -Uri "${'$("'.repeat(5000)}`;
		expect(thrownEnglish(() => parsePowerShell(deep))).toMatch(
			/nests strings, subexpressions or hashtables more than 64 deep/
		);
		const tables = `Invoke-WebRequest -Uri "https://h/" -Body ${'@{a='.repeat(5000)}`;
		expect(() => parsePowerShell(tables)).toThrow(MacInputError);
	});
});
