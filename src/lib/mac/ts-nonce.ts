import { toBase64 } from './encoding';
import { MacInputError, requireText } from './errors';

/** Whole seconds since the Unix epoch, as the header's ts; `pad10` left-pads to 10 digits as one sample does. */
export function timestamp(nowMs: number = Date.now(), options?: { pad10?: boolean }): string {
	if (typeof nowMs !== 'number' || !Number.isFinite(nowMs) || nowMs < 0)
		throw new MacInputError('ts', { code: 'bad_time', params: {} });
	return padTimestamp(String(Math.floor(nowMs / 1000)), options?.pad10 === true);
}

/** A ts of digits with the sample's 10-digit padding added or taken off; anything else as it is. */
export function padTimestamp(ts: string, pad10: boolean): string {
	requireText('ts', ts);
	if (!/^\d+$/.test(ts)) return ts;
	const seconds = ts.replace(/^0+(?=\d)/, '');
	return pad10 ? seconds.padStart(10, '0') : seconds;
}

/** A ts as the spec defines it: decimal whole seconds, nothing else. */
export function isTimestamp(ts: string): boolean {
	return typeof ts === 'string' && /^\d{1,15}$/.test(ts);
}

/** The instant a ts names, or null when it is not a decimal count of seconds. */
export function timestampToDate(ts: string): Date | null {
	if (!isTimestamp(ts)) return null;
	const date = new Date(Number(ts) * 1000);
	return Number.isNaN(date.getTime()) ? null : date;
}

export type NonceKind = 'base64' | 'letters';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A fresh nonce the way the samples make one: 16 random bytes in Base64, or 16 random ASCII letters. */
export function randomNonce(kind: NonceKind = 'base64'): string {
	if (kind !== 'base64' && kind !== 'letters')
		throw new MacInputError('nonce', { code: 'nonce_kind', params: {} });
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	if (kind === 'base64') return toBase64(bytes);
	// 52 letters: rejection sampling keeps every letter equally likely (256 is not a multiple of 52).
	let result = '';
	while (result.length < 16) {
		for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
			if (byte < 208 && result.length < 16) result += LETTERS[byte % 52];
		}
	}
	return result;
}
