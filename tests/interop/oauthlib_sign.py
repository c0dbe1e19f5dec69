"""Signs requests with oauthlib's OAuth 2.0 client (MAC token type, draft 1 of the MAC scheme).

Run by tests/interop/interop.test.ts with Debian's /usr/bin/python3 and python3-oauthlib.
`--version` prints oauthlib's version; otherwise stdin is {"requests": [{"kid", "key", "method",
"url"}]} and stdout is {"headers": [...]}, one Authorization header per request, in order.
Nothing is sent anywhere: add_token only builds the header.
"""

import json
import sys

import oauthlib
from oauthlib.oauth2 import WebApplicationClient


def sign(request):
    client = WebApplicationClient(
        "interop-client",
        token_type="MAC",
        access_token=request["kid"],
        mac_key=request["key"],
        mac_algorithm="hmac-sha-1",
    )
    # draft=1 is the MAC scheme with ts and nonce as separate lines (the account service's);
    # draft 0, the default, signs "age:nonce" and a body hash instead.
    _, headers, _ = client.add_token(request["url"], http_method=request["method"], draft=1)
    return headers["Authorization"]


def main():
    if sys.argv[1:] == ["--version"]:
        print(oauthlib.__version__)
        return
    requests = json.load(sys.stdin)["requests"]
    json.dump({"headers": [sign(request) for request in requests]}, sys.stdout)


main()
