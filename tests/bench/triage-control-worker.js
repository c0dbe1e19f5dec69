// The Chromium control's worker (triage-control-chromium.js): the reference's own work
// (triage-reference-line.js) on a range of the log's File, read and decoded at once, its lines
// split on line feeds. The HMAC is the engine's own, the fastest this browser runs here (the bench's
// HMAC rows): SubtleCrypto would cost an await a line.
import { ownCheck } from '$lib/triage/hmac';
import { referenceCounts, referenceKeys, referenceLine } from './triage-reference-line.js';

/** @type {Map<string, (base: string, mac: string) => boolean>} */
const checks = new Map();
/** @type {import('./triage-reference-line.js').MacMatches} */
const matches = (key, base, mac) => {
	let check = checks.get(key);
	if (check === undefined) checks.set(key, (check = ownCheck(key)));
	return check(base, mac);
};

onmessage = async (
	/** @type {MessageEvent<{ file: File, start: number, end: number, keysText: string }>} */ event
) => {
	const { file, start, end, keysText } = event.data;
	const keys = referenceKeys(keysText);
	const counts = referenceCounts();
	const text = new TextDecoder().decode(await file.slice(start, end).arrayBuffer());
	for (const line of text.split('\n')) referenceLine(line, keys, counts, matches);
	postMessage(counts);
};
