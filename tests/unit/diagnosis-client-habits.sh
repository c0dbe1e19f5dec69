#!/usr/bin/env bash
# Writes tests/unit/diagnosis-client-habits.json: the requests the vendor's clients of the client zoo
# (tests/clients/programs/, issue 22) really sign, one for each habit the diagnosis catalogue names.
# Each program runs with its own toolchain (javac/java 17, mcs/mono, node) on one JSON line of stdin
# and prints what it signed and sent; a fixed clock (now_ms) keeps the ts, not the nonce.
#
#   bash tests/unit/diagnosis-client-habits.sh [PROGRAMS_DIR] > tests/unit/diagnosis-client-habits.json
set -euo pipefail
programs=${1:-tests/clients/programs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" "$programs/DocsJava.java"
mcs -out:"$work/UnitySdk.exe" "$programs/UnitySdk.cs" >/dev/null

profile='"kid":"demo-kid-profile-4f1c","mac_key":"demo-mac-key-profile-Q9sLx2"'
non_ascii='"kid":"zoo-kid-non-ascii-7d3b","mac_key":"zoo-clé-密钥-ü"'
emoji='"kid":"zoo-kid-emoji-51aa","mac_key":"zoo-key-😀-x"'
cid='client_id=demo-client-0001'
now='"now_ms":"1780000000400"'

# name | expected id | command | stdin line
cases=(
	"java :443 written|uri-with-port|java -Dfile.encoding=UTF-8 -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn:443/account/profile/v1?$cid\",$profile,$now}"
	"java :8443 written|uri-with-port|java -Dfile.encoding=UTF-8 -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn:8443/account/profile/v1?$cid\",$profile,$now}"
	"java host in the query|uri-after-last-host|java -Dfile.encoding=UTF-8 -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid&redirect=https://open.tapapis.cn/cb\",$profile,$now}"
	"java kid as key|key-is-kid|java -Dfile.encoding=UTF-8 -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",\"kid\":\"demo-kid-profile-4f1c\",\"mac_key\":\"demo-kid-profile-4f1c\",$now}"
	"java US-ASCII|key-ascii|java -Dfile.encoding=US-ASCII -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$non_ascii,$now}"
	"java US-ASCII emoji|key-ascii|java -Dfile.encoding=US-ASCII -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$emoji,$now}"
	"java ISO-8859-1|key-latin1|java -Dfile.encoding=ISO-8859-1 -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$non_ascii,$now}"
	"java GBK|key-gbk|java -Dfile.encoding=GBK -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$non_ascii,$now}"
	"java :443 written, US-ASCII|uri-with-port+key-ascii|java -Dfile.encoding=US-ASCII -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn:443/account/profile/v1?$cid\",$non_ascii,$now}"
	"java :443 written, GBK|uri-with-port+key-gbk|java -Dfile.encoding=GBK -cp \$work DocsJava|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn:443/account/profile/v1?$cid\",$non_ascii,$now}"
	"unity non-ASCII key|key-ascii|mono \$work/UnitySdk.exe|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$non_ascii,$now}"
	"unity emoji key|key-ascii|mono \$work/UnitySdk.exe|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$emoji,$now}"
	"unity hmac-sha-256|hmac-sha256|mono \$work/UnitySdk.exe|{\"url\":\"https://open.tapapis.com/account/profile/v1?$cid\",$profile,\"mac_algorithm\":\"hmac-sha-256\",$now}"
	"unity hmac-sha-256, non-ASCII key|key-ascii+hmac-sha256|mono \$work/UnitySdk.exe|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",$non_ascii,\"mac_algorithm\":\"hmac-sha-256\",$now}"
	"unity PathAndQuery of a URL sent as given|uri-dotnet|mono \$work/UnitySdk.exe|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid&tag=%7Ezoo&p=a|b\",$profile,$now}"
	"node older, legacy domestic host|host-legacy|node \$programs/docs-node-old.mjs|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid\",\"host\":\"openapi.taptap.com\",\"request_uri\":\"/account/profile/v1?$cid\",$profile,$now}"
	"node older, legacy overseas host|host-legacy|node \$programs/docs-node-old.mjs|{\"url\":\"https://open.tapapis.com/account/profile/v1?$cid\",\"host\":\"openapi.tap.io\",\"request_uri\":\"/account/profile/v1?$cid\",$profile,$now}"
	"node older, legacy domestic host, overseas called|host-legacy|node \$programs/docs-node-old.mjs|{\"url\":\"https://open.tapapis.com/account/profile/v1?$cid\",\"host\":\"openapi.taptap.com\",\"request_uri\":\"/account/profile/v1?$cid\",$profile,$now}"
	"node older, typed escape and a quote urllib escapes|uri-as-typed|node \$programs/docs-node-old.mjs|{\"url\":\"https://open.tapapis.cn/account/profile/v1?$cid&next=%2Fhome&state=it's\",\"host\":\"open.tapapis.cn\",\"request_uri\":\"/account/profile/v1?$cid&next=%2Fhome&state=it's\",$profile,$now}"
	"node current, ./ and a quote, sent as given|uri-whatwg|node \$programs/docs-node-current.mjs|{\"method\":\"GET\",\"url\":\"https://open.tapapis.cn/account/./profile/v1?$cid&state=it's\",$profile,$now,\"sender\":\"as-given\"}"
)

export work programs
{
	for entry in "${cases[@]}"; do
		IFS='|' read -r name expect command line <<<"$entry"
		# The | of a URL is in the stdin line's last field: read takes the rest of the entry.
		line=${entry#*|*|*|}
		output=$(printf '%s\n' "$line" | eval "$command")
		node -e 'const [name, expect, command, line, output] = process.argv.slice(1);
			console.log(JSON.stringify({ name, expect, command, input: JSON.parse(line), output: JSON.parse(output) }));' \
			"$name" "$expect" "$command" "$line" "$output"
	done
} | node -e 'const lines = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse);
	console.log(JSON.stringify({
		comment: "Made by tests/unit/diagnosis-client-habits.sh from the client zoo programs (tests/clients/programs, branch zoo, commit given below): each case ran `command` with `input` as its one line of stdin; `output` is what the program printed (what it signed and sent). Java: OpenJDK 17.0.21 (javac, java -Dfile.encoding=…); C#: Mono 6.8.0.105 (mcs, mono); Node 20.20.",
		zoo_commit: process.env.ZOO_COMMIT ?? "",
		cases: lines
	}, null, "\t"));'
