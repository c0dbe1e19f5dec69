// A generated NDJSON log of signed requests with planted faults, the same for a given seed: the
// triage benchmark, the unit tests and the end-to-end test read it and check every count against
// what was planted. Signed here with node:crypto, apart from the code under test.
import { createHmac } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from '../../src/node/sandbox-server/seeded-random.js';

/**
 * @typedef {'query-dropped' | 'host-other-deployment' | 'host-with-port' | 'method-lower-case' | 'ext-line-dropped' | 'crlf' | 'digest-hex'} PlantedMistake
 * @typedef {PlantedMistake | 'unexplained' | 'no-key' | 'not-json' | 'bad-header' | 'ts-window' | 'nonce-reused'} Fault
 * @typedef {{
 *   requests: number, match: number, refused: number, mismatch: number, noKey: number, unreadable: number,
 *   mistakes: Record<PlantedMistake, number>, unexplained: number, outsideWindow: number,
 *   withLoggedTime: number, noncesReused: number, lines: Record<Fault, number[]>
 * }} Expected
 * @typedef {{ requests?: number, kids?: number, faultRate?: number, seed?: number }} LogOptions
 */

/**
 * Mistakes the diagnosis catalogue names, planted in the signer: the id it should name for each.
 * @type {PlantedMistake[]}
 */
export const PLANTED_MISTAKES = [
	'query-dropped',
	'host-other-deployment',
	'host-with-port',
	'method-lower-case',
	'ext-line-dropped',
	'crlf',
	'digest-hex'
];

/**
 * Every kind of fault planted, mistakes first; each appears about equally often.
 * @type {Fault[]}
 */
export const FAULTS = [
	...PLANTED_MISTAKES,
	'unexplained',
	'no-key',
	'not-json',
	'bad-header',
	'ts-window',
	'nonce-reused'
];

export const BASE_TS = 1_763_800_000;
const HOST = 'open.tapapis.cn';
const OTHER_HOST = 'open.tapapis.com';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** @param {() => number} next @param {number} length */
function word(next, length) {
	let text = '';
	for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
	return text;
}

/**
 * The kids and their keys for a seed, and the keys file text (`kid mac_key` a line).
 * @returns {{ pairs: { kid: string, key: string }[], text: string }}
 */
export function triageKeys(kids = 20, seed = 1) {
	const next = seededRandom(seed * 7919 + 17);
	const pairs = Array.from({ length: kids }, () => ({ kid: word(next, 24), key: word(next, 32) }));
	return { pairs, text: pairs.map(({ kid, key }) => `${kid} ${key}`).join('\n') + '\n' };
}

/** @param {string[]} lines @param {string} end @param {'terminated' | 'joined'} ending */
function baseString(lines, end = '\n', ending = 'terminated') {
	return ending === 'joined' ? lines.join(end) : lines.map((line) => `${line}${end}`).join('');
}

/**
 * The log, line by line, with its expected counts filled in as it is read (complete once the
 * iteration ends). Options: requests, kids, faultRate (about 1%), seed.
 * @param {LogOptions} [options]
 */
export function triageLog({ requests = 100_000, kids = 20, faultRate = 0.01, seed = 1 } = {}) {
	const keys = triageKeys(kids, seed);
	/** @type {Expected} */
	const expected = {
		requests: 0,
		match: 0,
		refused: 0,
		mismatch: 0,
		noKey: 0,
		unreadable: 0,
		mistakes: /** @type {Record<PlantedMistake, number>} */ (
			Object.fromEntries(PLANTED_MISTAKES.map((id) => [id, 0]))
		),
		unexplained: 0,
		outsideWindow: 0,
		withLoggedTime: 0,
		noncesReused: 0,
		/** Line numbers of each fault kind. */
		lines: /** @type {Record<Fault, number[]>} */ (
			Object.fromEntries(FAULTS.map((fault) => [fault, /** @type {number[]} */ ([])]))
		)
	};
	/** @returns {Generator<string>} */
	function* lines() {
		const next = seededRandom(seed);
		let faults = 0;
		/** @type {{ kid: string, key: string, nonce: string } | null} */
		let lastNonce = null;
		for (let i = 0; i < requests; i++) {
			const number = i + 1;
			let { kid, key } = keys.pairs[Math.floor(next() * keys.pairs.length)] ??
				keys.pairs[0] ?? {
					kid: '',
					key: ''
				};
			const ts = String(BASE_TS + i);
			let nonce = Buffer.from(word(next, 12)).toString('base64');
			const clientId = word(next, 10);
			const path = next() < 0.5 ? '/account/basic-info/v1' : '/account/profile/v1';
			const url = `https://${HOST}${path}?client_id=${clientId}`;
			const fault = next() < faultRate ? (FAULTS[faults++ % FAULTS.length] ?? null) : null;
			// A nonce used again: the last readable request's kid and nonce.
			const realFault = fault === 'nonce-reused' && lastNonce === null ? null : fault;
			if (realFault === 'nonce-reused' && lastNonce !== null) ({ kid, key, nonce } = lastNonce);
			if (realFault !== 'no-key' && realFault !== 'not-json' && realFault !== 'bad-header')
				lastNonce = { kid, key, nonce };
			let method = 'GET';
			let uri = `${path}?client_id=${clientId}`;
			let host = HOST;
			let end = '\n';
			/** @type {'terminated' | 'joined'} */
			let ending = 'terminated';
			let signKey = key;
			if (realFault === 'query-dropped') uri = path;
			if (realFault === 'host-other-deployment') host = OTHER_HOST;
			if (realFault === 'host-with-port') host = `${HOST}:443`;
			if (realFault === 'method-lower-case') method = 'get';
			if (realFault === 'ext-line-dropped') ending = 'joined';
			if (realFault === 'crlf') end = '\r\n';
			if (realFault === 'unexplained') signKey = `${key}-old`;
			const digest = createHmac('sha1', signKey)
				.update(baseString([ts, nonce, method, uri, host, '443', ''], end, ending), 'utf8')
				.digest();
			const mac = realFault === 'digest-hex' ? digest.toString('hex') : digest.toString('base64');
			const id = realFault === 'no-key' ? `unknown-${word(next, 16)}` : kid;
			const logged = Number(ts) + (realFault === 'ts-window' ? 900 : Math.floor(next() * 3));
			const record = {
				method: 'GET',
				url,
				authorization:
					realFault === 'bad-header'
						? `Bearer ${word(next, 20)}`
						: `MAC id="${id}",ts="${ts}",nonce="${nonce}",mac="${mac}"`,
				status: realFault === null || realFault === 'ts-window' ? 200 : 401,
				time: i % 10 === 0 ? new Date(logged * 1000).toISOString() : logged
			};
			expected.requests += 1;
			if (realFault !== null) expected.lines[realFault].push(number);
			if (realFault === 'not-json') {
				expected.unreadable += 1;
				yield `{"method":"GET","url":"${url}", oops`;
				continue;
			}
			if (realFault === 'bad-header') expected.unreadable += 1;
			else {
				expected.withLoggedTime += 1;
				if (realFault === 'ts-window') expected.outsideWindow += 1;
				if (realFault === 'nonce-reused') expected.noncesReused += 1;
				if (realFault === 'no-key') expected.noKey += 1;
				else if (realFault !== null && isPlanted(realFault)) {
					expected.mismatch += 1;
					expected.mistakes[realFault] += 1;
				} else if (realFault === 'unexplained') {
					expected.mismatch += 1;
					expected.unexplained += 1;
				} else if (realFault === 'ts-window' || realFault === 'nonce-reused')
					// Signed right, but refused for its ts or (maybe) its nonce: service-answer.ts.
					expected.refused += 1;
				else expected.match += 1;
			}
			yield JSON.stringify(record);
		}
	}
	return { keys, expected, lines: lines() };
}

/** @param {Fault} fault @returns {fault is PlantedMistake} */
function isPlanted(fault) {
	return /** @type {string[]} */ (PLANTED_MISTAKES).includes(fault);
}

/**
 * The whole log as text (for tests of a few thousand lines), its keys and expected counts.
 * @param {LogOptions} [options]
 */
export function triageLogText(options = {}) {
	const log = triageLog(options);
	const text = [...log.lines].join('\n') + '\n';
	return { text, keys: log.keys.text, expected: log.expected };
}

/**
 * Writes the log to `path`, streaming; resolves to its keys, expected counts and size in bytes.
 * @param {string} path
 * @param {LogOptions} [options]
 */
export async function writeTriageLog(path, options = {}) {
	const log = triageLog(options);
	const out = createWriteStream(path);
	let bytes = 0;
	let buffer = '';
	for (const line of log.lines) {
		buffer += `${line}\n`;
		if (buffer.length > 1 << 20) {
			bytes += Buffer.byteLength(buffer);
			if (!out.write(buffer)) await once(out, 'drain');
			buffer = '';
		}
	}
	bytes += Buffer.byteLength(buffer);
	out.end(buffer);
	await once(out, 'finish');
	return { keys: log.keys.text, expected: log.expected, bytes };
}
