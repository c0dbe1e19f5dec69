import { createContext } from 'svelte';
import {
	attempt,
	baseString,
	baseStringLines,
	checkHeaderValue,
	CredentialError,
	isSupportedAlgorithm,
	isTimestamp,
	MAC_ALGORITHM,
	nonce,
	parseCredential,
	pastedJson,
	requestTarget,
	padTimestamp,
	timestamp,
	timestampToDate,
	type BaseStringInput,
	type Credential,
	type Outcome,
	type PastedJson,
	type NonceKind
} from '$lib/mac';
import { LiveClock } from '$lib/ui/live-clock.svelte';
import {
	OPERATIONS,
	operationForScopes,
	operationUrl,
	SCOPES,
	type Operation,
	type Scope
} from './operation';
import { signOutputs, type SignedOutputs } from './outputs';
import { DEFAULT_PRESET, type Preset } from './presets';

export type Region = 'domestic' | 'overseas';

/** What pasting an SDK login result did. */
export interface CredentialPasteResult {
	/** The fields filled, in the spec's names. */
	filled: string[];
	/** What could not be used, or null. */
	problem: string | null;
	/** The text around the JSON object that was not read, in words; null when there was none. */
	ignored: string | null;
}

/** A piece of ignored text for a message: short, and never with the mac_key in it. */
function shown(text: string, secret: string | undefined): string {
	const safe = secret ? text.split(secret).join('•••') : text;
	return `“${safe.length > 90 ? `${safe.slice(0, 90)}…` : safe}”`;
}

function ignoredText(pasted: PastedJson, secret: string | undefined): string | null {
	const parts = [
		pasted.before && `before it, ${shown(pasted.before, secret)}`,
		pasted.after && `after it, ${shown(pasted.after, secret)}`
	].filter(Boolean);
	return parts.length === 0
		? null
		: `Read the JSON object in the paste and ignored the text ${parts.join(', and ')}.`;
}
export type Shell = 'bash' | 'cmd' | 'powershell';

export const DEFAULT_BASE_URLS: Record<Region, string> = {
	domestic: __DOMESTIC_BASE_URL__,
	overseas: __OVERSEAS_BASE_URL__
};

/** Messages keyed by the field they belong to; `blocking` ones stop the header from being built. */
export interface FieldMessage {
	message: string;
	blocking: boolean;
}

function problem(compute: () => void): string | null {
	const outcome = attempt(compute);
	return outcome.ok ? null : outcome.error.message;
}

/**
 * Everything the playground shows, computed one way: inputs → request target → base string →
 * signature → header and curl. Only the inputs are state; the rest is derived.
 */
export class Playground {
	// The credential of spec §2.3.
	kid = $state('');
	macKey = $state('');
	macAlgorithm = $state(MAC_ALGORITHM);
	tokenType = $state('mac');
	scopes = $state<Record<Scope, boolean>>({ basic_info: false, public_profile: false });

	// The request.
	region = $state<Region>('domestic');
	baseUrls = $state<Record<Region, string>>({ ...DEFAULT_BASE_URLS });
	clientId = $state('');
	/** 'auto' follows the scope rule; anything else is the user's override. */
	operationOverride = $state<Operation | 'auto'>('auto');
	/** A URL the user typed instead of the composed one; null while the composed one is used. */
	customUrl = $state<string | null>(null);

	// ts and nonce.
	/** A ts the user fixed, exactly as typed; null while the ts is live. */
	fixedTs = $state<string | null>(null);
	pad10 = $state(false);
	nonce = $state('');
	/** True once the user typed a nonce: then every send reuses it instead of drawing a new one. */
	nonceFixed = $state(false);
	nonceKind = $state<NonceKind>('base64');
	/** Server clock minus this machine's, learnt from an invalid_time answer; the live ts follows it. */
	clockOffsetSeconds = $state(0);
	headerSpace = $state(false);
	/** Which shell the curl command is shown for besides bash. */
	shell = $state<Shell>('bash');

	#clock = new LiveClock();

	constructor(preset: Preset = DEFAULT_PRESET) {
		this.load(preset);
	}

	readonly grantedScopes = $derived(SCOPES.filter((scope) => this.scopes[scope]));
	readonly scopeRule = $derived(operationForScopes(this.grantedScopes));
	readonly operation = $derived(
		this.operationOverride === 'auto' ? this.scopeRule.operation : this.operationOverride
	);
	readonly baseUrl = $derived(this.baseUrls[this.region]);
	readonly composedUrl = $derived(
		this.operation === null
			? ''
			: operationUrl(this.baseUrl, OPERATIONS[this.operation].path, this.clientId)
	);
	readonly url = $derived(this.customUrl ?? this.composedUrl);
	readonly target = $derived(attempt(() => requestTarget(this.url)));

	readonly ts = $derived(
		this.fixedTs ??
			timestamp(this.#clock.now + this.clockOffsetSeconds * 1000, { pad10: this.pad10 })
	);
	readonly tsDate = $derived(timestampToDate(this.ts));

	readonly baseInput: BaseStringInput = $derived({
		ts: this.ts,
		nonce: this.nonce,
		method: 'GET',
		uri: this.target.ok ? this.target.value.uri : '',
		host: this.target.ok ? this.target.value.host : '',
		port: this.target.ok ? this.target.value.port : ''
	});
	readonly lines = $derived(baseStringLines(this.baseInput));
	readonly base = $derived(baseString(this.baseInput));

	readonly messages = $derived.by(() => {
		const messages: Partial<Record<string, FieldMessage>> = {};
		const add = (field: string, message: string | null, blocking = true) => {
			if (message) messages[field] = { message, blocking };
		};
		add(
			'kid',
			this.kid === ''
				? 'kid is empty: copy it from the SDK login result.'
				: problem(() => checkHeaderValue('kid', this.kid))
		);
		add(
			'mac_key',
			this.macKey === '' ? 'mac_key is empty: copy it from the SDK login result.' : null
		);
		add(
			'mac_algorithm',
			isSupportedAlgorithm(this.macAlgorithm)
				? null
				: `"${this.macAlgorithm}" is not supported: the service signs with ${MAC_ALGORITHM} only.`
		);
		add(
			'nonce',
			this.nonce === ''
				? 'nonce is empty: generate one or type one.'
				: problem(() => checkHeaderValue('nonce', this.nonce))
		);
		add(
			'ts',
			problem(() => checkHeaderValue('ts', this.ts))
		);
		if (!messages.ts && !isTimestamp(this.ts))
			add(
				'ts',
				'Not decimal whole seconds: the service will reject it. It is signed exactly as typed.',
				false
			);
		else if (!messages.ts && this.ts.replace(/^0+/, '').length > 11)
			add('ts', 'This looks like milliseconds; ts is in seconds.', false);
		if (this.operation === null && this.customUrl === null) add('operation', this.scopeRule.reason);
		else if (!this.target.ok)
			add(this.customUrl === null ? 'base_url' : 'url', this.target.error.message);
		if (this.customUrl === null && this.clientId.trim() === '') {
			add('client_id', 'client_id is empty: the service answers invalid_request.', false);
		}
		return messages;
	});
	readonly blockingFields = $derived(
		Object.entries(this.messages)
			.filter(([, entry]) => entry?.blocking)
			.map(([field]) => field)
	);

	/** The signature and what is built from it; a promise, because SubtleCrypto is asynchronous. */
	readonly signed: Promise<Outcome<SignedOutputs> | null> = $derived(
		this.blockingFields.length > 0 || !this.target.ok
			? Promise.resolve(null)
			: signOutputs({
					macKey: this.macKey,
					base: this.base,
					kid: this.kid,
					ts: this.ts,
					nonce: this.nonce,
					href: this.target.value.href,
					space: this.headerSpace
				})
	);

	load(preset: Preset): void {
		this.kid = preset.kid;
		this.macKey = preset.macKey;
		this.macAlgorithm = MAC_ALGORITHM;
		this.tokenType = 'mac';
		this.scopes = {
			basic_info: preset.scopes.includes('basic_info'),
			public_profile: preset.scopes.includes('public_profile')
		};
		this.clientId = preset.clientId;
		this.operationOverride = 'auto';
		this.customUrl = preset.customUrl ?? null;
		this.fixedTs = preset.ts ?? null;
		this.nonce = preset.nonce ?? nonce(this.nonceKind);
		this.nonceFixed = preset.nonce !== undefined;
	}

	/**
	 * Fills the credential from a pasted SDK login result, found inside a log line if need be.
	 * Fields that could be read are filled even when others are bad; the result says what was
	 * filled, what could not be used and what text around the JSON was ignored.
	 */
	pasteCredential(text: string): CredentialPasteResult {
		let credential: Partial<Credential>;
		let problem: string | null = null;
		try {
			credential = parseCredential(text);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			if (!(error instanceof CredentialError))
				return { filled: [], problem: message, ignored: null };
			credential = error.partial;
			problem = message;
		}
		const filled: string[] = [];
		if (credential.kid !== undefined) {
			this.kid = credential.kid;
			filled.push('kid');
		}
		if (credential.mac_key !== undefined) {
			this.macKey = credential.mac_key;
			filled.push('mac_key');
		}
		if (credential.mac_algorithm !== undefined) {
			this.macAlgorithm = credential.mac_algorithm;
			filled.push('mac_algorithm');
		}
		if (credential.token_type !== undefined) {
			this.tokenType = credential.token_type;
			filled.push('token_type');
		}
		if (credential.scopes !== undefined) {
			this.scopes = {
				basic_info: credential.scopes.includes('basic_info'),
				public_profile: credential.scopes.includes('public_profile')
			};
			filled.push('scopes');
		}
		return { filled, problem, ignored: ignoredText(pastedJson(text), credential.mac_key) };
	}

	newNonce(): void {
		this.nonce = nonce(this.nonceKind);
		this.nonceFixed = false;
	}

	/** A typed nonce is kept exactly, and reused by every send until a new one is drawn. */
	setNonce(text: string): void {
		this.nonce = text;
		this.nonceFixed = true;
	}

	/** Signs out locally (spec §7, access_denied): the credential is forgotten, the request kept. */
	signOut(): void {
		this.kid = '';
		this.macKey = '';
	}

	/** The padding switch applies to the live ts and to a fixed one of digits; other text stays as typed. */
	setPad10(on: boolean): void {
		this.pad10 = on;
		if (this.fixedTs !== null) this.fixedTs = padTimestamp(this.fixedTs, on);
	}

	/** Typing a ts fixes it exactly as typed; an empty box goes back to the live clock. */
	setTs(text: string): void {
		this.fixedTs = text === '' ? null : text;
	}
}

const [getPlayground, setPlayground] = createContext<Playground>();
export { getPlayground, setPlayground };
