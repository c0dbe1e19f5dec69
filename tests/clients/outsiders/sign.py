# An integrator's Python signer (requests' habits, hmac): not the vendor's sample.
# python3 sign.py <kid> <key> <url> <ts> <variant> <style>
import base64, hashlib, hmac, os, secrets, sys
from urllib.parse import urlsplit

kid, key, url, ts, variant, style = sys.argv[1:7]
parts = urlsplit(url)
nonce = base64.b64encode(os.urandom(16)).decode() if style == 'a' else secrets.token_urlsafe(16)
uri = parts.path if variant == 'query-dropped' else parts.path + ('?' + parts.query if parts.query else '')
base = f'{ts}\n{nonce}\nGET\n{uri}\n{parts.hostname}\n443\n\n'
digest = hashlib.sha256 if variant == 'hmac-sha256' else hashlib.sha1
mac = hmac.new(key.encode(), base.encode(), digest)
sig = mac.hexdigest() if variant == 'digest-hex' else base64.b64encode(mac.digest()).decode()
fields = {'id': kid, 'ts': ts, 'nonce': nonce, 'mac': sig}
print('MAC ' + (', ' if style == 'a' else ',').join(f'{k}="{v}"' for k, v in fields.items()))
