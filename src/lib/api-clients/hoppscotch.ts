import { OPERATIONS, type Operation } from '$lib/account-api/operations';
import type { ClientRequestForm, DownloadFile } from './types';

/**
 * Hoppscotch's collection and environment, without a signing script. Its stable scripting (`pw`)
 * has no HMAC; its experimental sandbox gained Web Crypto in 2026, but its command-line runner
 * (@hoppscotch/cli) needs Node.js 22 and a native module, so no script could be proven against the
 * sandbox here, and an unproven script is not shipped. The requests send `<<mac_authorization>>`:
 * a header signed elsewhere (this page, or the code snippets) goes there.
 */
export const HOPPSCOTCH_SIGNS = false;

const NAME = 'mac-token-account-api';

function request(operation: Operation) {
	return {
		v: '1',
		name: operation,
		method: 'GET',
		endpoint: `<<base_url>>${OPERATIONS[operation].path}`,
		params: [{ key: 'client_id', value: '<<client_id>>', active: true }],
		headers: [{ key: 'Authorization', value: '<<mac_authorization>>', active: true }],
		preRequestScript: '',
		testScript: '',
		auth: { authType: 'inherit', authActive: true },
		body: { contentType: null, body: null },
		requestVariables: []
	};
}

export function hoppscotchFiles(form: ClientRequestForm): DownloadFile[] {
	const operations = (Object.keys(OPERATIONS) as Operation[]).sort((a, b) =>
		a === form.operation ? -1 : b === form.operation ? 1 : 0
	);
	const collection = {
		v: 2,
		name: NAME,
		folders: [],
		requests: operations.map(request),
		auth: { authType: 'none', authActive: true },
		headers: []
	};
	const environment = {
		name: `${NAME} (${form.region})`,
		variables: [
			{ key: 'base_url', value: form.baseUrl, secret: false },
			{ key: 'kid', value: form.kid, secret: false },
			{ key: 'client_id', value: form.clientId, secret: false },
			// Hoppscotch cannot sign: paste a header signed for this request here (valid within the
			// ts window, for one use). The mac_key itself never goes into Hoppscotch.
			{ key: 'mac_authorization', value: '', secret: true }
		]
	};
	return [
		{
			path: `${NAME}.hoppscotch_collection.json`,
			text: `${JSON.stringify(collection, null, 2)}\n`
		},
		{
			path: `${NAME}.hoppscotch_environment.json`,
			text: `${JSON.stringify(environment, null, 2)}\n`
		}
	];
}
