// The vendor's Unity SDK: taptap/TapSDKLogin-Unity, Standalone/Runtime/Internal2/LoginService.cs
// (GetProfile and GetAuthorizationHeader) with the Region classes' ProfileUrl and LoginHttpClient's
// Get. Written again here with the same habits in C# 7 for Mono (mcs, a classic Main).
//
// Habits reproduced, as the SDK has them:
// - url = ProfileUrl(havePublicProfile) + clientId, i.e. "https://open.tapapis.cn" or
//   "https://open.tapapis.com" + "/account/profile/v1?client_id=" or "/account/basic-info/v1?client_id="
//   and the client id (the harness hands that URL in);
// - the request URI is new Uri(url).PathAndQuery (the runtime's Uri: it escapes a space, non-ASCII and
//   some other characters, unescapes %7E-like escapes of unreserved ones), the host uri.Host (lower
//   case), the port the literal "443";
// - ts = (int)(DateTime.UtcNow - new DateTime(1970, 1, 1)).TotalSeconds: whole seconds, unpadded;
// - nonce = new System.Random().Next().ToString(): a decimal integer;
// - the key and the base string are Encoding.ASCII bytes: every non-ASCII character becomes "?";
// - HMACSHA1 for mac_algorithm "hmac-sha-1", HMACSHA256 for "hmac-sha-256" (the token says which);
// - the header is "MAC " + id="…",ts="…",nonce="…",mac="…" (AppendFormat; parts joined by ",");
// - HttpClient sends the same Uri: its PathAndQuery and Host.
//
// Input: one JSON object a line on stdin, string values only ({url, kid, mac_key, mac_algorithm?,
// now_ms?}); output: one JSON line a request ({client, method, target, host, authorization,
// base_string}). The clock: the request's now_ms, else ZOO_NOW_MS, else DateTime.UtcNow.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Security.Cryptography;
using System.Text;

public static class UnitySdk
{
    static string lastNormalizedString;

    static void Main(string[] args)
    {
        var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        output.AutoFlush = true;
        string line;
        while ((line = input.ReadLine()) != null)
        {
            if (line.Trim().Length == 0) continue;
            var request = ParseObject(line);
            string url = request["url"];
            var uri = new Uri(url);
            int ts = Timestamp(request);
            string macAlgorithm;
            if (!request.TryGetValue("mac_algorithm", out macAlgorithm)) macAlgorithm = "hmac-sha-1";
            var sign = "MAC " + GetAuthorizationHeader(request["kid"],
                request["mac_key"],
                macAlgorithm,
                "GET",
                uri.PathAndQuery,
                uri.Host,
                "443", ts);
            string host = uri.IsDefaultPort ? uri.Host : uri.Host + ":" + uri.Port;
            output.WriteLine("{" + Pair("client", "unity-sdk") + "," + Pair("method", "GET") + ","
                + Pair("target", uri.PathAndQuery) + "," + Pair("host", host) + ","
                + Pair("authorization", sign) + "," + Pair("base_string", lastNormalizedString) + "}");
        }
    }

    // GetProfile's timestamp, with the zoo's clock in place of DateTime.UtcNow when it is given.
    static int Timestamp(Dictionary<string, string> request)
    {
        string readings;
        if (!request.TryGetValue("now_ms", out readings)) readings = Environment.GetEnvironmentVariable("ZOO_NOW_MS") ?? "";
        DateTime now = readings.Length == 0
            ? DateTime.UtcNow
            : new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMilliseconds(
                long.Parse(readings.Split(',')[0].Trim(), CultureInfo.InvariantCulture));
        var dt = now - new DateTime(1970, 1, 1);
        return (int)dt.TotalSeconds;
    }

    public static string GetAuthorizationHeader(string kid,
        string macKey,
        string macAlgorithm,
        string method,
        string uri,
        string host,
        string port,
        int timestamp)
    {
        var nonce = new System.Random().Next().ToString();

        var normalizedString = $"{timestamp}\n{nonce}\n{method}\n{uri}\n{host}\n{port}\n\n";
        lastNormalizedString = normalizedString;

        HashAlgorithm hashGenerator;
        switch (macAlgorithm)
        {
            case "hmac-sha-256":
                hashGenerator = new HMACSHA256(Encoding.ASCII.GetBytes(macKey));
                break;
            case "hmac-sha-1":
                hashGenerator = new HMACSHA1(Encoding.ASCII.GetBytes(macKey));
                break;
            default:
                throw new InvalidOperationException("Unsupported MAC algorithm");
        }

        var hash = Convert.ToBase64String(hashGenerator.ComputeHash(Encoding.ASCII.GetBytes(normalizedString)));

        var authorizationHeader = new StringBuilder();
        authorizationHeader.AppendFormat(@"id=""{0}"",ts=""{1}"",nonce=""{2}"",mac=""{3}""",
            kid, timestamp, nonce, hash);

        return authorizationHeader.ToString();
    }

    // JSON of the zoo's interface: a flat object of strings in, a flat object of strings out.

    static Dictionary<string, string> ParseObject(string json)
    {
        var result = new Dictionary<string, string>();
        int at = json.IndexOf('{') + 1;
        while (true)
        {
            SkipSpace(json, ref at);
            if (json[at] == '}') return result;
            string name = ParseString(json, ref at);
            SkipSpace(json, ref at);
            at++; // ':'
            SkipSpace(json, ref at);
            result[name] = ParseString(json, ref at);
            SkipSpace(json, ref at);
            if (json[at] == ',') at++;
        }
    }

    static void SkipSpace(string json, ref int at)
    {
        while (char.IsWhiteSpace(json[at])) at++;
    }

    static string ParseString(string json, ref int at)
    {
        if (json[at] != '"') throw new ArgumentException("only string values: " + json);
        var text = new StringBuilder();
        for (int i = at + 1; ; i++)
        {
            char c = json[i];
            if (c == '"')
            {
                at = i + 1;
                return text.ToString();
            }
            if (c != '\\')
            {
                text.Append(c);
                continue;
            }
            char e = json[++i];
            switch (e)
            {
                case 'n': text.Append('\n'); break;
                case 'r': text.Append('\r'); break;
                case 't': text.Append('\t'); break;
                case 'b': text.Append('\b'); break;
                case 'f': text.Append('\f'); break;
                case 'u': text.Append((char)int.Parse(json.Substring(i + 1, 4), NumberStyles.HexNumber)); i += 4; break;
                default: text.Append(e); break;
            }
        }
    }

    static string Pair(string name, string value)
    {
        return Quote(name) + ":" + Quote(value);
    }

    static string Quote(string text)
    {
        var output = new StringBuilder("\"");
        foreach (char c in text)
        {
            if (c == '"' || c == '\\') output.Append('\\').Append(c);
            else if (c == '\n') output.Append("\\n");
            else if (c < 0x20) output.Append(string.Format("\\u{0:x4}", (int)c));
            else output.Append(c);
        }
        return output.Append('"').ToString();
    }
}
