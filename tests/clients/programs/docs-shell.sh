#!/usr/bin/env bash
# The vendor's shell sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx, "脚本请求示例"
# (English: i18n/en/…/taptap-oauth.mdx, "Script Request Example"), run for each request.
#
# Habits reproduced, as the sample has them:
# - REQUEST_URI ("path?query") and REQUEST_HOST are literal strings the integrator types; the port
#   line is a literal 443 in the printf format;
# - TS=$(date +%s); NONCE is the sample's fixed "8IBTHwOdqNKAWeKl7plt8g==" ("replace before launch");
# - the base string is printf "%s\n%s\n%s\n%s\n%s\n443\n\n", signed by
#   `openssl dgst -binary -sha1 -hmac ${MAC_KEY}` (the key unquoted, as its bytes) and `base64`;
# - the header is printf 'MAC id="%s",ts="%s",nonce="%s",mac="%s"': parts joined by ",";
# - it calls curl -s -H"Authorization:…" "https://${REQUEST_HOST}${REQUEST_URI}": curl sends the
#   path and query as typed (non-ASCII as raw UTF-8 bytes) and Host as typed; it refuses a URL
#   with a space in it ("URL using bad/illegal format").
#
# Input: one JSON object a line on stdin ({kid, mac_key, host, request_uri, now_ms?}), read with jq;
# output: one JSON line a request ({client, method, target, host, authorization, base_string}).
# The clock: the request's now_ms (its first reading), else ZOO_NOW_MS, else `date +%s`.
set -uo pipefail

now_seconds() {
	local readings=$1
	[ -z "$readings" ] && readings=${ZOO_NOW_MS:-}
	if [ -n "$readings" ]; then
		echo $((${readings%%,*} / 1000))
	else
		date +%s
	fi
}

while IFS= read -r line || [ -n "$line" ]; do
	[ -z "$line" ] && continue
	field() { jq -r --arg name "$1" '.[$name] // ""' <<<"$line"; }

	ACCESS_TOKEN=$(field kid)
	MAC_KEY=$(field mac_key)
	NONCE="8IBTHwOdqNKAWeKl7plt8g=="
	TS=$(now_seconds "$(field now_ms)")
	METHOD="GET"
	REQUEST_URI=$(field request_uri)
	REQUEST_HOST=$(field host)

	BASE=$(printf "%s\n%s\n%s\n%s\n%s\n443\n\n" "${TS}" "${NONCE}" "${METHOD}" "${REQUEST_URI}" "${REQUEST_HOST}"; echo .)
	# shellcheck disable=SC2086 # the sample passes the key unquoted
	MAC=$(printf "%s\n%s\n%s\n%s\n%s\n443\n\n" "${TS}" "${NONCE}" "${METHOD}" "${REQUEST_URI}" "${REQUEST_HOST}" | openssl dgst -binary -sha1 -hmac ${MAC_KEY} | base64)
	AUTHORIZATION=$(printf 'MAC id="%s",ts="%s",nonce="%s",mac="%s"' "${ACCESS_TOKEN}" "${TS}" "${NONCE}" "${MAC}")

	# What `curl -s -H"Authorization:${AUTHORIZATION}" "https://${REQUEST_HOST}${REQUEST_URI}"` sends.
	refused=""
	case "${REQUEST_HOST}${REQUEST_URI}" in
	*[[:space:][:cntrl:]]*) refused="curl: (3) URL using bad/illegal format or missing URL" ;;
	esac
	jq -nc --arg client docs-shell --arg method "$METHOD" --arg target "$REQUEST_URI" \
		--arg host "$REQUEST_HOST" --arg authorization "$AUTHORIZATION" --arg base "${BASE%.}" \
		--arg refused "$refused" \
		'{client: $client, method: $method, target: $target, host: $host,
		  authorization: $authorization, base_string: $base}
		 + (if $refused == "" then {} else {refused: $refused} end)'
done
