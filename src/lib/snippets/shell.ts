import { m } from '$lib/paraglide/messages.js';
import { comment, fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { shellString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** bash 3.2+ (macOS's too), openssl, base64 and curl. */
export function shellSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const macKey =
		o.inlineMacKey === undefined
			? `mac_key=\${${o.macKeyEnv}:?${o.missingKey.replace(/[\\$`}"]/g, '\\$&')}}`
			: `# ${inlineKeyNote()}
mac_key=${str(o.inlineMacKey)}`;
	const tsNonce = o.fixed
		? `# ${fixedNote()}
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

# ${m.snippets_shell_base_string()}
base_string() { # url ts nonce
  local rest authority uri host port
  rest=\${1#*://}
  authority=\${rest%%[/?#]*}
  # ${m.snippets_shell_uri()}
  uri=\${rest#"$authority"}
  uri=\${uri%%#*}
  [[ $uri == /* ]] || uri="/$uri"
  # ${m.snippets_program_host()}
  host=$(printf '%s' "\${authority%%:*}" | tr '[:upper:]' '[:lower:]')
  # ${m.snippets_program_port()}
  if [[ $authority == *:* ]]; then
    port=\${authority##*:}
  elif [[ $1 == https://* ]]; then
    port=443
  else
    port=80
  fi
  printf '%s\\n' "$2" "$3" GET "$uri" "$host" "$port" ''
}

${comment('# ', m.snippets_shell_sign())}
sign() { # mac_key
  openssl dgst -sha1 -hmac "$1" -binary | base64
}

${tsNonce}
# ${m.snippets_shell_piped()}
mac=$(base_string "$url" "$ts" "$nonce" | sign "$mac_key")
header="MAC id=\\"$kid\\"${sep}ts=\\"$ts\\"${sep}nonce=\\"$nonce\\"${sep}mac=\\"$mac\\""
echo "Authorization: $header"
if [[ \${DRY_RUN:-} == 1 ]]; then
  exit 0
fi

# ${m.snippets_shell_curl()}
curl -sS --globoff --path-as-is -H "Authorization: $header" -w '\\nHTTP status %{http_code}\\n' "$url"
`;
}
