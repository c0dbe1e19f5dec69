// PowerShell commands as devtools and people write them, signed with the paste fixtures' key.
import { parsePowerShell } from '$lib/read';
import { GOOD_MAC, KID, NONCE, TS, URL_CN } from './verify-paste-fixtures';

export const PARAMS = { id: KID, ts: TS, nonce: NONCE, mac: GOOD_MAC };
export const HEADER = `MAC id="${KID}",ts="${TS}",nonce="${NONCE}",mac="${GOOD_MAC}"`;

/** The header value as devtools writes it in a PowerShell double-quoted string: `" for each quote. */
export function psAuthorization(signature = GOOD_MAC): string {
	return `MAC id=\`"${KID}\`",ts=\`"${TS}\`",nonce=\`"${NONCE}\`",mac=\`"${signature}\`"`;
}

const UA =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// Chrome 131, "Copy as PowerShell" of a GET over HTTP/2.
export const CHROME = `$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession
$session.UserAgent = "${UA}"
$session.Cookies.Add((New-Object System.Net.Cookie("session", "abc", "/", "open.tapapis.cn")))
Invoke-WebRequest -UseBasicParsing -Uri "${URL_CN}" \`
-WebSession $session \`
-Headers @{
"authority"="open.tapapis.cn"
  "method"="GET"
  "path"="/account/profile/v1?client_id=abc123"
  "scheme"="https"
  "accept"="*/*"
  "accept-language"="en-US,en;q=0.9"
  "authorization"="${psAuthorization()}"
  "sec-ch-ua"="\`"Chromium\`";v=\`"131\`", \`"Not_A Brand\`";v=\`"24\`""
  "sec-fetch-mode"="cors"
}`;

// The same without the $session lines (no user agent or cookie to carry).
export const NO_SESSION = `Invoke-WebRequest -UseBasicParsing -Uri "${URL_CN}" \`
-Headers @{
"authority"="open.tapapis.cn"
  "method"="GET"
  "path"="/account/profile/v1?client_id=abc123"
  "scheme"="https"
  "accept"="*/*"
  "authorization"="${psAuthorization()}"
}`;

// Older Chrome and hand-written scripts: the hashtable on one line, entries separated by ";".
const ONE_LINE = `Invoke-WebRequest -Uri "${URL_CN}" -Headers @{"Accept"="*/*"; "Authorization"="${psAuthorization()}"}`;

// Single quotes: '' is a quote, a backtick is just a backtick, and the header's quotes need no escape.
export const SINGLE_QUOTED = `Invoke-WebRequest -Uri '${URL_CN}' -Headers @{'Authorization'='${HEADER}'; 'X-Note'='it''s \`n literal'}`;

// Hashtable keys written bare, as people type them.
const BARE_KEYS = `Invoke-RestMethod -Uri "${URL_CN}" -Headers @{Authorization="${psAuthorization()}"; Accept='application/json'}`;

export const VARIANTS: [string, string][] = [
	['Chrome, with $session', CHROME],
	['Chrome, without $session', NO_SESSION],
	['Invoke-RestMethod', CHROME.replace('Invoke-WebRequest', 'Invoke-RestMethod')],
	['CRLF line endings', CHROME.replace(/\n/g, '\r\n')],
	['a one-line hashtable', ONE_LINE],
	['single-quoted strings', SINGLE_QUOTED],
	['bare keys', BARE_KEYS]
];

export const authorizationOf = (text: string) =>
	parsePowerShell(text).headers.find((h) => h.name.toLowerCase() === 'authorization')?.value;
