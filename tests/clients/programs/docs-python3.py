# The vendor's Python 3 sample: taptap/tds-docs docs/sdk/taptap-login/taptap-oauth.mdx, "Python3 请求示例":
# get_mac_token_signature(host, request_url, method, mac_key, kid). Run by /usr/bin/python3.
#
# Habits reproduced, as the sample has them:
# - the caller's host and request URI strings are signed as given (nothing parsed or encoded);
# - timestamp = str(int(time.time())): whole seconds, unpadded;
# - nonce = 16 random ASCII letters (random.choices of ascii_lowercase + ascii_uppercase);
# - the base string is '\n'.join([timestamp, nonce, method, request_url, host, '443', '']) + '\n';
# - key and text are encoded as UTF-8; the mac is standard Base64;
# - the header is 'MAC id="{kid}",ts="{ts}",nonce="{nonce}",mac="{mac}"': parts joined by ",".
# The sample prints the header and sends nothing; the integrator sends the same request URI with the
# standard library's http.client, whose own request line is what goes out (it refuses a space or a
# control character, and a non-ASCII one: such a request is reported as refused).
#
# Input: one JSON object a line on stdin ({method, host, request_uri, call_host?, kid, mac_key,
# now_ms?}); `call_host` is the host called when it is not the host signed. Output: one JSON line a
# request ({client, method, target, host, authorization, base_string}). The clock: the request's
# now_ms, else ZOO_NOW_MS, else time.time().
import base64
import hmac
import http.client
import json
import os
import random
import string
import sys
import time
from hashlib import sha1


def zoo_time(request):
    readings = request.get('now_ms') or os.environ.get('ZOO_NOW_MS', '')
    if readings:
        return int(readings.split(',')[0]) / 1000
    return time.time()


def get_mac_token_signature(host, request_url, method, mac_key, kid, now):
    mac_token_pattern = 'MAC id="{kid}",ts="{ts}",nonce="{nonce}",mac="{mac}"'
    timestamp = str(int(now))
    nonce = ''.join(random.choices(string.ascii_lowercase + string.ascii_uppercase, k=16))
    sign_array = [timestamp, nonce, method, request_url, host, '443', '']
    seperator = '\n'
    sign_input = seperator.join(sign_array) + seperator
    hmac_code = hmac.new(mac_key.encode('UTF-8'), sign_input.encode('UTF-8'), sha1)
    mac_str = base64.b64encode(hmac_code.digest()).decode('UTF-8')
    return mac_token_pattern.format(kid=kid, ts=timestamp, nonce=nonce, mac=mac_str), sign_input


def sent_by_http_client(host, request_url, method):
    """The request line and Host that http.client builds, without connecting."""
    connection = http.client.HTTPSConnection(host)
    connection.putrequest(method, request_url)
    line = connection._buffer[0].decode('ascii')
    return line[len(method) + 1:-len(' HTTP/1.1')]


for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    method = request.get('method') or 'GET'
    signature, base = get_mac_token_signature(request['host'], request['request_uri'], method,
                                              request['mac_key'], request['kid'], zoo_time(request))
    called = request.get('call_host') or request['host']
    out = {'client': 'docs-python3', 'method': method, 'host': called,
           'authorization': signature, 'base_string': base}
    try:
        out['target'] = sent_by_http_client(called, request['request_uri'], method)
    except (http.client.InvalidURL, UnicodeEncodeError) as error:
        out['target'] = request['request_uri']
        out['refused'] = f'http.client: {type(error).__name__}: {error}'
    print(json.dumps(out, ensure_ascii=False), flush=True)
