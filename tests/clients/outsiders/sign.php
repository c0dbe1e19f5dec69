<?php
// An integrator's PHP signer (an HTTP stream context, hash_hmac; curl is not built in here): not the vendor's sample.
// php sign.php <kid> <key> <url> <ts> <variant> <style>
[, $kid, $key, $url, $ts, $variant, $style] = $argv;
$parts = parse_url($url);
$nonce = $style === 'a' ? (string) mt_rand() : base64_encode(random_bytes(16));
if ($variant === 'ts-milliseconds') $ts = (string) round(microtime(true) * 1000);
$uri = $parts['path'] . (isset($parts['query']) ? '?' . $parts['query'] : '');
$base = "$ts\n$nonce\nGET\n$uri\n{$parts['host']}\n443\n\n";
$algo = $variant === 'hmac-sha256' ? 'sha256' : 'sha1';
$mac = base64_encode(hash_hmac($algo, $base, $key, true));
$header = $style === 'a'
	? sprintf('MAC id="%s",ts="%s",nonce="%s",mac="%s"', $kid, $ts, $nonce, $mac)
	: sprintf('MAC id="%s", ts="%s", nonce="%s", mac="%s"', $kid, $ts, $nonce, $mac);
stream_context_create(['http' => ['method' => 'GET', 'header' => 'Authorization: ' . $header]]);
echo $header, "\n";
