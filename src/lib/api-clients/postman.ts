// Postman's download: a collection (v2.1, read by Postman, newman and the clients that import its
// format) with both operations and a collection-level pre-request script that signs each request,
// and an environment with base_url, kid, client_id and an empty secret mac_key.
import { OPERATIONS, type Operation } from '$lib/account-api/operations';
import { DEPLOYMENTS } from '$lib/account-api/deployments';
import { withoutTrailing } from '$lib/mac/encoding';
import type { ClientRequestForm, DownloadFile } from './types';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const MAC_KEY_LINE =
	"Put your mac_key in the environment's secret variable mac_key (its current value); it is never in these files.";

/**
 * The collection's pre-request script, run by Postman's sandbox before each request. It reads the
 * request as it will be sent (variables substituted), rewrites each path segment and query part into
 * one percent-encoding that postman-url-encoder leaves as it is (every byte but A-Z a-z 0-9 - . _ ~
 * encoded), and signs exactly that.
 */
const SCRIPT = [
	'// MAC token signature (HMAC-SHA-1) of the account service, computed for each request at send time.',
	`// ${MAC_KEY_LINE}`,
	"var CryptoJS = require('crypto-js');",
	'',
	'// Every byte but the unreserved characters percent-encoded: what the URL encoder then leaves alone.',
	'function strict(text) {',
	"\treturn encodeURIComponent(text).replace(/[!'()*]/g, function (c) {",
	"\t\treturn '%' + c.charCodeAt(0).toString(16).toUpperCase();",
	'\t});',
	'}',
	'',
	'// A part as typed or already percent-encoded, in the one encoding that goes on the wire.',
	'function canonical(part) {',
	'\tvar text = String(part);',
	'\ttry {',
	'\t\ttext = decodeURIComponent(text);',
	'\t} catch (e) {',
	'\t\t// Not valid percent-encoding (a lone %): the text as typed.',
	'\t}',
	'\treturn strict(text);',
	'}',
	'',
	'function sign() {',
	"\tvar kid = pm.variables.get('kid');",
	"\tvar macKey = pm.variables.get('mac_key');",
	"\tvar missing = !kid ? 'kid' : !macKey ? 'mac_key' : null;",
	'\tif (missing) {',
	'\t\tconsole.error(',
	"\t\t\t'MAC signature refused: ' + missing + ' is empty. Set it in the environment' +",
	"\t\t\t\t(missing === 'mac_key' ? ' (secret variable mac_key, current value).' : '.') +",
	"\t\t\t\t' The request is not sent.'",
	'\t\t);',
	'\t\t// Not sent (Postman 10.23+, newman 6); where skipRequest is unknown, the error stops it.',
	"\t\tif (pm.execution && typeof pm.execution.skipRequest === 'function') pm.execution.skipRequest();",
	"\t\telse throw new Error('MAC signature refused: ' + missing + ' is empty.');",
	'\t\treturn;',
	'\t}',
	'',
	'\t// The request as it will be sent: variables substituted (each query part on its own, so that a',
	'\t// value holding & = or # stays one value), then each part in the one encoding above.',
	'\tvar url = pm.request.url;',
	'\tvar params = url.query.all();',
	'\turl.query.clear();',
	'\turl.update(pm.variables.replaceIn(url.toString()));',
	'\turl.query.clear();',
	'\turl.path = (url.path || []).map(canonical);',
	'\tvar query = [];',
	'\tparams.forEach(function (param) {',
	'\t\tif (!param.disabled) {',
	"\t\t\tparam.key = canonical(pm.variables.replaceIn(param.key || ''));",
	'\t\t\tif (param.value === null || param.value === undefined) {',
	'\t\t\t\tquery.push(param.key);',
	'\t\t\t} else {',
	'\t\t\t\tparam.value = canonical(pm.variables.replaceIn(param.value));',
	"\t\t\t\tquery.push(param.key + '=' + param.value);",
	'\t\t\t}',
	'\t\t}',
	'\t\turl.query.add(param);',
	'\t});',
	"\tvar uri = '/' + url.path.join('/') + (query.length ? '?' + query.join('&') : '');",
	'\tvar host = url.getHost().toLowerCase();',
	"\tvar scheme = String(url.protocol || 'http').toLowerCase();",
	"\tvar port = url.port ? String(url.port) : scheme === 'https' ? '443' : '80';",
	'',
	'\tvar ts = String(Math.floor(Date.now() / 1000));',
	'\tvar nonce = CryptoJS.enc.Base64.stringify(CryptoJS.lib.WordArray.random(16));',
	'\tvar method = pm.request.method.toUpperCase();',
	"\tvar base = [ts, nonce, method, uri, host, port, ''].join('\\n') + '\\n';",
	'\tvar mac = CryptoJS.enc.Base64.stringify(CryptoJS.HmacSHA1(base, macKey));',
	'\tpm.request.headers.upsert({',
	"\t\tkey: 'Authorization',",
	"\t\tvalue: 'MAC id=\"' + kid + '\",ts=\"' + ts + '\",nonce=\"' + nonce + '\",mac=\"' + mac + '\"'",
	'\t});',
	'}',
	'',
	'sign();'
];

/** The operations, the form's first. */
function operationsInOrder(first: Operation): Operation[] {
	return [first, ...(Object.keys(OPERATIONS) as Operation[]).filter((id) => id !== first)];
}

function item(operation: Operation) {
	const { path, scope } = OPERATIONS[operation];
	return {
		name: operation,
		request: {
			method: 'GET',
			header: [],
			url: {
				raw: `{{base_url}}${path}?client_id={{client_id}}`,
				host: ['{{base_url}}'],
				path: path.split('/').filter((segment) => segment !== ''),
				query: [{ key: 'client_id', value: '{{client_id}}' }]
			},
			description: `GET ${path} (scope ${scope}). Signed by the collection's pre-request script.`
		},
		response: []
	};
}

function json(value: unknown): string {
	return `${JSON.stringify(value, null, '\t')}\n`;
}

/** Postman's files for the form: the collection and its environment. */
export function postmanFiles(form: ClientRequestForm): DownloadFile[] {
	const name = `account-service-${form.region}`;
	const title = `Account service (${DEPLOYMENTS[form.region].label})`;
	const collection = {
		info: {
			name: title,
			description: `The account service's two read operations, each signed with a MAC token by the collection's pre-request script. Import ${name}.postman_environment.json with it and select that environment. ${MAC_KEY_LINE}`,
			schema: SCHEMA
		},
		item: operationsInOrder(form.operation).map(item),
		event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: SCRIPT } }]
	};
	const environment = {
		name: title,
		values: [
			{
				key: 'base_url',
				value: withoutTrailing(form.baseUrl.trim(), '/'),
				type: 'default',
				enabled: true
			},
			{ key: 'kid', value: form.kid, type: 'default', enabled: true },
			{ key: 'client_id', value: form.clientId, type: 'default', enabled: true },
			{ key: 'mac_key', value: '', type: 'secret', enabled: true, description: MAC_KEY_LINE }
		],
		_postman_variable_scope: 'environment'
	};
	return [
		{ path: `${name}.postman_collection.json`, text: json(collection) },
		{ path: `${name}.postman_environment.json`, text: json(environment) }
	];
}
