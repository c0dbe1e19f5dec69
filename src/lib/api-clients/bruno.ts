import { OPERATIONS, type Operation } from '$lib/account-api/operations';
import { withoutTrailing } from '$lib/mac/encoding';
import type { ClientRequestForm, DownloadFile } from './types';

/** The folder the collection's files are in: the download's one top folder. */
export const BRUNO_FOLDER = 'mac-token-account-api';

/** Where the mac_key goes, said in the environment, the collection's docs and the refusal. */
const MAC_KEY_PLACE =
	'Put your mac_key in the secret variable mac_key of the environment (Environment settings in Bruno, or bru run --env-var mac_key=...); the download never holds it.';

/**
 * The collection-level pre-request script (plain JavaScript for Bruno's sandbox; it runs in the
 * default Safe Mode, QuickJS, as in Developer Mode). Bruno runs it before it substitutes the
 * request's {{variables}}, so it substitutes them itself (bru.interpolate), then writes the URL back
 * with its path and query in one percent-encoding that neither Bruno (encodeUrl: false in each
 * request) nor the URL parser of its HTTP client changes, and signs exactly that.
 */
const SIGNING_SCRIPT = String.raw`// MAC token signing (HMAC-SHA-1) of every request of this collection.
// crypto-js is bundled with Bruno: this runs in Safe Mode as in Developer Mode.
const CryptoJS = require('crypto-js');

// A variable of any scope (environment, collection, runtime, --env-var), or '' when unset.
function variable(name) {
  const template = '{{' + name + '}}';
  const value = bru.interpolate(template);
  return typeof value === 'string' && value !== template ? value : '';
}

const kid = variable('kid');
const macKey = variable('mac_key');
const missing = [kid ? null : 'kid', macKey ? null : 'mac_key'].filter(Boolean);
if (missing.length > 0) {
  const message = 'MAC signing refused: ' + missing.join(' and ') + ' empty. ' +
    (kid ? '' : 'Set kid in the environment. ') + (macKey ? '' : ${JSON.stringify(MAC_KEY_PLACE)});
  console.error(message);
  throw new Error(message);
}

// encodeURIComponent, and the five characters it leaves that a URL parser may still encode.
function encodeStrict(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
    return '%' + c.charCodeAt(0).toString(16).toUpperCase();
  });
}
function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch (e) {
    return text;
  }
}
function canonical(component) {
  return encodeStrict(decode(component));
}

// The URL as Bruno will send it: variables substituted, http:// when no scheme, no fragment.
let url = bru.interpolate(req.getUrl()).trim();
if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = 'http://' + url;
if (url.indexOf('#') >= 0) url = url.slice(0, url.indexOf('#'));
const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?]*)([^?]*)(?:\?(.*))?$/i.exec(url);
if (!parts) throw new Error('MAC signing refused: cannot read the URL ' + url);
const scheme = parts[1].toLowerCase();
const authority = parts[2];
const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority.slice(authority.lastIndexOf('@') + 1));
if (!hostPort) throw new Error('MAC signing refused: cannot read the host of ' + url);
const host = hostPort[1].toLowerCase();
const port = hostPort[2] || (scheme === 'https' ? '443' : '80');
const path = (parts[3] || '/').split('/').map(canonical).join('/');
const query = (parts[4] || '')
  .split('&')
  .filter(function (pair) {
    return pair !== '';
  })
  .map(function (pair) {
    const eq = pair.indexOf('=');
    return eq < 0 ? canonical(pair) : canonical(pair.slice(0, eq)) + '=' + canonical(pair.slice(eq + 1));
  })
  .join('&');
const requestUri = path + (query ? '?' + query : '');
req.setUrl(scheme + '://' + authority + requestUri);

const ts = String(Math.floor(Date.now() / 1000));
const nonce = CryptoJS.enc.Base64.stringify(CryptoJS.lib.WordArray.random(16));
const method = String(req.getMethod()).toUpperCase();
const base = [ts, nonce, method, requestUri, host, port, ''].join('\n') + '\n';
const mac = CryptoJS.enc.Base64.stringify(
  CryptoJS.HmacSHA1(CryptoJS.enc.Utf8.parse(base), CryptoJS.enc.Utf8.parse(macKey))
);
req.setHeader(
  'Authorization',
  'MAC id="' + kid + '",ts="' + ts + '",nonce="' + nonce + '",mac="' + mac + '"'
);
`;

/** Each line of `text` indented by two spaces, as Bruno writes a block's content. */
function indent(text: string): string {
	return text
		.replace(/\n$/, '')
		.split('\n')
		.map((line) => (line === '' ? '' : `  ${line}`))
		.join('\n');
}

/** A single-line value of a .bru block: no line breaks, no space at either end. */
function oneLine(value: string): string {
	return value.replace(/[\r\n]+/g, ' ').trim();
}

function requestBru(operation: Operation, seq: number): string {
	const { path, scope } = OPERATIONS[operation];
	return `meta {
  name: ${operation}
  type: http
  seq: ${seq}
}

get {
  url: {{base_url}}${path}?client_id={{client_id}}
  body: none
  auth: inherit
}

params:query {
  client_id: {{client_id}}
}

settings {
  encodeUrl: false
}

docs {
${indent(`Needs a credential with the scope ${scope}. The collection's pre-request script signs it (collection settings, Script).
encodeUrl stays false: the script writes the URL already encoded, exactly as it signs it.`)}
}
`;
}

function collectionBru(): string {
	return `auth {
  mode: none
}

script:pre-request {
${indent(SIGNING_SCRIPT)}
}

docs {
${indent(`# MAC token account API

Each request is signed by this collection's pre-request script (HMAC-SHA-1, Authorization: MAC ...).
Choose the environment (its kid, client_id and base_url come from the page). ${MAC_KEY_PLACE}
The script refuses to sign (a message in the console, the request not sent) while kid or mac_key is empty.
It runs in Bruno's default Safe Mode (crypto-js is bundled) as in Developer Mode.
CLI: bru run --env <environment> --env-var mac_key=<your mac_key>`)}
}
`;
}

function environmentBru(form: ClientRequestForm): string {
	return `vars {
  base_url: ${oneLine(withoutTrailing(form.baseUrl.trim(), '/'))}
  kid: ${oneLine(form.kid)}
  client_id: ${oneLine(form.clientId)}
}
vars:secret [
  @description('${MAC_KEY_PLACE}')
  mac_key
]
`;
}

function brunoJson(form: ClientRequestForm): string {
	const config = {
		version: '1',
		name: `MAC token account API (${form.region})`,
		type: 'collection',
		ignore: ['node_modules', '.git']
	};
	return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The Bruno collection of the form: bruno.json, one request per operation (the form's first), the
 * collection's signing script and the form's region as an environment, all under BRUNO_FOLDER/.
 */
export function brunoFiles(form: ClientRequestForm): DownloadFile[] {
	const others = (Object.keys(OPERATIONS) as Operation[]).filter((id) => id !== form.operation);
	const operations = [form.operation, ...others];
	const file = (path: string, text: string): DownloadFile => ({
		path: `${BRUNO_FOLDER}/${path}`,
		text
	});
	return [
		file('bruno.json', brunoJson(form)),
		file('collection.bru', collectionBru()),
		...operations.map((operation, index) =>
			file(`${operation}.bru`, requestBru(operation, index + 1))
		),
		file(`environments/${form.region}.bru`, environmentBru(form))
	];
}
