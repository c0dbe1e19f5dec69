#!/bin/sh
# An integrator's shell signer (openssl, curl): not the vendor's sample.
# sh sign.sh <kid> <key> <url> <ts> <variant> <style>
KID=$1 KEY=$2 URL=$3 TS=$4 VARIANT=$5 STYLE=$6
REST=${URL#*://}
HOST=${REST%%/*}
URI=/${REST#*/}
if [ "$STYLE" = a ]; then NONCE=$(openssl rand -base64 16); else NONCE=$(openssl rand -hex 8); fi
DIGEST=sha1
[ "$VARIANT" = hmac-sha256 ] && DIGEST=sha256
BASE=$(printf '%s\n%s\nGET\n%s\n%s\n443\n\n' "$TS" "$NONCE" "$URI" "$HOST"; printf x)
BASE=${BASE%x}
if [ "$VARIANT" = digest-hex ]; then
	MAC=$(printf '%s' "$BASE" | openssl dgst -"$DIGEST" -hmac "$KEY" | sed 's/^.* //')
else
	MAC=$(printf '%s' "$BASE" | openssl dgst -"$DIGEST" -hmac "$KEY" -binary | openssl base64 -A)
fi
if [ "$STYLE" = a ]; then
	printf 'MAC id="%s",ts="%s",nonce="%s",mac="%s"\n' "$KID" "$TS" "$NONCE" "$MAC"
else
	printf 'MAC id="%s", ts="%s", nonce="%s", mac="%s"\n' "$KID" "$TS" "$NONCE" "$MAC"
fi
