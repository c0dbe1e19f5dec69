// The reference's work on one line (triage-reference.js), kept apart from how it is read and from
// node:crypto, so that the controls (triage-control.js) do exactly that work on threads of Node
// and in Chromium's workers: parse the line, read the header's parameters, rebuild the base string,
// compare its HMAC-SHA-1 with the header's mac. No diagnosis, no grouping beyond match and mismatch.

// From a word's start only: a name is read once, not again from each of its letters.
const PARAM = /\b([a-z]+)="([^"]*)"/g;

/**
 * @typedef {{ match: number, mismatch: number, noKey: number, unreadable: number }} ReferenceCounts
 * @typedef {(key: string, baseString: string, mac: string) => boolean} MacMatches
 */

/** @returns {ReferenceCounts} */
export function referenceCounts() {
	return { match: 0, mismatch: 0, noKey: 0, unreadable: 0 };
}

/**
 * The `kid mac_key` lines of a keys file.
 * @param {string} keysText
 * @returns {Map<string, string>}
 */
export function referenceKeys(keysText) {
	return new Map(
		keysText
			.split('\n')
			.map((line) => line.trim().split(/\s+/))
			.filter((words) => words.length === 2)
			.map(([kid = '', key = '']) => [kid, key])
	);
}

/**
 * Counts one line of an NDJSON log.
 * @param {string} line
 * @param {Map<string, string>} keys
 * @param {ReferenceCounts} counts
 * @param {MacMatches} matches the HMAC-SHA-1 of the base string, compared with the mac
 */
export function referenceLine(line, keys, counts, matches) {
	if (line === '') return;
	let record;
	try {
		record = JSON.parse(line);
	} catch {
		counts.unreadable += 1;
		return;
	}
	const header = String(record.authorization);
	if (!header.startsWith('MAC ')) {
		counts.unreadable += 1;
		return;
	}
	/** @type {Record<string, string>} */
	const params = {};
	for (const [, name = '', value = ''] of header.matchAll(PARAM)) params[name] = value;
	const key = keys.get(params.id ?? '');
	if (key === undefined) {
		counts.noKey += 1;
		return;
	}
	const url = new URL(record.url);
	const port = url.port || (url.protocol === 'http:' ? '80' : '443');
	const base = `${params.ts}\n${params.nonce}\n${String(record.method).toUpperCase()}\n${url.pathname}${url.search}\n${url.hostname}\n${port}\n${params.ext ?? ''}\n`;
	if (matches(key, base, params.mac ?? '')) counts.match += 1;
	else counts.mismatch += 1;
}
