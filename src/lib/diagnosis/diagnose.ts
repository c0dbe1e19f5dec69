// Stage 2, the diagnosis: the expected mac, the verdict, and which catalogued mistakes reproduce the
// customer's mac; beside it the clock check and the comparison with their logged base string.
import {
	baseString,
	hmac,
	requestTarget,
	writtenTarget,
	type MacHeaderParams,
	type UriForm
} from '$lib/mac';
import { text, type Text } from '$lib/i18n/text';
import { sentences } from '$lib/i18n/shown-text';
import { DEPLOYMENT_HOSTS } from '$lib/account-api/deployments';
import type { MistakeContext } from './mistakes/catalogue';
import { DIGEST_ENCODINGS, canProduce, type SigningInputs } from './signing-inputs';
import {
	Tried,
	likelihood,
	searchMistakes,
	type DigestSigner,
	type Found,
	type SearchResult,
	type Variant
} from './search';
import { DIAGNOSIS_STOPPED, type Diagnosis, type Reproduction } from './verdict';

export interface DiagnoseInput {
	/** The customer's header: kid, ts, nonce, mac and ext. */
	authorization: MacHeaderParams;
	/** The method sent; GET when not given, as both operations are GET. */
	method?: string;
	/** The URL as the customer called it, or as we believe they did. */
	url: string;
	/**
	 * Which bytes the URL's path and query are on the wire: 'browser' (the default) when a browser,
	 * fetch or a HAR sent it, 'as-written' when curl or a raw request did.
	 */
	uriForm?: UriForm;
	macKey: string;
	knownHosts?: readonly string[];
	/**
	 * The base string the customer logged, as logged (the triage's NDJSON `base_string`): the triage
	 * checks it first (logged-evidence.ts); diagnose() itself does not read it.
	 */
	loggedBaseString?: string;
}

export type { DigestSigner };

export interface DiagnoseOptions {
	/** The HMAC every variant is signed with; the core's hmac() (SubtleCrypto) by default. */
	hmac?: DigestSigner;
	/** The work the search may do (see DIAGNOSIS_BUDGET); only tests set another. */
	budget?: number;
	/**
	 * Only the first explanation is wanted (what firstExplanationId, the triage's, asks for): with a
	 * synchronous `hmac`, the search ends at it, and `explanations` holds it alone.
	 */
	first?: boolean;
}

/**
 * Computes the expected mac and, when the customer's differs, which catalogued mistakes reproduce
 * it: every mistake alone, then every pair that does not conflict (searchMistakes). Variants that
 * give the same base string, key, hash and encoding are computed once, and only those whose hash
 * and encoding can produce a mac shaped like the customer's are computed at all. A search that
 * runs out of its budget before any variant reproduces the mac ends 'stopped': too long.
 */
export async function diagnose(
	input: DiagnoseInput,
	options: DiagnoseOptions = {}
): Promise<Diagnosis> {
	const { base, search } = await searched(input, options);
	if (search === null) {
		return {
			...base,
			verdict: 'match',
			match: true,
			explanations: [],
			keyOrUnseenInputs: false,
			message: text('diagnosis_verdict_match')
		};
	}
	const explanations = explained(search.found).map(({ variant, baseString }) =>
		asReproduction(variant, baseString)
	);
	if (explanations.length > 0) {
		const [first] = explanations;
		return {
			...base,
			verdict: 'explained',
			match: false,
			explanations,
			keyOrUnseenInputs: false,
			message: text('diagnosis_verdict_explained', { title: first?.title ?? '' })
		};
	}
	if (search.stopped) {
		return {
			...base,
			verdict: 'stopped',
			match: false,
			explanations: [],
			keyOrUnseenInputs: false,
			message: text('diagnosis_verdict_stopped', { count: String(base.variantsTried) })
		};
	}
	return {
		...base,
		verdict: 'unexplained',
		match: false,
		explanations: [],
		keyOrUnseenInputs: true,
		message: unexplainedMessage(base.customerMac)
	};
}

/**
 * What a triage keeps of a diagnosis: the id of the first explanation diagnose() would give ("a+b"
 * for a pair), DIAGNOSIS_STOPPED where it would stop, or null where nothing explains the mac (or it
 * matches). The same search, ended at its first explanation, without the words diagnose() writes
 * for a reader: a triage names thousands of mistakes and shows none of those words.
 */
export async function firstExplanationId(
	input: DiagnoseInput,
	options: Omit<DiagnoseOptions, 'first'> = {}
): Promise<string | null> {
	const { search } = await searched(input, { ...options, first: true });
	if (search === null) return null;
	const first = explained(search.found)[0];
	if (first !== undefined) return reproductionId(first.variant);
	return search.stopped ? DIAGNOSIS_STOPPED : null;
}

/** The expected mac and base string, and the search for the customer's (null: it matches). */
async function searched(
	input: DiagnoseInput,
	options: DiagnoseOptions
): Promise<{
	base: Pick<
		Diagnosis,
		'expectedMac' | 'expectedBaseString' | 'customerMac' | 'signedExt' | 'variantsTried' | 'work'
	>;
	search: SearchResult | null;
}> {
	const { correct, context } = signingInputsOf(input);
	const { authorization } = input;
	const customerMac = authorization.mac.trim();
	const tried = new Tried(options.hmac ?? hmac);
	try {
		// The core lays out the spec's lines and checks each: the variants are made from these.
		const expectedBaseString = baseString(correct);
		const expectedEntry = tried.entry(correct, expectedBaseString);
		tried.claim(expectedEntry, correct.encoding);
		const expectedMac = (await tried.digest(correct, expectedBaseString, expectedEntry)).base64;
		const base = {
			expectedMac,
			expectedBaseString,
			customerMac,
			signedExt: correct.ext !== '',
			variantsTried: 1,
			work: 0
		};
		if (expectedMac === customerMac) return { base, search: null };
		if (correct.ext !== '') {
			// A header with ext whose mac signs the spec's empty line 7: what the service signs.
			const spec = { ...correct, ext: '' };
			const specText = baseString(spec);
			const specEntry = tried.entry(spec, specText);
			tried.claim(specEntry, spec.encoding);
			const specMac = (await tried.digest(spec, specText, specEntry)).base64;
			if (specMac === customerMac)
				return {
					base: { ...base, expectedMac: specMac, expectedBaseString: specText, signedExt: false },
					search: null
				};
		}
		const search = await searchMistakes(
			{ inputs: correct, text: expectedBaseString, entry: expectedEntry },
			context,
			customerMac,
			tried,
			options.budget,
			{ first: options.first === true }
		);
		base.variantsTried = tried.count;
		base.work = search.work;
		return { base, search };
	} finally {
		tried.finish();
	}
}

/**
 * What the request signs when signed correctly, and the request as it really was for the mistakes'
 * titles and values. Exported for the tests that hold the catalogue to what it declares.
 */
export function signingInputsOf(input: DiagnoseInput): {
	correct: SigningInputs;
	context: MistakeContext;
} {
	const target = requestTarget(input.url, { uri: input.uriForm ?? 'browser' });
	const scheme = target.href.startsWith('http:') ? 'http' : 'https';
	const { authorization } = input;
	const written = writtenTarget(input.url);
	const context: MistakeContext = {
		scheme,
		explicitPort: new URL(target.href).port,
		knownHosts: (input.knownHosts ?? DEPLOYMENT_HOSTS).map((host) => host.toLowerCase()),
		written,
		writtenPort: writtenPort(input.url, written.host),
		kid: authorization.id
	};
	const correct: SigningInputs = {
		ts: authorization.ts,
		nonce: authorization.nonce,
		method: (input.method ?? 'GET').toUpperCase(),
		uri: target.uri,
		host: target.host,
		port: target.port,
		ext: authorization.ext ?? '',
		lineEnd: '\n',
		ending: 'terminated',
		key: input.macKey,
		keyForm: text('diagnosis_key_as_given'),
		hash: 'SHA-1',
		encoding: 'base64'
	};
	return { correct, context };
}

/**
 * What the URL's text writes right after the host name: ":443", ":" or "" (writtenTarget's host is
 * the authority without user and port, so the port is what follows it there).
 */
function writtenPort(url: string, host: string): string {
	const text = url.trim();
	const scheme = /^[a-z][a-z0-9+.-]*:[/\\]*/i.exec(text);
	const rest = scheme ? text.slice(scheme[0].length) : text;
	const end = rest.search(/[/\\?#]/);
	const authority = end < 0 ? rest : rest.slice(0, end);
	const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
	return hostPort.startsWith(host) ? hostPort.slice(host.length) : '';
}

/**
 * The reproductions found that explain the mac, in the order tried (the likeliest first); a pair is
 * left out where a mistake of it alone reproduces the mac too: a mistake that changes nothing here
 * (Base64url of a digest without + or /) adds no information.
 */
function explained(found: Found[]): Found[] {
	// Made by push, not map(): a single's parts and a pair's are arrays of two kinds, and map()
	// over both was compiled a second time in every thread of a triage.
	const ids: string[][] = [];
	for (const { variant } of found) {
		const own: string[] = [];
		for (const { mistake } of variant.parts) own.push(mistake.id);
		ids.push(own);
	}
	const kept: Found[] = [];
	found.forEach((reproduction, index) => {
		const own = ids[index] as string[];
		if (!ids.some((other) => other.length < own.length && other.every((id) => own.includes(id))))
			kept.push(reproduction);
	});
	return kept;
}

/** A reproduction's id: its mistakes' ids, joined by "+". */
function reproductionId(variant: Variant): string {
	// Joined by hand, for the reason explained() gives.
	let id = '';
	for (const { mistake } of variant.parts) id = id === '' ? mistake.id : `${id}+${mistake.id}`;
	return id;
}

function asReproduction(variant: Variant, baseString: string): Reproduction {
	const mistakes = variant.parts.map(({ mistake, candidate }) => ({
		id: mistake.id,
		title: candidate.title,
		fix: candidate.fix ?? mistake.fix
	}));
	return {
		id: reproductionId(variant),
		mistakes,
		title: mistakes
			.map((mistake) => mistake.title)
			.reduce((first, second) =>
				text('diagnosis_pair_title', { first, second: { lowerFirst: second } })
			),
		fix: sentences(
			'diagnosis_sentences',
			mistakes.map((mistake) => mistake.fix)
		) as Text,
		likelihood: likelihood(variant.parts),
		baseString,
		hash: variant.inputs.hash,
		encoding: variant.inputs.encoding,
		keyForm: variant.inputs.keyForm
	};
}

function unexplainedMessage(mac: string): Text {
	const shapes = (['SHA-1', 'SHA-256'] as const).flatMap((hash) =>
		DIGEST_ENCODINGS.filter((encoding) => canProduce(mac, hash, encoding))
	);
	if (shapes.length === 0) {
		return text('diagnosis_verdict_not_digest', { mac: mac.slice(0, 60) });
	}
	return text('diagnosis_verdict_unexplained');
}
