// Generators of PowerShell commands for the /verify readers' property tests: devtools' "Copy as
// PowerShell", Postman's snippets and hand-written commands, flaws included.
import fc from 'fast-check';
import { authorizationHeader, requestTarget } from '$lib/mac';
import {
	headerParams,
	hostile,
	mostly,
	powershellString,
	powershellVerbatim,
	writePowerShell
} from './property-arbitraries';
import { authorizationPair, realisticParams } from './verify-arbitraries-shell';

export type PowerShellStyle = 'chrome' | 'one-line' | 'verbatim';

/**
 * The command as devtools' "Copy as PowerShell" writes it (Chrome 120+, Edge): $session lines, the
 * HTTP/2 pseudo-headers as entries, one per line; or on one line, as older Chrome and people write
 * it; or with single-quoted strings.
 */
export function powershellOf(
	url: string,
	authorization: string,
	style: PowerShellStyle,
	method = 'GET'
): string {
	const quote = style === 'verbatim' ? powershellVerbatim : powershellString;
	const parsed = new URL(url);
	if (style !== 'chrome') {
		const headers = [
			['Accept', '*/*'],
			['Authorization', authorization]
		].map(([name = '', value = '']) => `${quote(name)}=${quote(value)}`);
		const methodPart = method === 'GET' ? '' : ` -Method ${quote(method)}`;
		return `Invoke-RestMethod -Uri ${quote(url)}${methodPart} -Headers @{${headers.join('; ')}}`;
	}
	const headers = [
		['authority', parsed.host],
		['method', method],
		['path', requestTarget(url).uri],
		['scheme', parsed.protocol.slice(0, -1)],
		['accept', '*/*'],
		['authorization', authorization]
	].map(([name = '', value = '']) => `${quote(name)}=${quote(value)}`);
	const parts = [`-Uri ${quote(url)}`];
	if (method !== 'GET') parts.push(`-Method ${quote(method)}`);
	parts.push('-WebSession $session', `-Headers @{\n${headers.join('\n  ')}\n}`);
	return [
		'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession',
		`$session.UserAgent = ${quote('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')}`,
		`$session.Cookies.Add((New-Object System.Net.Cookie("sid", "a\`$b", "/", ${quote(parsed.hostname)})))`,
		`Invoke-WebRequest -UseBasicParsing ${parts.join(' `\n')}`
	].join('\n');
}

export const powershellStyle = fc.constantFrom<PowerShellStyle>('chrome', 'one-line', 'verbatim');

/** A -Headers entry: the Authorization header, a pseudo-header, one PowerShell must compute, junk. */
const powershellEntry: fc.Arbitrary<string> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.tuple(authorizationPair, writePowerShell, writePowerShell)
			.map(([[name, value], writeName, writeValue]) => `${writeName(name)}=${writeValue(value)}`)
	},
	{
		weight: 3,
		arbitrary: fc
			.tuple(
				fc.constantFrom('authority', 'method', 'path', 'scheme', ':path', 'accept', 'Cookie'),
				fc.constantFrom('open.tapapis.cn', 'GET', '/p?a=1', '/a?b=%2D', '*', 'https', '*/*', ''),
				writePowerShell
			)
			.map(([name, value, write]) => `${powershellString(name)}=${write(value)}`)
	},
	{
		weight: 1,
		arbitrary: fc
			.tuple(
				fc.constantFrom('Authorization', 'X-Trace', '$key', '(1)', '"a"', "'b'", ''),
				fc.constantFrom(
					'$token',
					'$null',
					'[guid]::NewGuid()',
					'"MAC " + $sig',
					'@{a=1}',
					'1',
					'$(Get-Date)',
					'"$kid"',
					''
				)
			)
			.map(([name, value]) => `${name}=${value}`)
	},
	{ weight: 1, arbitrary: hostile }
);

const powershellHashtable: fc.Arbitrary<string> = fc
	.tuple(
		fc.array(powershellEntry, { maxLength: 6 }),
		fc.constantFrom('\n  ', '; ', '\r\n', ';\n', ' ')
	)
	.map(([entries, separator]) => {
		const edge = separator === '; ' || separator === ' ' ? '' : '\n';
		return `@{${edge}${entries.join(separator)}${edge}}`;
	});

/** One parameter of the command with its value, or a word PowerShell would choke on. */
const powershellGroup: fc.Arbitrary<string> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc
			.tuple(
				fc.constantFrom('-Uri ', '-uri:', '–Uri ', ''),
				fc.oneof(
					fc.webUrl({ withQueryParameters: true }),
					fc.constantFrom('open.tapapis.cn/p', 'ftp://h/p', '', 'https://h/$x', 'https://h/`$x')
				),
				writePowerShell
			)
			.map(([parameter, url, write]) => `${parameter}${write(url)}`)
	},
	{
		weight: 3,
		arbitrary: fc
			.tuple(fc.constantFrom('-Headers ', '-Headers:', '-Head '), powershellHashtable)
			.map(([parameter, table]) => parameter + table)
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom('-Method ', '-CustomMethod ', '-Meth ', '-Method:'),
				fc.constantFrom(
					'GET',
					'POST',
					'post',
					'Default',
					'Fetch',
					'',
					'propfind',
					'$m',
					'constructor',
					'__proto__'
				),
				writePowerShell
			)
			.map(([parameter, method, write]) => parameter + write(method))
	},
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			'-UseBasicParsing',
			'-WebSession $session',
			'-Headers $headers',
			'-Headers $h',
			'-Headers $undefined',
			'-ContentType "application/json"',
			'-Body "{`"a`":1}"',
			'-Body @{a=1}',
			'-Body ([System.Text.Encoding]::UTF8.GetBytes("Jos$([char]233)"))',
			'-TimeoutSec 5',
			'-Uri',
			'-Method',
			'-Madeup x',
			'-__proto__ x',
			'-toString',
			'| Select-Object -Expand Content',
			';',
			'# note',
			'<# c #>',
			'$(',
			'@{',
			'"',
			"'",
			'@"\n',
			'`'
		)
	},
	{ weight: 1, arbitrary: hostile }
);

const powershellPrelude = fc.constantFrom(
	'',
	'\ufeff',
	'$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession\n$session.UserAgent = "Mozilla/5.0 (Windows NT 10.0)"\n$session.Cookies.Add((New-Object System.Net.Cookie("s", "a`$b", "/", "h")))\n',
	'$headers = @{"Authorization"="MAC id=`"a`",ts=`"1`",nonce=`"n`",mac=`"m`""}\n',
	'$h = New-Object "System.Collections.Generic.Dictionary[[String],[String]]"\n$h.Add("Authorization", "MAC id=`"k`",ts=`"1`",nonce=`"n`",mac=`"m`"")\n',
	"$uri = 'https://open.tapapis.cn/p?a=1'\n",
	'$r = '
);

/** A PowerShell command from a grammar of what devtools, Postman and people write, flaws included. */
const powershellGrammar: fc.Arbitrary<string> = fc
	.tuple(
		powershellPrelude,
		mostly(
			fc.constantFrom('Invoke-WebRequest', 'Invoke-RestMethod', 'invoke-webrequest', 'iwr'),
			fc.constantFrom('Invoke-WebRequestX', 'curl', '', 'PS C:\\> Invoke-WebRequest')
		),
		fc.array(powershellGroup, { maxLength: 7 }),
		fc.constantFrom(' ', ' `\n', ' `\r\n', ' ` \n', '\t'),
		fc.constantFrom('', ';\r\n', '\n| ConvertTo-Json')
	)
	.map(
		([prelude, command, groups, gap, end]) =>
			`${prelude}${command}${groups.map((group) => gap + group).join('')}${end}`
	);

/** Random PowerShell-shaped text: the grammar, or a command as devtools copies it. */
export const powershellText: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: powershellGrammar },
	{
		weight: 1,
		arbitrary: fc
			.tuple(
				fc.oneof(realisticParams, headerParams),
				fc.webUrl({ withQueryParameters: true, withFragments: false }),
				powershellStyle,
				fc.constantFrom('GET', 'POST', 'DELETE')
			)
			.map(([params, url, style, method]) =>
				powershellOf(url, authorizationHeader(params), style, method)
			)
	}
);
