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
	variantIdentity,
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
	const context: MistakeContext = {
		scheme,
		explicitPort: new URL(target.href).port,
		knownHosts: (input.knownHosts ?? DEPLOYMENT_HOSTS).map((host) => host.toLowerCase()),
		written: writtenTarget(input.url)
	};
	const { authorization } = input;
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
	const digests = new DigestCache(options.hmac ?? hmac);
	const expectedBaseString = renderBaseString(correct);
	const expectedMac = (await digests.get(correct, expectedBaseString)).base64;
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

	const tried = new Set([variantIdentity(correct)]);
	const singles = MISTAKES.flatMap((mistake) =>
		mistake.variants(correct, context).map((candidate) => ({
			inputs: candidate.inputs,
			parts: [{ mistake, candidate }]
		}))
	);
	let explanations = await reproduce(singles, customerMac, tried, digests);
	if (explanations.length === 0) {
		explanations = await reproduce(pairs(singles, context), customerMac, tried, digests);
	}
	base.variantsTried = tried.size;
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

/** Each single followed by every later mistake of another slot, applied to its result. */
function pairs(singles: Variant[], context: MistakeContext): Variant[] {
	const order = new Map(MISTAKES.map((mistake, index) => [mistake.id, index]));
	const result: Variant[] = [];
	for (const single of singles) {
		const [first] = single.parts;
		if (first === undefined) continue;
		const after = order.get(first.mistake.id) ?? 0;
		for (const second of MISTAKES.slice(after + 1)) {
			if (second.slot === first.mistake.slot) continue;
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

async function reproduce(
	variants: Variant[],
	customerMac: string,
	tried: Set<string>,
	digests: DigestCache
): Promise<Reproduction[]> {
	// The most likely first, so that when two mistakes sign the same thing the likelier one is named.
	const ranked = [...variants].sort((a, b) => likelihood(b) - likelihood(a));
	const feasible: { variant: Variant; text: string }[] = [];
	for (const variant of ranked) {
		const { hash, encoding } = variant.inputs;
		if (!canProduce(customerMac, hash, encoding)) continue;
		const text = renderBaseString(variant.inputs);
		const identity = variantIdentity(variant.inputs, text);
		if (tried.has(identity)) continue;
		tried.add(identity);
		feasible.push({ variant, text });
	}
	const results = await Promise.all(
		feasible.map(async ({ variant, text }) => {
			const digest = await digests.get(variant.inputs, text);
			return sameMac(customerMac, digest, variant.inputs.encoding)
				? asReproduction(variant, text)
				: null;
		})
	);
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

/** One HMAC per distinct base string, key and hash; the encodings are renderings of it. */
class DigestCache {
	#digests = new Map<string, Digest | Promise<Digest>>();
	constructor(readonly sign: DigestSigner) {}

	get(inputs: SigningInputs, text: string): Digest | Promise<Digest> {
		const id = `${keyIdentity(inputs.key)}\u0000${inputs.hash}\u0000${text}`;
		let digest = this.#digests.get(id);
		if (digest === undefined) {
			digest = this.sign(inputs.key, text, inputs.hash);
			this.#digests.set(id, digest);
		}
		return digest;
	}
}
