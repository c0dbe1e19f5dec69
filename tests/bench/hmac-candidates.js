// The HMAC-SHA-1 candidates for the triage's bulk path, timed per signature on the same base
// strings, the same way in Node (triage-engine.js hmac) and in Chromium (hmac-chromium.js):
//   - own: src/lib/triage/hmac/sha1.ts, the key's inner and outer state computed once (today's);
//   - noble: @noble/hashes with its keyed state computed once and copied for each message;
//   - hash-wasm: a WebAssembly SHA-1 (hash-wasm's HMAC, created once per key, init() per message);
//   - SubtleCrypto with the key imported once: one signature awaited at a time, and 256 in flight.
// Each is checked against the others before it is timed: a fast wrong answer is no candidate.
import { createHMAC, createSHA1 } from 'hash-wasm';

export const KEY = 'k7Qx2mZpR4vN8sLwq1W2e3R4t5Y6u7I8';
const IN_FLIGHT = 256;

/** @param {number} count */
export function baseStrings(count) {
	return Array.from(
		{ length: count },
		(_, i) =>
			`${1763800000 + i}\nbm9uY2U${i}\nGET\n/account/profile/v1?client_id=abc${i}\nopen.tapapis.cn\n443\n\n`
	);
}

/** @param {Uint8Array} bytes */
function base64(bytes) {
	let text = '';
	for (const byte of bytes) text += String.fromCharCode(byte);
	return btoa(text);
}

/**
 * Microseconds per signature for each candidate, and whether they all agree.
 * @param {{ nobleSigner: (key: string) => (base: string) => string, ownCheck: (key: string) => (base: string, mac: string) => boolean }} app the app's own signers (src/lib/triage/hmac)
 * @param {number} count
 */
export async function timeCandidates(app, count) {
	const bases = baseStrings(count);
	const encoder = new TextEncoder();
	const noble = app.nobleSigner(KEY);
	const own = app.ownCheck(KEY);
	const wasm = await createHMAC(createSHA1(), KEY);
	const wasmSign = (/** @type {string} */ base) => {
		wasm.init();
		wasm.update(base);
		return base64(/** @type {Uint8Array} */ (wasm.digest('binary')));
	};
	const key = await crypto.subtle.importKey(
		'raw',
		encoder.encode(KEY),
		{ name: 'HMAC', hash: 'SHA-1' },
		false,
		['sign']
	);
	const subtleSign = async (/** @type {string} */ base) =>
		base64(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(base))));
	// They agree, on the first hundred.
	let agree = true;
	for (const base of bases.slice(0, 100)) {
		const mac = noble(base);
		agree &&= own(base, mac) && wasmSign(base) === mac && (await subtleSign(base)) === mac;
	}
	/** @param {(base: string) => unknown} sign */
	const sync = (sign) => {
		for (const base of bases.slice(0, 2000)) sign(base);
		const start = performance.now();
		for (const base of bases) sign(base);
		return ((performance.now() - start) * 1000) / count;
	};
	const sequential = async () => {
		for (const base of bases.slice(0, 1000)) await subtleSign(base);
		const start = performance.now();
		for (const base of bases) await subtleSign(base);
		return ((performance.now() - start) * 1000) / count;
	};
	const inFlight = async () => {
		const start = performance.now();
		for (let at = 0; at < bases.length; at += IN_FLIGHT)
			await Promise.all(bases.slice(at, at + IN_FLIGHT).map((base) => subtleSign(base)));
		return ((performance.now() - start) * 1000) / count;
	};
	const mac = noble(bases[0] ?? '');
	return {
		count,
		agree,
		ownUs: sync((base) => own(base, mac)),
		nobleUs: sync(noble),
		wasmUs: sync(wasmSign),
		subtleUs: await sequential(),
		subtleInFlightUs: await inFlight(),
		inFlight: IN_FLIGHT
	};
}
