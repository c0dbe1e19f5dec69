// The vendor's Java sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx (and
// docs/sdk/taptap-login/guide/taptap-oauth.mdx, English under i18n/en/), "Java 请求示例": class
// Authorization with getAuthorization, getRandomString, mergeSign, sign, getAuthorizationParam, then
// HttpURLConnection. Written again here with the same habits; compiled with javac, run with java.
//
// Habits reproduced, as the sample has them:
// - host = new URL(request_url).getHost() (as written, case kept);
// - request URI = request_url.substring(request_url.lastIndexOf(host) + host.length()): the text
//   after the LAST occurrence of the host, so a written ":443" stays in front of the path, and a query
//   holding the host's own text is cut after it;
// - port = "443" when request_url starts with "https", else "80": never the URL's own port;
// - ts = String.format(Locale.US, "%010d", System.currentTimeMillis() / 1000);
// - nonce = 16 SecureRandom bytes in Base64;
// - the key is key.getBytes(): the platform charset (JDK 17: the locale's, or -Dfile.encoding; US-ASCII
//   under the POSIX locale, GBK on a Chinese Windows), the base string UTF-8;
// - the header is "MAC " + id="…" + "," + ts="…" + "," + nonce="…" + "," + mac="…";
// - HttpURLConnection sends url.getFile() (path and query as written: a space and non-ASCII go out
//   raw) and Host: url.getHost(), with the port only when it is not the scheme's default.
//
// Input: one JSON object a line on stdin, string values only ({method, url, kid, mac_key, now_ms?});
// output: one JSON line a request ({client, method, target, host, authorization, base_string,
// charset}). The clock: the request's now_ms, else ZOO_NOW_MS, else System.currentTimeMillis().
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class DocsJava {
    private static final Deque<Long> clock = new ArrayDeque<>();
    private static String lastBaseString;

    public static void main(String[] args) throws Exception {
        String shared = System.getenv("ZOO_NOW_MS");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        java.io.PrintStream out = new java.io.PrintStream(System.out, true, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().isEmpty()) continue;
            Map<String, String> request = parseObject(line);
            clock.clear();
            String readings = request.getOrDefault("now_ms", shared == null ? "" : shared);
            for (String reading : readings.split(",")) {
                if (!reading.isEmpty()) clock.add(Long.parseLong(reading.trim()));
            }
            String method = request.getOrDefault("method", "GET");
            String request_url = request.get("url");
            String authorization = getAuthorization(request_url, method, request.get("kid"), request.get("mac_key"));
            URL url = new URL(request_url);
            String host = url.getHost();
            if (url.getPort() != -1 && url.getPort() != url.getDefaultPort()) host += ":" + url.getPort();
            out.println("{" + pair("client", "docs-java") + "," + pair("method", method) + ","
                    + pair("target", url.getFile().isEmpty() ? "/" : url.getFile()) + "," + pair("host", host) + ","
                    + pair("authorization", authorization) + "," + pair("base_string", lastBaseString) + ","
                    + pair("charset", Charset.defaultCharset().name()) + "}");
        }
    }

    private static long currentTimeMillis() {
        if (clock.isEmpty()) return System.currentTimeMillis();
        return clock.size() > 1 ? clock.poll() : clock.peek();
    }

    public static String getAuthorization(String request_url, String method, String key_id, String mac_key) {
        try {
            URL url = new URL(request_url);
            String time = String.format(Locale.US, "%010d", currentTimeMillis() / 1000);
            String randomStr = getRandomString(16);
            String host = url.getHost();
            String uri = request_url.substring(request_url.lastIndexOf(host) + host.length());
            String port = "80";
            if (request_url.startsWith("https")) {
                port = "443";
            }
            String other = "";
            lastBaseString = mergeSign(time, randomStr, method, uri, host, port, other);
            String sign = sign(lastBaseString, mac_key);
            return "MAC " + getAuthorizationParam("id", key_id) + "," + getAuthorizationParam("ts", time)
                    + "," + getAuthorizationParam("nonce", randomStr) + "," + getAuthorizationParam("mac", sign);
        } catch (MalformedURLException e) {
            e.printStackTrace();
        }
        return null;
    }

    private static String getRandomString(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String mergeSign(String time, String randomCode, String httpType, String uri,
            String domain, String port, String other) {
        if (time.isEmpty() || randomCode.isEmpty() || httpType.isEmpty() || domain.isEmpty() || port.isEmpty()) {
            return null;
        }
        String prefix = time + "\n" + randomCode + "\n" + httpType + "\n" + uri + "\n" + domain + "\n" + port + "\n";
        if (other.isEmpty()) {
            prefix += "\n";
        } else {
            prefix += (other + "\n");
        }
        return prefix;
    }

    private static String sign(String signatureBaseString, String key) {
        try {
            // key.getBytes(): the platform's default charset, as the sample has it.
            SecretKeySpec signingKey = new SecretKeySpec(key.getBytes(), "HmacSHA1");
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(signingKey);
            byte[] text = signatureBaseString.getBytes(StandardCharsets.UTF_8);
            byte[] signatureBytes = Base64.getEncoder().encode(mac.doFinal(text));
            return new String(signatureBytes, StandardCharsets.UTF_8);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String getAuthorizationParam(String key, String value) {
        if (key.isEmpty() || value.isEmpty()) {
            return null;
        }
        return key + "=" + "\"" + value + "\"";
    }

    // JSON of the zoo's interface: a flat object of strings in, a flat object of strings out.

    private static Map<String, String> parseObject(String json) {
        Map<String, String> result = new LinkedHashMap<>();
        int[] at = { json.indexOf('{') + 1 };
        while (true) {
            skipSpace(json, at);
            if (json.charAt(at[0]) == '}') return result;
            String name = parseString(json, at);
            skipSpace(json, at);
            at[0]++; // ':'
            skipSpace(json, at);
            result.put(name, parseString(json, at));
            skipSpace(json, at);
            if (json.charAt(at[0]) == ',') at[0]++;
        }
    }

    private static void skipSpace(String json, int[] at) {
        while (Character.isWhitespace(json.charAt(at[0]))) at[0]++;
    }

    private static String parseString(String json, int[] at) {
        if (json.charAt(at[0]) != '"') throw new IllegalArgumentException("only string values: " + json);
        StringBuilder text = new StringBuilder();
        for (int i = at[0] + 1;; i++) {
            char c = json.charAt(i);
            if (c == '"') {
                at[0] = i + 1;
                return text.toString();
            }
            if (c != '\\') {
                text.append(c);
                continue;
            }
            char e = json.charAt(++i);
            switch (e) {
                case 'n': text.append('\n'); break;
                case 'r': text.append('\r'); break;
                case 't': text.append('\t'); break;
                case 'b': text.append('\b'); break;
                case 'f': text.append('\f'); break;
                case 'u': text.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16)); i += 4; break;
                default: text.append(e);
            }
        }
    }

    private static String pair(String name, String value) {
        return quote(name) + ":" + (value == null ? "null" : quote(value));
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c == '\n') out.append("\\n");
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }
}
