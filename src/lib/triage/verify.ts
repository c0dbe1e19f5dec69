// Stage 2 of triage: one logged request against its kid's key. The base string is rebuilt by the
// protocol core exactly as /verify builds the expected one; a mismatch is handed to /verify's
// diagnosis, which names the catalogued mistake that reproduces it.
import { attempt, baseString, requestTarget, type MacHeaderParams } from '$lib/mac';
import { BASE_URLS, hostsOf } from '$lib/account-api/deployments';
import { clockCheck } from '$lib/diagnosis/clock-check';
import { firstExplanationId, signingInputsOf, type DiagnoseInput } from '$lib/diagnosis/diagnose';
import { readLoggedBaseString } from '$lib/diagnosis/base-string-diff';
import { UNKNOWN_CLIENT, clientCode, headerShape } from '$lib/diagnosis/likely-client';
import { loggedEvidence } from '$lib/diagnosis/logged-evidence';
import { refusalOf } from '$lib/diagnosis/service-answer';
import type { DigestSigner } from '$lib/diagnosis/diagnose';
import { fastAuthorization, fastTarget, type FastTarget, type ShapeOut } from './fast-parse';
import { readAsMeant, type HeaderFormat } from '$lib/read/header-format';
import type { MacChecks } from './hmac';
import type { Keyring } from './keys';
import type { NonceLedger } from './tally';
import type { LoggedRequest, Unreadable } from '$lib/read/types';
import { UNEXPLAINED, type VerdictRecord } from './types';

/** The deployments this build knows, for the "other deployment's host" mistake (as /verify). */
const KNOWN_HOSTS = hostsOf(Object.values(BASE_URLS));

export interface CheckContext {
	keyring: Keyring;
	checks: MacChecks;
	nonces: NonceLedger;
	windowSeconds: number;
	nowMs: number;
	/** False: every header and URL through the core's parsers (the fast readers compared with them). */
	fastPath?: boolean;
}

export interface Checked {
	record: VerdictRecord;
	/** What the diagnosis needs, for a mismatch (holds the mac_key: never posted or stored). */
	mismatch: DiagnoseInput | null;
}

/** The verdict record of a line or entry that could not be read. */
export function unreadableRecord(unreadable: Unreadable, request?: LoggedRequest): VerdictRecord {
	return {
		number: unreadable.number,
		method: request?.method ?? '',
		url: request?.url ?? '',
		kid: '',
		verdict: 'unreadable',
		mistake: null,
		refusal: null,
		status: request?.status ?? null,
		authorization: '',
		uriForm: request?.uriForm ?? 'as-written',
		sentAt: request?.sentAt ?? null,
		clock: null,
		nonceFirstUsedAt: null,
		client: UNKNOWN_CLIENT,
		unreadable
	};
}

/** Verifies one request. */
export function checkRequest(request: LoggedRequest, context: CheckContext): Checked {
	const { number } = request;
	// The common header and URL are read by the fast readers; the core reads (and words) the rest.
	// The fast reader tells the header's shape (the likely client's input) in the same pass.
	const fast = context.fastPath !== false;
	let authorization = fast ? fastAuthorization(request.authorization, shapeOut) : null;
	let shape: number;
	// The fast reader takes the spec's form only; a header the core reads in another form (quotes of
	// another kind, none, `Mac`) is said as a finding, its values read as meant (header-format.ts).
	let format: HeaderFormat | null = null;
	if (authorization !== null) shape = shapeOut.shape;
	else {
		shape = headerShape(request.authorization);
		const header = attempt(() => readAsMeant(request.authorization));
		if (!header.ok)
			return unreadableCheck({ number, code: 'bad-header', detail: header.error.detail }, request);
		({ params: authorization, format } = header.value);
	}
	let target: FastTarget | null = fast ? fastTarget(request.url) : null;
	if (target === null) {
		const full = attempt(() => requestTarget(request.url, { uri: request.uriForm }));
		if (!full.ok)
			return unreadableCheck({ number, code: 'bad-url', detail: full.error.detail }, request);
		target = full.value;
	}
	const { id: kid, ts, nonce } = authorization;
	let clock: VerdictRecord['clock'] = null;
	const { sentAt } = request;
	if (sentAt !== null) {
		// The common case, well inside the window by a logged time with its zone, is told without
		// clockCheck's sentence; everything else (outside, no zone, ts not seconds) is clockCheck's.
		const age = Math.floor(sentAt.ms / 1000) - Number(ts);
		if (sentAt.zoneKnown && isSeconds(ts) && Math.abs(age) <= context.windowSeconds)
			clock = { ageSeconds: age, outsideWindow: false };
		else {
			const check = clockCheck(ts, context.nowMs, context.windowSeconds, sentAt);
			clock = { ageSeconds: check.ageSeconds, outsideWindow: check.likelyInvalidTime };
		}
	}
	const record: VerdictRecord = {
		number,
		method: request.method,
		url: request.url,
		kid,
		verdict: 'match',
		mistake: null,
		refusal: null,
		status: request.status,
		authorization: request.authorization,
		uriForm: request.uriForm,
		sentAt: request.sentAt,
		clock,
		nonceFirstUsedAt: context.nonces.see(kid, nonce, number),
		// From the header's shape and a table lookup (a mismatch's mistake refines it, in the engine,
		// once known).
		client: clientCode(shape),
		unreadable: null
	};
	if (format !== null) record.headerFormat = true;
	const macKey = context.keyring.keyFor(kid);
	if (macKey === undefined) {
		record.verdict = 'no-key';
		return { record, mismatch: null };
	}
	// The seven lines of the base string (as the core's baseString writes them: every value here is
	// text already), written at once.
	const method = request.method;
	const text =
		ts +
		'\n' +
		nonce +
		'\n' +
		(isUpperCase(method) ? method : method.toUpperCase()) +
		'\n' +
		target.uri +
		'\n' +
		target.host +
		'\n' +
		target.port +
		'\n' +
		(authorization.ext ?? '') +
		'\n';
	const mac = authorization.mac.trim();
	const check = context.checks.for(macKey);
	const ext = authorization.ext ?? '';
	// The mac signs the header's ext as line 7 (the service's line 7 is empty: refused), or, with an
	// ext, the spec's empty line 7 (the service's own base string: a match).
	let signedExt = true;
	if (!check(text, mac)) {
		if (ext === '' || !check(text.slice(0, text.length - ext.length - 1) + '\n', mac))
			return decide(false, record, request, authorization, macKey);
		signedExt = false;
	}
	// A match, the common case, allocates nothing more.
	const refusal = refusalOf({
		ts,
		ext: signedExt ? ext : '',
		outsideWindow: clock === null ? null : clock.outsideWindow,
		nonceFirstUsedAt: record.nonceFirstUsedAt,
		headerFormat: format
	});
	if (refusal !== null) {
		record.verdict = 'refused';
		record.refusal = refusal;
		// A match, its pair new here: a part triaged alone marks it for the merge.
	} else if (record.nonceFirstUsedAt === null) context.nonces.markMatch();
	return { record, mismatch: null };
}

/** Where checkRequest's fast reader writes a header's shape (one object, reused). */
const shapeOut: ShapeOut = { shape: 0 };

/** The verdict of a signed request once its mac is checked: a mismatch carries its diagnosis input. */
function decide(
	matches: boolean,
	record: VerdictRecord,
	request: LoggedRequest,
	authorization: MacHeaderParams,
	macKey: string
): Checked {
	if (matches) return { record, mismatch: null };
	record.verdict = 'mismatch';
	return {
		record,
		mismatch: {
			authorization,
			method: request.method,
			url: request.url,
			uriForm: request.uriForm,
			macKey,
			knownHosts: KNOWN_HOSTS,
			...(request.loggedBaseString === null ? {} : { loggedBaseString: request.loggedBaseString })
		}
	};
}

/** isTimestamp's test (1 to 15 decimal digits) without a regular expression. */
function isSeconds(ts: string): boolean {
	const length = ts.length;
	if (length < 1 || length > 15) return false;
	for (let i = 0; i < length; i++) {
		const code = ts.charCodeAt(i);
		if (code < 0x30 || code > 0x39) return false;
	}
	return true;
}

/** Whether toUpperCase would leave the method as it is (ASCII with no lower-case letter). */
function isUpperCase(method: string): boolean {
	for (let i = 0; i < method.length; i++) {
		const code = method.charCodeAt(i);
		if ((code >= 0x61 && code <= 0x7a) || code >= 0x80) return false;
	}
	return true;
}

function unreadableCheck(unreadable: Unreadable, request: LoggedRequest): Checked {
	return { record: unreadableRecord(unreadable, request), mismatch: null };
}

/**
 * The catalogue's id of the most likely mistake that reproduces a mismatch ("a+b" for a pair),
 * 'unexplained', or DIAGNOSIS_STOPPED when the search ran out of its budget (a huge URL). Only the diagnosis's ids are used, never its words: the page renders those. Every
 * variant is signed with `hmac` (the core's hmac() when not given): the results are the same.
 */
export async function diagnoseMistake(input: DiagnoseInput, hmac?: DigestSigner): Promise<string> {
	try {
		// The customer's logged base string is evidence, checked first: with the key right, the lines
		// it differs on are the mistake (logged-evidence.ts).
		const logged = input.loggedBaseString;
		let evidence: string | null = null;
		if (logged !== undefined) {
			const { correct } = signingInputsOf(input);
			const found = await loggedEvidence(
				baseString(correct),
				readLoggedBaseString(logged).text,
				input.macKey,
				input.authorization.mac,
				hmac === undefined ? undefined : (key, text) => hmac(key, text, 'SHA-1')
			);
			if (found.keyRight) return found.id;
			evidence = found.id;
		}
		const found = await firstExplanationId(input, hmac === undefined ? {} : { hmac });
		return found ?? evidence ?? UNEXPLAINED;
	} catch {
		return UNEXPLAINED;
	}
}
