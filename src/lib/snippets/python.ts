import { m } from '$lib/paraglide/messages.js';
import { fixedNote, inlineKeyNote, purpose, resolve } from './common';
import { pythonString as str } from './string-literals';
import type { SnippetOptions } from './types';

/** Python 3.6+, standard library only. */
export function pythonSnippet(options: SnippetOptions): string {
	const o = resolve(options);
	const macKey =
		o.inlineMacKey === undefined
			? `mac_key = os.environ.get(${str(o.macKeyEnv)})
if not mac_key:
    sys.exit(${str(o.missingKey)})`
			: `# ${inlineKeyNote()}
mac_key = ${str(o.inlineMacKey)}`;
	const tsNonce = o.fixed
		? `# ${fixedNote()}
ts = ${str(o.fixed.ts)}
nonce = ${str(o.fixed.nonce)}`
		: `ts = str(int(time.time()))
nonce = base64.b64encode(secrets.token_bytes(16)).decode('ascii')`;
	const sep = o.separator;
	// Fixed mode makes no ts or nonce, so it imports neither time nor secrets.
	const fresh = (name: string) => (o.fixed ? [] : [name]);
	const imports = [
		...['base64', 'hashlib', 'hmac', 'os'],
		...fresh('secrets'),
		'sys',
		...fresh('time'),
		...['urllib.error', 'urllib.request']
	]
		.map((name) => `import ${name}`)
		.join('\n');

	return `${purpose('#', 'python3 sign.py', o.inlineMacKey === undefined ? o.macKeyEnv : null)}
${imports}
from urllib.parse import urlsplit

URL = ${str(o.url)}
KID = ${str(o.kid)}
${macKey}


def base_string(url, ts, nonce):
    """${m.snippets_program_base_string()}"""
    parts = urlsplit(url)
    # ${m.snippets_python_uri()}
    uri = parts.path or '/'
    if '?' in url.split('#')[0]:
        uri += '?' + parts.query
    # ${m.snippets_python_host()}
    # ${m.snippets_program_port()}
    port = parts.port or (443 if parts.scheme == 'https' else 80)
    return ''.join(f'{line}\\n' for line in (ts, nonce, 'GET', uri, parts.hostname, port, ''))


def sign(mac_key, text):
    # ${m.snippets_program_utf8()}
    digest = hmac.new(mac_key.encode('utf-8'), text.encode('utf-8'), hashlib.sha1).digest()
    return base64.b64encode(digest).decode('ascii')


${tsNonce}
mac = sign(mac_key, base_string(URL, ts, nonce))
header = f'MAC id="{KID}"${sep}ts="{ts}"${sep}nonce="{nonce}"${sep}mac="{mac}"'
print(f'Authorization: {header}')
if os.environ.get('DRY_RUN') == '1':
    sys.exit(0)

request = urllib.request.Request(URL, headers={'Authorization': header})
try:
    with urllib.request.urlopen(request) as response:
        print(response.status, response.reason)
        print(response.read().decode('utf-8', 'replace'))
except urllib.error.HTTPError as error:
    print(error.code, error.reason)
    print(error.read().decode('utf-8', 'replace'))
`;
}
