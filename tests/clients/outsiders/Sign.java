// An integrator's Java signer (java.net.http.HttpClient, javax.crypto.Mac): not the vendor's sample.
// java Sign.java <kid> <key> <url> <ts> <variant> <style>
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Sign {
	public static void main(String[] args) throws Exception {
		String kid = args[0], key = args[1], ts = args[3], variant = args[4], style = args[5];
		URI uri = URI.create(args[2]);
		String nonce;
		if (style.equals("a")) {
			byte[] bytes = new byte[16];
			new SecureRandom().nextBytes(bytes);
			nonce = Base64.getEncoder().encodeToString(bytes);
		} else nonce = UUID.randomUUID().toString();
		String query = variant.equals("query-decoded") ? uri.getQuery() : uri.getRawQuery();
		String path = uri.getRawPath() + (query == null ? "" : "?" + query);
		String text = ts + "\n" + nonce + "\nGET\n" + path + "\n" + uri.getHost() + "\n443\n\n";
		String algorithm = variant.equals("hmac-sha256") ? "HmacSHA256" : "HmacSHA1";
		Mac mac = Mac.getInstance(algorithm);
		mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), algorithm));
		String sig = Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
		String join = style.equals("a") ? "," : ", ";
		String header = "MAC id=\"" + kid + "\"" + join + "ts=\"" + ts + "\"" + join + "nonce=\"" + nonce + "\""
				+ join + "mac=\"" + sig + "\"";
		HttpRequest.newBuilder(uri).header("Authorization", header).build();
		System.out.println(header);
	}
}
