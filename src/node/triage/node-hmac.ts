// node:crypto's HMAC-SHA-1 as the triage's check of a mac (`--hmac node`): for the command line and
// its worker threads only, since the browser's code cannot import node:crypto.
import { createHmac, createSecretKey } from 'node:crypto';
import type { MacCheckFactory } from '$lib/triage/hmac';

/** Its key made once per mac_key; each base string then costs one HMAC. */
export const nodeMacCheck: MacCheckFactory = (macKey) => {
	const key = createSecretKey(Buffer.from(macKey, 'utf8'));
	return (baseString, mac) =>
		createHmac('sha1', key).update(baseString, 'utf8').digest('base64') === mac;
};
