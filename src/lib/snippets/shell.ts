import { FIXED_NOTE, INLINE_KEY_NOTE, purpose, resolve } from './common';
import { shellString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** bash 3.2+ (macOS's too), openssl, base64 and curl. */
export function shellSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const macKey =
		o.inlineMacKey === undefined
			? `mac_key=\${${o.macKeyEnv}:?${o.missingKey.replace(/[\\$`}"]/g, '\\$&')}}`
			: `# ${INLINE_KEY_NOTE}
mac_key=${str(o.inlineMacKey)}`;
	const tsNonce = o.fixed
		? `# ${FIXED_NOTE}
ts=${str(o.fixed.ts)}
nonce=${str(o.fixed.nonce)}`
		: `ts=$(date +%s)
nonce=$(openssl rand -base64 16)`;
	const sep = o.separator;

	return `#!/usr/bin/env bash
${purpose('#', 'bash sign.sh', o.inlineMacKey === undefined ? o.macKeyEnv : null)}
set -euo pipefail

url=${str(o.url)}
kid=${str(o.kid)}
${macKey}

# Prints the base string: seven lines, each ending in LF; ext is empty, so it ends with two LFs.
base_string() { # url ts nonce
  local rest authority uri host port
  rest=\${1#*://}
  authority=\${rest%%[/?#]*}
  # request URI: path and query cut from the URL as written; never decode or re-encode them.
  uri=\${rest#"$authority"}
  uri=\${uri%%#*}
  [[ $uri == /* ]] || uri="/$uri"
  # host: lower case, without the port.
  host=$(printf '%s' "\${authority%%:*}" | tr '[:upper:]' '[:lower:]')
  # port: the URL's own, else the scheme's default, although the URL does not show it.
  if [[ $authority == *:* ]]; then
    port=\${authority##*:}
  elif [[ $1 == https://* ]]; then
    port=443
  else
    port=80
  fi
  printf '%s\\n' "$2" "$3" GET "$uri" "$host" "$port" ''
}

# Reads the text on stdin. key and text as UTF-8: bash passes on the bytes of this UTF-8 file.
# openssl takes the key as an argument, which other local users can see in ps.
sign() { # mac_key
  openssl dgst -sha1 -hmac "$1" -binary | base64
}

${tsNonce}
# Piped, not captured: $(...) would strip the base string's two closing LFs.
mac=$(base_string "$url" "$ts" "$nonce" | sign "$mac_key")
header="MAC id=\\"$kid\\"${sep}ts=\\"$ts\\"${sep}nonce=\\"$nonce\\"${sep}mac=\\"$mac\\""
echo "Authorization: $header"
if [[ \${DRY_RUN:-} == 1 ]]; then
  exit 0
fi

# --globoff and --path-as-is: curl sends the request URI exactly as signed.
curl -sS --globoff --path-as-is -H "Authorization: $header" -w '\\nHTTP status %{http_code}\\n' "$url"
`;
}
