import { m } from '$lib/paraglide/messages.js';
import { comment, fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { csharpString as str } from './string-literals';
import type { SnippetOptions } from './types';

/**
 * C#: HMACSHA1 and HttpClient in a classic `Main`, C# 7 at most, so that Mono's mcs compiles it as
 * well as `dotnet run Program.cs` (.NET 10) runs it: no top-level statements, no `using var`, no
 * async Main, no API newer than .NET Framework 4.6.
 */
export function csharpSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const env = o.inlineMacKey === undefined ? o.macKeyEnv : null;
	const macKey =
		o.inlineMacKey === undefined
			? `        var macKey = Environment.GetEnvironmentVariable(${str(o.macKeyEnv)});
        if (string.IsNullOrEmpty(macKey))
        {
            Console.Error.WriteLine(${str(o.missingKey)});
            return 1;
        }`
			: `        // ${inlineKeyNote()}
        var macKey = ${str(o.inlineMacKey)};`;
	const tsNonce = o.fixed
		? `        // ${fixedNote()}
        var ts = ${str(o.fixed.ts)};
        var nonce = ${str(o.fixed.nonce)};`
		: `        var ts = DateTimeOffset.UtcNow.ToUnixTimeSeconds().ToString();
        var random = new byte[16];
        using (var generator = RandomNumberGenerator.Create()) generator.GetBytes(random);
        var nonce = Convert.ToBase64String(random);`;
	const sep = o.separator;
	const mono = `mcs -r:System.Net.Http Program.cs && ${env ? `${env}='<mac_key>' ` : ''}mono Program.exe`;

	return `${purpose('//', 'dotnet run Program.cs', env)}
// ${m.snippets_csharp_mono()} ${mono}
// ${m.snippets_csharp_older_sdk()}
using System;
using System.Net.Http;
using System.Security.Cryptography;
using System.Text;

class Program
{
    const string RequestUrl = ${str(o.url)};
    const string Kid = ${str(o.kid)};

    static int Main(string[] args)
    {
${macKey}
${tsNonce}
        var url = new Uri(RequestUrl);
        var mac = Sign(macKey, BaseString(url, ts, nonce));
        var header = $"MAC id=\\"{Kid}\\"${sep}ts=\\"{ts}\\"${sep}nonce=\\"{nonce}\\"${sep}mac=\\"{mac}\\"";
        Console.WriteLine($"Authorization: {header}");
        if (Environment.GetEnvironmentVariable("DRY_RUN") == "1") return 0;

        using (var client = new HttpClient())
        using (var request = new HttpRequestMessage(HttpMethod.Get, url))
        {
            // ${m.snippets_csharp_no_validation()}
            request.Headers.TryAddWithoutValidation("Authorization", header);
            // ${m.snippets_csharp_sync()}
            using (var response = client.SendAsync(request).GetAwaiter().GetResult())
            {
                Console.WriteLine($"{(int)response.StatusCode} {response.ReasonPhrase}");
                Console.WriteLine(response.Content.ReadAsStringAsync().GetAwaiter().GetResult());
            }
        }
        return 0;
    }

    // ${m.snippets_program_base_string()}
    static string BaseString(Uri url, string ts, string nonce)
    {
${comment('        // ', m.snippets_csharp_uri())}
        // ${m.snippets_program_host()}
        // ${m.snippets_csharp_port()}
        var lines = new[] { ts, nonce, "GET", url.PathAndQuery, url.Host.ToLowerInvariant(), url.Port.ToString(), "" };
        return string.Join("\\n", lines) + "\\n";
    }

    static string Sign(string macKey, string text)
    {
        // ${m.snippets_csharp_utf8()}
        using (var hmac = new HMACSHA1(Encoding.UTF8.GetBytes(macKey)))
        {
            return Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(text)));
        }
    }
}
`;
}
