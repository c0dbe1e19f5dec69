// A pool's first parts run cold: until the engine's code is compiled for what it meets, a part takes
// two to three times as long, and compiling it takes a core of its own. The triage worker starts its
// pool before a log is chosen and runs this made-up log through it, by the same messages as a run
// (the first message a worker gets changes what the compiled code relies on, and then it is
// compiled again). The log has what real ones have: several kids, times as numbers and as dates, a
// request now and then with each mistake the diagnosis names, a line that is not JSON, a header of
// another scheme, an unknown kid, a ts outside the window and a nonce used twice. Nothing of it is
// kept, and a run that starts stops it.
import type { Digest } from '$lib/mac';
import type { MistakeId } from '$lib/diagnosis/mistakes/catalogue';
import { syncDigests } from '../hmac';
import { OPERATIONS } from '$lib/account-api/operations';
import { DEPLOYMENTS } from '$lib/account-api/deployments';
import { TS_WINDOW_SECONDS } from '$lib/account-api/ts-window';
import type { PartSettings } from './part';
import { runPool, type PoolWorker } from './pool';

const KIDS = ['warm-up-kid-a', 'warm-up-kid-b', 'warm-up-kid-c', 'warm-up-kid-d'];
const KEY = 'warm-up-mac-key';
// The deployments' hosts, as real logs have them: a host of the other one is a mistake named.
const HOST = DEPLOYMENTS.domestic.host;
const OTHER_HOST = DEPLOYMENTS.overseas.host;
const PATHS = Object.values(OPERATIONS).map((operation) => operation.path);
const FIRST_TS = 1_700_000_000;

/** What a line of the made-up log gets wrong, if anything: mistakes as the diagnosis names them first. */
const FAULTS = [
	...([
		'query-dropped',
		'host-other-deployment',
		'host-with-port',
		'method-lower-case',
		'ext-line-dropped',
		'crlf',
		'digest-hex'
	] as const satisfies readonly MistakeId[]),
	'unexplained',
	'no-key',
	'not-json',
	'bad-header',
	'ts-window',
	'nonce-reused'
] as const;
type Fault = (typeof FAULTS)[number];

/** One line in 64 has a fault, each kind in turn: about as rare as in a real log, and all of them. */
function faultOf(index: number): Fault | null {
	return index % 64 === 37 ? (FAULTS[(index >> 6) % FAULTS.length] as Fault) : null;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `count` letters that tell `value` apart (base 52), made with no array: this runs once a line. */
function lettersOf(value: number, count: number): string {
	let text = '';
	for (let at = 0; at < count; at++, value = Math.floor(value / 52)) text += LETTERS[value % 52];
	return text;
}

/**
 * A nonce in one of the styles clients make (header-shape.ts's NONCES): Base64 of 16 bytes, 16
 * letters, decimal, or another; each line's its own.
 */
function nonceOf(index: number): string {
	switch (index % 4) {
		case 0:
			return `Zm9vYmFyYmF6cXV4${lettersOf(index, 5)}A==`;
		case 1:
			return `wrmUpNonce${lettersOf(index, 6)}`;
		case 2:
			return String(index * 7919 + 12_345);
		default:
			return `n${index.toString(36)}x`;
	}
}

/** The settings to triage the warm-up log with. */
export const WARM_UP_SETTINGS: PartSettings = {
	plan: { format: 'ndjson', skip: 0 },
	keys: KIDS.map((kid) => `${kid} ${KEY}-${kid}`).join('\n'),
	windowSeconds: TS_WINDOW_SECONDS,
	nowMs: FIRST_TS * 1000,
	output: 'batch',
	revealKid: false
};

/**
 * Lines `from` to `to` (not included) of the warm-up log, NDJSON requests signed here, each with its
 * LF. A nonce used twice is the line before's, so a block starts with a line that is not one.
 */
export function warmUpLines(from: number, to: number): string {
	const sign = syncDigests();
	let text = '';
	let last = { kid: KIDS[0] as string, nonce: 'n0x' };
	for (let index = from; index < to; index++) {
		const fault = index === from ? null : faultOf(index);
		const ts = String(FIRST_TS + index);
		// A nonce used twice: the line before's kid and nonce.
		const { kid, nonce } =
			fault === 'nonce-reused'
				? last
				: { kid: KIDS[(index + (index >> 6)) % KIDS.length] as string, nonce: nonceOf(index) };
		last = { kid, nonce };
		const path = PATHS[index % PATHS.length] as string;
		const query = `?client_id=c${index % 97}`;
		const key = `${KEY}-${kid}`;
		const method = fault === 'method-lower-case' ? 'get' : 'GET';
		const signed = fault === 'query-dropped' ? path : `${path}${query}`;
		const host =
			fault === 'host-other-deployment'
				? OTHER_HOST
				: fault === 'host-with-port'
					? `${HOST}:443`
					: HOST;
		const end = fault === 'crlf' ? '\r\n' : '\n';
		const base = `${ts}${end}${nonce}${end}${method}${end}${signed}${end}${host}${end}443${end}${fault === 'ext-line-dropped' ? '' : end}`;
		// syncDigests signs synchronously (its type allows the core's asynchronous signers too).
		const digest = sign(fault === 'unexplained' ? `${key}-old` : key, base, 'SHA-1') as Digest;
		const mac = fault === 'digest-hex' ? digest.hex : digest.base64;
		const id = fault === 'no-key' ? `unknown-${kid}` : kid;
		const logged = Number(ts) + (fault === 'ts-window' ? 900 : index % 3);
		const url = `https://${HOST}${path}${query}`;
		if (fault === 'not-json') {
			text += `{"method":"GET","url":"${url}", oops\n`;
			continue;
		}
		const authorization =
			fault === 'bad-header'
				? `Bearer ${nonce}`
				: `MAC id=\\"${id}\\",${index % 8 === 3 ? ' ' : ''}ts=\\"${ts}\\",nonce=\\"${nonce}\\",mac=\\"${mac}\\"`;
		const status = fault === null || fault === 'ts-window' ? 200 : 401;
		const time = index % 10 === 0 ? `"${new Date(logged * 1000).toISOString()}"` : String(logged);
		// Written as JSON.stringify would: nothing here needs escaping but the header's quotes.
		text += `{"method":"GET","url":"${url}","authorization":"${authorization}","status":${status},"time":${time}}\n`;
	}
	return text;
}

/**
 * Lines of the warm-up a pool runs: enough that each worker's hot code is compiled by the
 * optimizing tier, not only the first (traces show it at about 12,000 lines a worker). On two cores
 * that is about half a second of each, over 1.3 s, while the page waits for a log.
 */
export const WARM_UP_LINES = 24_000;

/** Lines of a block of the warm-up log, made as the pool asks: its workers start on the first. */
const WARM_UP_BLOCK_LINES = 2000;

/** The warm-up log as a stream of blocks that each end at a line break. */
function warmUpStream(lines: number): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	let from = 0;
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			// This thread also starts the pool's workers (their scripts load through it): a block is
			// made only once it has had a turn.
			await new Promise((resolve) => setTimeout(resolve, 0));
			if (from >= lines) return controller.close();
			const to = Math.min(lines, from + WARM_UP_BLOCK_LINES);
			controller.enqueue(encoder.encode(warmUpLines(from, to)));
			from = to;
		}
	});
}

/**
 * Runs the warm-up log through `workers` as a run would; resolves when it is done or stopped
 * (`signal`), never fails.
 */
export async function warmUpPool(
	workers: readonly PoolWorker[],
	signal: AbortSignal,
	lines = WARM_UP_LINES
): Promise<void> {
	try {
		const { plan, ...settings } = WARM_UP_SETTINGS;
		await runPool({
			workers,
			stream: warmUpStream(lines),
			plan,
			settings,
			// Each block (2,000 lines, about 470 kB, ending at a line break) goes to a worker as one
			// part, as a run's blocks do.
			partBytes: 256 << 10,
			signal
		});
	} catch {
		// A warm-up that fails costs only its time.
	}
}
