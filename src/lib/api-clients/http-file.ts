import { OPERATIONS, type Operation } from '$lib/account-api/operations';
import { DEPLOYMENTS } from '$lib/account-api/deployments';
import { withoutTrailing } from '$lib/mac/encoding';
import type { ClientRequestForm, DownloadFile } from './types';

/** The request file: both operations, for httpyac (and readable in REST Client and JetBrains). */
export const HTTP_FILE_NAME = 'mac-token-account-api.http';
/** Where httpyac (and REST Client's {{$dotenv}}) reads MAC_KEY from: the folder of the .http file. */
export const DOTENV_FILE_NAME = '.env';
/** The variable the script reads the mac_key from: in .env, by --var, or from the environment. */
export const MAC_KEY_VARIABLE = 'MAC_KEY';

const TITLES: Record<Operation, string> = {
	'basic-info': 'Get basic information of the current account',
	profile: 'Get detailed information (profile) of the current account'
};

/**
 * The signing script: an httpyac `{{@request … }}` block in the file's global part, so it runs for
 * every request of the file as httpyac's onRequest hook, after httpyac has put the variables in:
 * `request.url` is then the URL httpyac hands to its HTTP client (got). The script rewrites its
 * query into one percent-encoding (each name and value decoded, then encoded with
 * encodeURIComponent and ! ' ( ) * as well), which the client's URL parser leaves as it is, and
 * signs the path and query of `new URL(request.url)`: the bytes that go on the wire.
 */
const SIGNING_SCRIPT = String.raw`{{@request
  // MAC token signing (HMAC-SHA-1), run by httpyac just before it sends each request of this file.
  const crypto = require('crypto');
  const macKey = (typeof MAC_KEY === 'string' && MAC_KEY) || process.env.MAC_KEY || '';
  const macKid = typeof kid === 'string' ? kid : '';
  if (!macKid || !macKey) {
    const message = macKid
      ? 'MAC token not signed, mac_key is empty. Put MAC_KEY=<your mac_key> in the .env file beside this file (or set the environment variable MAC_KEY).'
      : 'MAC token not signed, kid is empty. Set @kid at the top of this file.';
    console.error(message);
    throw new Error(message);
  }
  // One percent-encoding of the query, which httpyac then sends as it is.
  const encode = (text) =>
    encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const decode = (text) => {
    try {
      return decodeURIComponent(text);
    } catch (error) {
      return text;
    }
  };
  const at = request.url.indexOf('?');
  if (at >= 0) {
    const query = request.url
      .slice(at + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return encode(decode(pair));
        return encode(decode(pair.slice(0, eq))) + '=' + encode(decode(pair.slice(eq + 1)));
      })
      .join('&');
    request.url = request.url.slice(0, at) + '?' + query;
  }
  // What goes on the wire: the path and query of the URL as parsed, the host without its port.
  const url = new URL(request.url);
  const ts = String(Math.floor(Date.now() / 1000));
  const nonce = crypto.randomBytes(16).toString('base64');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const method = (request.method || 'GET').toUpperCase();
  const baseString =
    [ts, nonce, method, url.pathname + url.search, url.hostname.toLowerCase(), port, ''].join('\n') + '\n';
  const mac = crypto.createHmac('sha1', Buffer.from(macKey, 'utf8')).update(baseString, 'utf8').digest('base64');
  request.headers = request.headers || {};
  for (const name of Object.keys(request.headers)) {
    if (name.toLowerCase() === 'authorization') delete request.headers[name];
  }
  request.headers.Authorization =
    'MAC id="' + macKid + '",ts="' + ts + '",nonce="' + nonce + '",mac="' + mac + '"';
}}`;

/**
 * A variable's line. httpyac reads `@name = value` up to the end of the line, leaves out spaces at
 * either end and a leading `"`, and takes no empty value (the line would be read as a request):
 * such a value is written as a JavaScript string, `{{"…"}}`, which httpyac evaluates back to the
 * form's text. httpyac evaluates any `{{…}}` in a value, the evaluated one too: see clientIdValue.
 */
function variable(name: string, value: string): string {
	const plain = value !== '' && value === value.trim() && !/^"|[{}\r\n\u2028\u2029]/.test(value);
	if (plain) return `@${name} = ${value}`;
	const literal = JSON.stringify(value).replace(
		/[{}\u2028\u2029]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
	);
	return `@${name} = {{${literal}}}`;
}

/**
 * client_id with its braces percent-encoded, so that httpyac finds no `{{…}}` in it to evaluate:
 * the script decodes each query value before encoding it, so the same bytes go on the wire.
 */
function clientIdValue(clientId: string): string {
	return clientId.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

/** The base URL without the trailing slashes a path would double. */
function baseUrlOf(form: ClientRequestForm): string {
	return withoutTrailing(form.baseUrl.trim(), '/');
}

function requestBlock(operation: Operation): string {
	const { path, scope } = OPERATIONS[operation];
	return [
		'###',
		`# ${TITLES[operation]} (scope ${scope})`,
		`# @name ${operation}`,
		`GET {{base_url}}${path}?client_id={{client_id}}`,
		'# Authorization: MAC id="…",ts="…",nonce="…",mac="…" is added by the signing script above.',
		''
	].join('\n');
}

function httpFileText(form: ClientRequestForm): string {
	const operations: Operation[] = [
		form.operation,
		...(Object.keys(OPERATIONS) as Operation[]).filter((id) => id !== form.operation)
	];
	const header = [
		'# MAC token (HMAC-SHA-1) requests to the Account API: basic information and profile.',
		`# Deployment: ${DEPLOYMENTS[form.region].label}; base URL, kid and client_id as the form had them.`,
		'#',
		'# Runs in httpyac: the VS Code extension "httpYac", or on the command line',
		`#   npx httpyac send ${HTTP_FILE_NAME} --all`,
		'# The {{@request … }} block below signs each request just before httpyac sends it: the path and',
		'# query as they go on the wire, the host without its port, the port, ts, a fresh nonce.',
		'# VS Code REST Client and the JetBrains HTTP Client cannot run this script block (REST Client has',
		'# no scripts; JetBrains runs only its own `< {% … %}` scripts): there the requests go unsigned.',
		'#',
		'# mac_key is never in this file. Put it in the .env file beside this file, as',
		`#   ${MAC_KEY_VARIABLE}=<your mac_key>`,
		'# (httpyac reads .env from the folder of the .http file; never commit it: add .env to .gitignore),',
		`# or set the environment variable ${MAC_KEY_VARIABLE}, or pass --var ${MAC_KEY_VARIABLE}=… to httpyac.`,
		''
	];
	const variables = [
		variable('base_url', baseUrlOf(form)),
		variable('kid', form.kid),
		variable('client_id', clientIdValue(form.clientId)),
		''
	];
	return [...header, ...variables, SIGNING_SCRIPT, '', ...operations.map(requestBlock)].join('\n');
}

/**
 * The .http download: one file with both operations (the form's first), the variables at its top
 * and the httpyac signing script. The mac_key goes in a .env beside it (its header says how); no
 * .env is downloaded, since a browser renames a file whose name starts with a dot.
 */
export function httpFiles(form: ClientRequestForm): DownloadFile[] {
	return [{ path: HTTP_FILE_NAME, text: httpFileText(form) }];
}
