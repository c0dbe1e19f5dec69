// Stage 2, the diagnosis: the expected mac, the verdict, and which catalogued mistakes reproduce the
// customer's mac; beside it the clock check and the comparison with their logged base string.
import {
	hmac,
	requestTarget,
	writtenTarget,
	type Digest,
	type MacHeaderParams,
	type UriForm
} from '$lib/mac';
import { text, type Text } from '$lib/i18n/text';
import { sentences } from '../i18n/shown-text';
import { DEPLOYMENT_HOSTS } from '../account-api/deployments';
import { MISTAKES, type Candidate, type Mistake, type MistakeContext } from './mistakes/catalogue';
import {
	canProduce,
	keyIdentity,
	renderBaseString,
	sameMac,
	type DigestEncoding,
	type HashName,
	type SigningInputs
} from './signing-inputs';
import type { Diagnosis, Reproduction } from './verdict';

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
}

/**
 * An HMAC as the core's hmac() computes it: the key (text as UTF-8, or bytes as they are), the
 * text as UTF-8, SHA-1 or SHA-256. It must throw (or reject) where hmac() does, on an empty key. A
 * triage of many mismatches passes a synchronous one that keeps each key's state.
 */
export type DigestSigner = (
	key: string | Uint8Array,
	text: string,
	hash: HashName
) => Digest | Promise<Digest>;

export interface DiagnoseOptions {
	/** The HMAC every variant is signed with; the core's hmac() (SubtleCrypto) by default. */
	hmac?: DigestSigner;
}

interface Variant {
	inputs: SigningInputs;
	parts: { mistake: Mistake; candidate: Candidate }[];
}

/**
 * Computes the expected mac and, when the customer's differs, which catalogued mistakes reproduce
 * it: every mistake alone, then every pair that does not conflict. Variants that give the same
 * base string, key, hash and encoding are computed once, and only those whose hash and encoding
 * can produce a mac shaped like the customer's are computed at all.
 */
export async function diagnose(
	input: DiagnoseInput,
	options: DiagnoseOptions = {}
): Promise<Diagnosis> {
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
	const customerMac = authorization.mac.trim();
	const tried = new Tried(options.hmac ?? hmac);
	const expectedBaseString = renderBaseString(correct);
	const expectedEntry = tried.claim(correct, expectedBaseString) ?? { encodings: 0 };
	const expectedMac = (await tried.digest(correct, expectedBaseString, expectedEntry)).base64;
	const base = {
		expectedMac,
		expectedBaseString,
		customerMac,
		variantsTried: 1
	};
	if (expectedMac === customerMac) {
		return {
			...base,
			verdict: 'match',
			match: true,
			explanations: [],
			keyOrUnseenInputs: false,
			message: text('diagnosis_verdict_match')
		};
	}

	const singles = MISTAKES.flatMap((mistake) =>
		mistake.variants(correct, context).map((candidate) => ({
			inputs: candidate.inputs,
			parts: [{ mistake, candidate }]
		}))
	);
	const producible = shapesOf(customerMac);
	let explanations = await reproduce(singles, customerMac, producible, tried);
	if (explanations.length === 0) {
		explanations = await reproduce(pairs(singles, context), customerMac, producible, tried);
	}
	base.variantsTried = tried.count;
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
	return {
		...base,
		verdict: 'unexplained',
		match: false,
		explanations: [],
		keyOrUnseenInputs: true,
		message: unexplainedMessage(customerMac)
	};
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

/** For each mistake, the later ones of another slot: the second half of its pairs. */
const LATER = new Map(
	MISTAKES.map((mistake, index) => [
		mistake.id,
		MISTAKES.slice(index + 1).filter((second) => second.slot !== mistake.slot)
	])
);

/** Each single followed by every later mistake of another slot, applied to its result. */
function pairs(singles: Variant[], context: MistakeContext): Variant[] {
	const result: Variant[] = [];
	for (const single of singles) {
		const [first] = single.parts;
		if (first === undefined) continue;
		for (const second of LATER.get(first.mistake.id) ?? []) {
			for (const candidate of second.variants(single.inputs, context)) {
				result.push({
					inputs: candidate.inputs,
					parts: [first, { mistake: second, candidate }]
				});
			}
		}
	}
	return result;
}

/** Whether a digest of each hash, in each encoding, can look like `mac`: asked once per diagnosis. */
function shapesOf(mac: string): (hash: HashName, encoding: DigestEncoding) => boolean {
	const known = new Map<string, boolean>();
	return (hash, encoding) => {
		const id = `${hash} ${encoding}`;
		let can = known.get(id);
		if (can === undefined) {
			can = canProduce(mac, hash, encoding);
			known.set(id, can);
		}
		return can;
	};
}

async function reproduce(
	variants: Variant[],
	customerMac: string,
	producible: (hash: HashName, encoding: DigestEncoding) => boolean,
	tried: Tried
): Promise<Reproduction[]> {
	// The most likely first, so that when two mistakes sign the same thing the likelier one is named.
	const ranked = variants
		.map((variant) => ({ variant, likelihood: likelihood(variant) }))
		.sort((a, b) => b.likelihood - a.likelihood);
	// A synchronous signer's digests are compared at once; only a promise's wait for it.
	const results: (Reproduction | null)[] = [];
	const pending: Promise<void>[] = [];
	for (const { variant } of ranked) {
		const { hash, encoding } = variant.inputs;
		if (!producible(hash, encoding)) continue;
		const text = renderBaseString(variant.inputs);
		const entry = tried.claim(variant.inputs, text);
		if (entry === null) continue;
		const index = results.push(null) - 1;
		const compare = (digest: Digest) => {
			if (sameMac(customerMac, digest, encoding)) results[index] = asReproduction(variant, text);
		};
		const digest = tried.digest(variant.inputs, text, entry);
		if (digest instanceof Promise) pending.push(digest.then(compare));
		else compare(digest);
	}
	await Promise.all(pending);
	const found = results.filter((reproduction) => reproduction !== null);
	// A mistake that changes nothing here (Base64url of a digest without + or /) adds no information.
	return found.filter(
		(reproduction) =>
			!found.some(
				(other) =>
					other.mistakes.length < reproduction.mistakes.length &&
					other.mistakes.every((part) => reproduction.mistakes.some((own) => own.id === part.id))
			)
	);
}

function likelihood(variant: Variant): number {
	return variant.parts.reduce((product, part) => product * part.mistake.prior, 1);
}

function asReproduction(variant: Variant, baseString: string): Reproduction {
	const mistakes = variant.parts.map(({ mistake, candidate }) => ({
		id: mistake.id,
		title: candidate.title,
		fix: candidate.fix ?? mistake.fix
	}));
	return {
		id: mistakes.map((mistake) => mistake.id).join('+'),
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
		likelihood: likelihood(variant),
		baseString,
		hash: variant.inputs.hash,
		encoding: variant.inputs.encoding,
		keyForm: variant.inputs.keyForm
	};
}

function unexplainedMessage(mac: string): Text {
	const shapes = (['SHA-1', 'SHA-256'] as const).flatMap((hash) =>
		(['base64', 'base64-unpadded', 'base64url', 'base64url-unpadded', 'hex'] as const).filter(
			(encoding) => canProduce(mac, hash, encoding)
		)
	);
	if (shapes.length === 0) {
		return text('diagnosis_verdict_not_digest', { mac: mac.slice(0, 60) });
	}
	return text('diagnosis_verdict_unexplained');
}

const ENCODING_BITS: Record<DigestEncoding, number> = {
	base64: 1,
	'base64-unpadded': 2,
	base64url: 4,
	'base64url-unpadded': 8,
	hex: 16
};

interface TriedText {
	/** The encodings of this digest compared so far, one bit each. */
	encodings: number;
	digest?: Digest | Promise<Digest>;
}

/**
 * The variants computed so far, by key and hash, then by base string: one HMAC per distinct base
 * string, key and hash (the encodings are renderings of it), and each encoding of it compared once.
 * The base string is looked up once per variant: a long text hashed once, not once per map.
 */
class Tried {
	#byKey = new Map<string, Map<string, TriedText>>();
	/** The distinct variants claimed: the expected one first. */
	count = 0;
	constructor(readonly sign: DigestSigner) {}

	#entry(inputs: SigningInputs, text: string): TriedText {
		const id = `${keyIdentity(inputs.key)}\u0000${inputs.hash}`;
		let texts = this.#byKey.get(id);
		if (texts === undefined) {
			texts = new Map();
			this.#byKey.set(id, texts);
		}
		let entry = texts.get(text);
		if (entry === undefined) {
			entry = { encodings: 0 };
			texts.set(text, entry);
		}
		return entry;
	}

	/**
	 * Marks these inputs as tried: their base string's entry, or null when a variant signing the same
	 * mac (key, hash, base string and encoding) was tried before.
	 */
	claim(inputs: SigningInputs, text: string): TriedText | null {
		const entry = this.#entry(inputs, text);
		const bit = ENCODING_BITS[inputs.encoding];
		if ((entry.encodings & bit) !== 0) return null;
		entry.encodings |= bit;
		this.count += 1;
		return entry;
	}

	/** The digest of a claimed entry's text with the inputs' key and hash, signed once. */
	digest(inputs: SigningInputs, text: string, entry: TriedText): Digest | Promise<Digest> {
		return (entry.digest ??= this.sign(inputs.key, text, inputs.hash));
	}
}
