import { m } from '$lib/paraglide/messages.js';
import { fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { phpString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** PHP 8: hash_hmac and an http stream, no extension beyond the defaults. */
export function phpSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	// The message may sit in double quotes: it holds only words and the variable's name.
	const macKey =
		o.inlineMacKey === undefined
			? `$macKey = getenv(${str(o.macKeyEnv)});
if ($macKey === false || $macKey === '') {
    fwrite(STDERR, "${o.missingKey}\\n");
    exit(1);
}`
			: `// ${inlineKeyNote()}
$macKey = ${str(o.inlineMacKey)};`;
	const tsNonce = o.fixed
		? `// ${fixedNote()}
$ts = ${str(o.fixed.ts)};
$nonce = ${str(o.fixed.nonce)};`
		: `$ts = (string) time();
$nonce = base64_encode(random_bytes(16));`;
	const sep = o.separator;

	return `<?php
${purpose('//', 'php sign.php', o.inlineMacKey === undefined ? o.macKeyEnv : null)}

const REQUEST_URL = ${str(o.url)};
const KID = ${str(o.kid)};

/** ${m.snippets_program_base_string()} */
function base_string(string $url, string $ts, string $nonce): string
{
    $parts = parse_url($url);
    // ${m.snippets_php_uri()}
    $uri = ($parts['path'] ?? '') === '' ? '/' : $parts['path'];
    if (isset($parts['query'])) {
        $uri .= '?' . $parts['query'];
    }
    // ${m.snippets_program_host()}
    $host = strtolower($parts['host']);
    // ${m.snippets_program_port()}
    $port = $parts['port'] ?? ($parts['scheme'] === 'https' ? 443 : 80);
    return implode("\\n", [$ts, $nonce, 'GET', $uri, $host, $port, '']) . "\\n";
}

function sign(string $macKey, string $text): string
{
    // ${m.snippets_php_utf8()}
    return base64_encode(hash_hmac('sha1', $text, $macKey, true));
}

${macKey}
${tsNonce}
$mac = sign($macKey, base_string(REQUEST_URL, $ts, $nonce));
$header = sprintf('MAC id="%s"${sep}ts="%s"${sep}nonce="%s"${sep}mac="%s"', KID, $ts, $nonce, $mac);
echo "Authorization: $header\\n";
if (getenv('DRY_RUN') === '1') {
    exit(0);
}

$context = stream_context_create(['http' => ['header' => "Authorization: $header", 'ignore_errors' => true]]);
$response = fopen(REQUEST_URL, 'r', false, $context);
if ($response === false) {
    exit(1);
}
// ${m.snippets_php_status_line()}
echo stream_get_meta_data($response)['wrapper_data'][0], "\\n", stream_get_contents($response), "\\n";
`;
}
