// "Likely client": from a request's shape alone (how its Authorization header is written, its nonce
// and its ts) and the mistakes diagnosed in it, which of the vendor's clients made it, with the
// evidence and a confidence; 'unknown', with what was seen, when the evidence does not reach.
//
// Most of a client's shape is a habit any code has (16 random bytes in Base64, 16 letters, a
// decimal nonce, `,` or `, ` between parts, a ts in seconds); so are most mistakes (HMAC-SHA-256
// above all). Signers outside the vendor's eight write the same shapes, so a shape or a common
// mistake names nobody. The confidence is calibrated on requests from the zoo's clients and from
// signers written apart from them (tests/unit/likely-client-calibration.test.ts: "high" at least
// 95% right, "medium" at least 80%). The rules, in order:
//   1. A header that cannot be read, with parts joined otherwise than all by `,` or all by `, `, in
//      another order than id, ts, nonce, mac, with ext or with a bare value fits no client: unknown.
//   2. The clients whose separator, nonce style and ts style (a ts of 10 digits fits padded and
//      unpadded alike) are the request's are the candidates; none: unknown.
//   3. Of several candidates, those that make one of the diagnosed mistakes are kept, if any does;
//      several left: unknown (their names are said as what was seen, not as a claim).
//   4. One candidate and no diagnosed mistake that only other clients make (which shows code that
//      is not the sample as it ships, such as a port that kept its nonce): 'high' when the nonce is
//      the fixed value its sample ships with (text copied from that sample); 'medium' when a
//      diagnosed mistake is one only that sample's own code makes (the profile's `marks`: Java's
//      URI taken after the host, with `:443`); anything less: unknown.
// Plain TypeScript: /verify, the triage engine (one small integer per request, see clientCode), the
// CLI and the sandbox server's diagnosis header share it.
import { text, type Text } from '$lib/i18n/text';
import { sentences } from '$lib/i18n/shown-text';
import { CLIENT_IDS, CLIENT_PROFILES, type ClientId, type ClientProfile } from './client-profiles';
import { SHAPES, decodeShape, headerShape, type Shape, type ShapeNonce } from './header-shape';
import { DIAGNOSIS_STOPPED } from './verdict';

export { CLIENT_IDS, CLIENT_PROFILES, clientProfile, type ClientId } from './client-profiles';
export { headerShape, decodeShape, type Shape } from './header-shape';

export type Confidence = 'high' | 'medium';

/**
 * A likely client as one small integer, for a column of numbers: bits 0-7 are the clients it names
 * (bit i is CLIENT_IDS[i]), bits 8-9 the confidence (0 unknown, 2 medium, 3 high; 1 is not used).
 */
export type ClientCode = number;
/** The code of a request whose shape fits no client. */
export const UNKNOWN_CLIENT: ClientCode = 0;
/** The group id of an unknown client. */
export const UNKNOWN = 'unknown';

const CONFIDENCES: readonly (Confidence | null)[] = [null, null, 'medium', 'high'];
const CLIENT_MASK = 0xff;
const CONFIDENCE_SHIFT = 8;

export interface LikelyClient {
	/** The client named; none when unknown. */
	clients: ClientId[];
	/** Null when unknown. */
	confidence: Confidence | null;
	/** The group: a client's id, or 'unknown'. */
	id: string;
	/** The client, or "unknown". */
	name: Text;
	/** What in the request points to it (for unknown: what was seen). */
	evidence: Text[];
	/** The line to show: name, evidence and confidence. */
	summary: Text;
	code: ClientCode;
}

function bitCount(mask: number): number {
	let count = 0;
	for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
	return count;
}

function maskOf(test: (profile: ClientProfile) => boolean): number {
	let mask = 0;
	CLIENT_PROFILES.forEach((profile, index) => {
		if (test(profile)) mask |= 1 << index;
	});
	return mask;
}

/** The clients that make a mistake (by catalogue id); 0 for a mistake no profile lists. */
function mistakeOwners(id: string): number {
	return maskOf((profile) => profile.mistakes.includes(id));
}

/** Whether a diagnosis's mistake id names no mistake: 'unexplained', a stopped diagnosis, ''. */
function noMistake(mistake: string | null | undefined): boolean {
	return !mistake || mistake === 'unexplained' || mistake === DIAGNOSIS_STOPPED;
}

/** The ids of a diagnosis's mistake: 'a+b' is two, 'unexplained', a stopped one and '' none. */
export function mistakeIds(mistake: string | null | undefined): string[] {
	if (!mistake || noMistake(mistake)) return [];
	return mistake.split('+').filter((id) => id !== '');
}

/** Whether the shape's features are those some client writes at all (rule 1). */
function plausible(shape: Shape): boolean {
	return (
		shape.readable && shape.separator !== 'other' && shape.usualOrder && !shape.ext && shape.quoted
	);
}

function tsFits(profile: ClientProfile, shape: Shape): boolean {
	return shape.ts === 'ten-digits' || shape.ts === profile.ts;
}

/** The clients a shape fits (rule 2). */
function candidates(shape: Shape): number {
	if (!plausible(shape)) return 0;
	return maskOf(
		(profile) =>
			profile.separator === shape.separator &&
			profile.nonce === shape.nonce &&
			tsFits(profile, shape)
	);
}

/** The sample nonces: a client whose nonce is one of them ships it as a literal. */
const FIXED_NONCES: readonly ShapeNonce[] = ['shell-sample', 'php-sample', 'go-sample'];

/** The candidates left after rule 3 (0 when none). */
function narrowed(shape: Shape, mistakes: readonly string[]): number {
	const mask = candidates(shape);
	if (bitCount(mask) <= 1) return mask;
	const kept = mistakes.reduce((kept, id) => kept | (mask & mistakeOwners(id)), 0);
	return kept !== 0 ? kept : mask;
}

/** Rules 2 to 4 on a decoded shape and the ids of the mistakes diagnosed. */
function classify(shape: Shape, mistakes: readonly string[]): ClientCode {
	const mask = narrowed(shape, mistakes);
	if (bitCount(mask) !== 1) return UNKNOWN_CLIENT;
	const profile = CLIENT_PROFILES[Math.log2(mask)] as ClientProfile;
	// A mistake only other clients make: not this sample as it ships (a port that kept its nonce).
	const contradicted = mistakes.some((id) => {
		const owner = mistakeOwners(id);
		return owner !== 0 && (owner & mask) === 0;
	});
	if (contradicted) return UNKNOWN_CLIENT;
	if (FIXED_NONCES.includes(profile.nonce)) return mask | (3 << CONFIDENCE_SHIFT);
	if (mistakes.some((id) => profile.marks.includes(id))) return mask | (2 << CONFIDENCE_SHIFT);
	return UNKNOWN_CLIENT;
}

/** Shapes classified without a mistake, computed once each: -1 until asked for. */
const BY_SHAPE = new Int16Array(SHAPES).fill(-1);
/** Shapes classified with a mistake (mismatches only, far fewer), by `shape:mistake`. */
const BY_SHAPE_AND_MISTAKE = new Map<string, ClientCode>();

/**
 * The likely client of a shape (headerShape) and the diagnosis's mistake id ('a+b' for a pair,
 * 'unexplained' or null for none), as a code: for a request without a mistake, a table lookup.
 */
export function clientCode(shape: number, mistake: string | null = null): ClientCode {
	if (noMistake(mistake)) {
		let code = BY_SHAPE[shape] as number;
		if (code < 0) {
			code = classify(decodeShape(shape), []);
			BY_SHAPE[shape] = code;
		}
		return code;
	}
	const key = `${shape}:${mistake}`;
	let code = BY_SHAPE_AND_MISTAKE.get(key);
	if (code === undefined) {
		code = classify(decodeShape(shape), mistakeIds(mistake));
		BY_SHAPE_AND_MISTAKE.set(key, code);
	}
	return code;
}

/** The clients a code names, in CLIENT_IDS order. */
export function clientsOf(code: ClientCode): ClientId[] {
	return CLIENT_IDS.filter((_, index) => (code & (1 << index)) !== 0);
}

export function confidenceOf(code: ClientCode): Confidence | null {
	return CONFIDENCES[(code >> CONFIDENCE_SHIFT) & 0b11] ?? null;
}

/** The group a code is counted in: its clients (never its confidence). */
export function clientGroup(code: ClientCode): number {
	return code & CLIENT_MASK;
}

/** Each group's id, made once (an export asks for it a row at a time). */
const GROUP_IDS: string[] = [];

/** A group's id: 'docs-java', 'docs-java|docs-node-old', or 'unknown'. */
export function clientGroupId(code: ClientCode): string {
	const group = code & CLIENT_MASK;
	let id = GROUP_IDS[group];
	if (id === undefined) {
		const clients = clientsOf(group);
		id = clients.length === 0 ? UNKNOWN : clients.join('|');
		GROUP_IDS[group] = id;
	}
	return id;
}

/** The group of an id clientGroupId gave; UNKNOWN_CLIENT for 'unknown' or an id it never gives. */
export function clientGroupOf(id: string): number {
	if (id === UNKNOWN) return UNKNOWN_CLIENT;
	let mask = 0;
	for (const client of id.split('|')) {
		const index = CLIENT_IDS.indexOf(client as ClientId);
		if (index < 0) return UNKNOWN_CLIENT;
		mask |= 1 << index;
	}
	return mask;
}

// ─── In words ─────────────────────────────────────────────────────────────────────────────────

const NONCE_EVIDENCE: Record<Exclude<ShapeNonce, 'other'>, Text> = {
	'base64-16': text('client_evidence_nonce_base64'),
	'letters-16': text('client_evidence_nonce_letters'),
	decimal: text('client_evidence_nonce_decimal'),
	'shell-sample': text('client_evidence_nonce_shell'),
	'php-sample': text('client_evidence_nonce_php'),
	'go-sample': text('client_evidence_nonce_go')
};

const CONFIDENCE_TEXTS: Record<Confidence, Text> = {
	high: text('client_confidence_high'),
	medium: text('client_confidence_medium')
};

/** Each mistake a profile lists, as evidence; `port` is the port the URL writes, if any. */
function mistakeEvidence(id: string, port: string): Text {
	switch (id) {
		case 'uri-with-port':
			return port === ''
				? text('client_evidence_uri_with_port_unknown')
				: text('client_evidence_uri_with_port', { port: `:${port}` });
		case 'uri-after-last-host':
			return text('client_evidence_uri_after_last_host');
		case 'key-ascii':
			return text('client_evidence_key_ascii');
		case 'key-latin1':
			return text('client_evidence_key_latin1');
		case 'key-gbk':
			return text('client_evidence_key_gbk');
		case 'hmac-sha256':
			return text('client_evidence_hmac_sha256');
		case 'host-legacy':
			return text('client_evidence_host_legacy');
		case 'host-other-deployment':
			return text('client_evidence_host_other_deployment');
		case 'ts-other':
			return text('client_evidence_ts_other');
		case 'query-decoded':
			return text('client_evidence_query_decoded');
		case 'query-re-encoded':
			return text('client_evidence_query_re_encoded');
		case 'query-dropped':
			return text('client_evidence_query_dropped');
		case 'query-sorted':
			return text('client_evidence_query_sorted');
		default:
			return text('client_evidence_mistake', { id });
	}
}

/** The port a URL writes after its host ('' when it writes none). */
export function writtenPort(url: string): string {
	const scheme = url.indexOf('://');
	if (scheme < 0) return '';
	let end = scheme + 3;
	while (end < url.length && !'/?#'.includes(url.charAt(end))) end++;
	const authority = url.slice(url.lastIndexOf('@', end) + 1 || scheme + 3, end);
	const colon = authority.lastIndexOf(':');
	if (colon < 0 || authority.indexOf(']', colon) >= 0) return '';
	const port = authority.slice(colon + 1);
	return /^\d+$/.test(port) ? port : '';
}

/** What a shape shows of the features that tell clients apart: ts, nonce, separator. */
function shapeEvidence(shape: Shape): Text[] {
	const evidence: Text[] = [];
	if (shape.ts === 'padded') evidence.push(text('client_evidence_ts_padded'));
	else if (shape.ts === 'unpadded') evidence.push(text('client_evidence_ts_unpadded'));
	else if (shape.ts === 'milliseconds') evidence.push(text('client_evidence_ts_milliseconds'));
	else if (shape.ts === 'other') evidence.push(text('client_evidence_ts_other_form'));
	evidence.push(
		shape.nonce === 'other' ? text('client_evidence_nonce_other') : NONCE_EVIDENCE[shape.nonce]
	);
	if (shape.separator === 'comma') evidence.push(text('client_evidence_separator_comma'));
	else if (shape.separator === 'comma-space')
		evidence.push(text('client_evidence_separator_comma_space'));
	else evidence.push(text('client_evidence_separator_other'));
	return evidence;
}

/** For an unknown: what was seen of the header's form. */
function unknownEvidence(shape: Shape): Text[] {
	if (!shape.readable) return [text('client_evidence_unreadable')];
	const seen: Text[] = [];
	if (!shape.usualOrder) seen.push(text('client_evidence_order'));
	if (shape.ext) seen.push(text('client_evidence_ext'));
	if (!shape.quoted) seen.push(text('client_evidence_bare'));
	return [...seen, ...shapeEvidence(shape)];
}

/** A client, or several joined as "A or B". */
function clientsName(clients: readonly ClientId[]): Text {
	const names = clients.map((id) => CLIENT_PROFILES[CLIENT_IDS.indexOf(id)]?.name as Text);
	return sentences('client_or', names) ?? text('client_unknown');
}

/**
 * The evidence a code stands on, for a list that keeps the code and the mistake but not the header
 * (the triage's rows): the named client's nonce and separator, which the request had to have, and
 * the diagnosed mistakes that client makes. Nothing for unknown.
 */
export function codeEvidence(code: ClientCode, mistake: string | null = null): Text[] {
	const [client] = clientsOf(code);
	if (client === undefined) return [];
	const profile = CLIENT_PROFILES[CLIENT_IDS.indexOf(client)] as ClientProfile;
	return [
		NONCE_EVIDENCE[profile.nonce],
		text(
			profile.separator === 'comma'
				? 'client_evidence_separator_comma'
				: 'client_evidence_separator_comma_space'
		),
		...mistakeIds(mistake)
			.filter((id) => profile.mistakes.includes(id))
			.map((id) => mistakeEvidence(id, ''))
	];
}

export interface LikelyClientInput {
	/** The Authorization header as sent (with or without `Authorization:`). */
	authorization: string;
	/** The ids of the mistakes diagnosed, or the triage's 'a+b' / 'unexplained'. */
	mistakes?: readonly string[] | string | null;
	/** The URL as called, for the port a mistake's evidence names. */
	url?: string;
}

/** The likely client of one request, with its evidence in words. */
export function likelyClient(input: LikelyClientInput): LikelyClient {
	const shapeCode = headerShape(input.authorization);
	const shape = decodeShape(shapeCode);
	const ids =
		typeof input.mistakes === 'string' || input.mistakes == null
			? mistakeIds(input.mistakes)
			: input.mistakes.flatMap(mistakeIds);
	const code = ids.length === 0 ? clientCode(shapeCode) : classify(shape, ids);
	const clients = clientsOf(code);
	const confidence = confidenceOf(code);
	const port = input.url === undefined ? '' : writtenPort(input.url);
	if (clients.length === 0) {
		const evidence = [
			...unknownEvidence(shape),
			...[...new Set(ids)].map((id) => mistakeEvidence(id, port))
		];
		// The clients whose requests look like this one, said as what was seen: a shape any code
		// can write names nobody.
		const alike = plausible(shape) ? clientsOf(narrowed(shape, ids)) : [];
		const seen = sentences('client_and', evidence) ?? '';
		return {
			clients,
			confidence,
			id: UNKNOWN,
			name: text('client_unknown'),
			evidence,
			summary:
				alike.length === 0
					? text('client_line_unknown', { evidence: seen })
					: text('client_line_unknown_alike', { evidence: seen, clients: clientsName(alike) }),
			code
		};
	}
	const profile = CLIENT_PROFILES[CLIENT_IDS.indexOf(clients[0] as ClientId)] as ClientProfile;
	const evidence = [
		...shapeEvidence(shape),
		...[...new Set(ids)]
			.filter((id) => profile.mistakes.includes(id))
			.map((id) => mistakeEvidence(id, port))
	];
	const name = clientsName(clients);
	return {
		clients,
		confidence,
		id: clients.join('|'),
		name,
		evidence,
		summary: text('client_line', {
			client: name,
			evidence: sentences('client_and', evidence) ?? '',
			confidence: CONFIDENCE_TEXTS[confidence ?? 'medium']
		}),
		code
	};
}
