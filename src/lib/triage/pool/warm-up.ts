// A pool worker's first parts run cold: until the engine's code is compiled for what it meets, a
// part takes two to three times as long. A worker started before it is needed triages this small
// made-up log first (a request signed well, now and then one with the query dropped from its base
// string, and one signed with another key), so that the code a run needs is warm when the user's
// log comes. Nothing of it is kept.
import type { Digest } from '$lib/mac';
import { syncDigests } from '../hmac';
import { OPERATIONS } from '$lib/account-api/operations';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import type { PartSettings } from './part';

const KID = 'warm-up-kid';
const KEY = 'warm-up-mac-key';
const HOST = 'warm-up.example';
const PATHS = Object.values(OPERATIONS).map((operation) => operation.path);

/** A log of `lines` NDJSON requests, signed here, and the settings to triage it with. */
export function warmUpLog(lines = 1500): {
	bytes: Uint8Array<ArrayBuffer>;
	settings: PartSettings;
} {
	const sign = syncDigests('own');
	const rows: string[] = [];
	for (let index = 0; index < lines; index++) {
		const ts = String(1_700_000_000 + index);
		const nonce = `n${index.toString(36)}x`;
		const path = PATHS[index % PATHS.length] as string;
		const query = `?client_id=c${index % 97}`;
		const signed = index % 50 === 7 ? path : `${path}${query}`;
		const key = index % 500 === 11 ? `${KEY}-old` : KEY;
		const base = `${ts}\n${nonce}\nGET\n${signed}\n${HOST}\n443\n\n`;
		// syncDigests signs synchronously (its type allows the core's asynchronous signers too).
		const mac = (sign(key, base, 'SHA-1') as Digest).base64;
		rows.push(
			JSON.stringify({
				method: 'GET',
				url: `https://${HOST}${path}${query}`,
				authorization: `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"`,
				status: 200,
				time: Number(ts) + 1
			})
		);
	}
	return {
		bytes: new TextEncoder().encode(`${rows.join('\n')}\n`),
		settings: {
			plan: { format: 'ndjson', skip: 0 },
			keys: `${KID} ${KEY}`,
			windowSeconds: TS_WINDOW_SECONDS,
			nowMs: 1_700_000_000_000,
			hmac: 'own',
			output: 'batch',
			revealKid: false
		}
	};
}
