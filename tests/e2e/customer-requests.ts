// A customer's signed requests, as the several-request tests of /verify paste them: one kid and
// key, signed for the domestic host with node:crypto (not the page's code).
import { createHmac } from 'node:crypto';

export const KEY = 'support-desk-key-7Hq';
export const KID = 'kid-of-a-customer-1234';
export const HOST = 'open.tapapis.cn';
export const BASIC = '/account/basic-info/v1?client_id=cust-app';
export const PROFILE = '/account/profile/v1?client_id=cust-app';
/** Now, so that the clock check has nothing to say. */
export const ts = String(Math.floor(Date.now() / 1000));

/** The Authorization header of a GET signed over `signedPath` (which may differ from the URL's). */
export function authorization(signedPath: string, nonce: string): string {
	const base = `${ts}\n${nonce}\nGET\n${signedPath}\n${HOST}\n443\n\n`;
	const mac = createHmac('sha1', KEY).update(base).digest('base64');
	return `MAC id="${KID}",ts="${ts}",nonce="${nonce}",mac="${mac}"`;
}
