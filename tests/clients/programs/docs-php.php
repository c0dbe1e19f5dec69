<?php
// The vendor's PHP sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx (and
// docs/sdk/taptap-login/guide/taptap-oauth.mdx), "PHP 请求示例", "方式二" (sprintf), run for each request.
//
// Habits reproduced, as the sample has them:
// - the base string is sprintf("%s\n%s\n%s\n%s\n%s\n443\n\n", $ts, $nonce, "GET", <literal path and
//   query>, <literal host>): the host and the request URI are typed into it, apart from $request_url,
//   the URL curl is given, so the host signed and the host called can differ;
// - $ts = time(): whole seconds, unpadded;
// - $nonce = "== XinDong_Lee-JiEun ==": the sample's fixed nonce, with spaces and "=" ("replace
//   before launch");
// - $mac = base64_encode(hash_hmac('sha1', $signStr, $mac_key, true)): the key's bytes as written;
// - the header is sprintf('MAC id="%s",ts="%s",nonce="%s",mac="%s"', …): parts joined by ",";
// - it sends with curl_init($request_url) (libcurl): the path and query as typed (non-ASCII as raw
//   UTF-8 bytes), Host as typed without a default port; libcurl refuses a URL with a space.
//   php-curl need not be installed: the libcurl behaviour is written out (the same libcurl as the
//   curl command line, checked by hand on libcurl 7.88).
//
// Input: one JSON object a line on stdin ({url, host, request_uri, kid, mac_key, now_ms?}); output:
// one JSON line a request ({client, method, target, host, authorization, base_string}). The clock:
// the request's now_ms, else ZOO_NOW_MS, else time().

function zoo_time($request)
{
    $readings = $request['now_ms'] ?? (getenv('ZOO_NOW_MS') ?: '');
    if ($readings === '') {
        return time();
    }
    return intdiv((int) explode(',', $readings)[0], 1000);
}

while (($line = fgets(STDIN)) !== false) {
    if (trim($line) === '') {
        continue;
    }
    $request = json_decode($line, true);

    $access_token = $request['kid'];
    $mac_key = $request['mac_key'];
    $request_url = $request['url'];
    $ts = zoo_time($request);
    $nonce = "== XinDong_Lee-JiEun ==";//随机数，正式上线请替换
    $signStr = sprintf("%s\n%s\n%s\n%s\n%s\n443\n\n", $ts, $nonce, "GET", $request['request_uri'], $request['host']);
    $mac = base64_encode(hash_hmac('sha1', $signStr, $mac_key, true));
    $auth = sprintf('MAC id="%s",ts="%s",nonce="%s",mac="%s"', $access_token, $ts, $nonce, $mac);

    // What curl_init($request_url) then curl_exec sends.
    $parts = parse_url($request_url);
    $afterAuthority = preg_replace('~^[a-z]+://[^/?#]*~i', '', $request_url);
    $target = explode('#', $afterAuthority, 2)[0];
    if ($target === '' || $target[0] !== '/') {
        $target = '/' . $target;
    }
    $port = $parts['port'] ?? null;
    $default = strtolower($parts['scheme']) === 'https' ? 443 : 80;
    $host = $parts['host'] . ($port !== null && $port !== $default ? ':' . $port : '');
    $out = [
        'client' => 'docs-php',
        'method' => 'GET',
        'target' => $target,
        'host' => $host,
        'authorization' => $auth,
        'base_string' => $signStr,
    ];
    if (preg_match('/[\x00-\x20\x7f]/', $request_url)) {
        $out['refused'] = 'curl: (3) URL using bad/illegal format or missing URL';
    }
    echo json_encode($out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}
