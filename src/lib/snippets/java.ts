import { m } from '$lib/paraglide/messages.js';
import { comment, fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { javaString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** Java 11+: javax.crypto.Mac and java.net.http, one file for the source launcher. */
export function javaSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const macKey =
		o.inlineMacKey === undefined
			? `${comment('        // ', m.snippets_java_getenv())}
        String macKey = System.getenv(${str(o.macKeyEnv)});
        if (macKey == null || macKey.isEmpty()) {
            System.err.println(${str(o.missingKey)});
            System.exit(1);
        }`
			: `        // ${inlineKeyNote()}
        String macKey = ${str(o.inlineMacKey)};`;
	const tsNonce = o.fixed
		? `        // ${fixedNote()}
        String ts = ${str(o.fixed.ts)};
        String nonce = ${str(o.fixed.nonce)};`
		: `        String ts = String.valueOf(System.currentTimeMillis() / 1000);
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String nonce = Base64.getEncoder().encodeToString(random);`;
	const sep = o.separator;

	return `${purpose('//', 'java Main.java', o.inlineMacKey === undefined ? o.macKeyEnv : null)}
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
${o.fixed ? '' : 'import java.security.SecureRandom;\n'}import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Main {
    static final String URL = ${str(o.url)};
    static final String KID = ${str(o.kid)};

    /** ${m.snippets_program_base_string()} */
    static String baseString(URI url, String ts, String nonce) {
        // ${m.snippets_java_uri()}
        String path = url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String uri = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        // ${m.snippets_program_host()}
        String host = url.getHost().toLowerCase(Locale.ROOT);
        // ${m.snippets_program_port()}
        int port = url.getPort() != -1 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        return String.join("\\n", ts, nonce, "GET", uri, host, String.valueOf(port), "") + "\\n";
    }

    static String sign(String macKey, String text) throws Exception {
        // ${m.snippets_java_utf8()}
        Mac hmac = Mac.getInstance("HmacSHA1");
        hmac.init(new SecretKeySpec(macKey.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(hmac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    }

    public static void main(String[] args) throws Exception {
${macKey}
${tsNonce}
        URI url = URI.create(URL);
        String mac = sign(macKey, baseString(url, ts, nonce));
        String header = String.format("MAC id=\\"%s\\"${sep}ts=\\"%s\\"${sep}nonce=\\"%s\\"${sep}mac=\\"%s\\"", KID, ts, nonce, mac);
        System.out.println("Authorization: " + header);
        if ("1".equals(System.getenv("DRY_RUN"))) return;

        HttpRequest request = HttpRequest.newBuilder(url).header("Authorization", header).build();
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode());
        System.out.println(response.body());
    }
}
`;
}
