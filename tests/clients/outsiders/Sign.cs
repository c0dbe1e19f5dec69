// An integrator's C# signer (HttpClient, HMACSHA1): not the vendor's Unity SDK.
// mono Sign.exe <kid> <key> <url> <ts> <variant> <style>
using System;
using System.Net.Http;
using System.Security.Cryptography;
using System.Text;

class Sign
{
	static void Main(string[] args)
	{
		string kid = args[0], key = args[1], url = args[2], ts = args[3], variant = args[4], style = args[5];
		var uri = new Uri(url);
		string nonce = style == "a" ? new Random().Next().ToString() : Guid.NewGuid().ToString("N");
		string text = ts + "\n" + nonce + "\nGET\n" + uri.PathAndQuery + "\n" + uri.Host + "\n443\n\n";
		byte[] keyBytes = variant == "key-ascii" ? Encoding.ASCII.GetBytes(key) : Encoding.UTF8.GetBytes(key);
		HMAC hmac = variant == "hmac-sha256" ? (HMAC)new HMACSHA256(keyBytes) : new HMACSHA1(keyBytes);
		string mac = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(text)));
		string format = style == "a"
			? "MAC id=\"{0}\",ts=\"{1}\",nonce=\"{2}\",mac=\"{3}\""
			: "MAC id=\"{0}\", ts=\"{1}\", nonce=\"{2}\", mac=\"{3}\"";
		string header = string.Format(format, kid, ts, nonce, mac);
		using (var request = new HttpRequestMessage(HttpMethod.Get, uri))
			request.Headers.TryAddWithoutValidation("Authorization", header);
		Console.WriteLine(header);
	}
}
