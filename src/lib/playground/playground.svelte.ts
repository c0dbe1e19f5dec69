import { createContext } from 'svelte';
// The core's modules by name, not through its index: the index would bring every module of the
// core into the page's first chunks, the paste reader's and the Windows quoting's among them.
import { baseString, baseStringLines, type BaseStringInput } from '$lib/mac/base-string';
import type { Credential } from '$lib/mac/credential';
import { attempt, MacInputError, type Outcome } from '$lib/mac/errors';
import { checkHeaderValue } from '$lib/mac/header';
import { requestTarget, urlRewrites, type UrlRewrite } from '$lib/mac/request-target';
import { isSupportedAlgorithm, MAC_ALGORITHM } from '$lib/mac/sign';
import {
	isTimestamp,
	padTimestamp,
	randomNonce,
	timestamp,
	timestampToDate,
	type NonceKind
} from '$lib/mac/ts-nonce';
import { BASE_URLS, type Region } from '$lib/account-api/deployments';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { FocusRequests } from '$lib/ui/focus-requests.svelte';
import { LiveClock } from '$lib/ui/live-clock.svelte';
import { Settled } from '$lib/ui/settled.svelte';
import {
	OPERATIONS,
	operationForScopes,
	operationUrl,
	SCOPES,
	type Operation,
	type Scope,
	type ScopeReason
} from '$lib/account-api/operations';
import { placeholderHeader, signOutputs, type SignInput, type SignedOutputs } from './outputs';
import { DEFAULT_PRESET, PRESETS, type Preset } from './presets';
import { isDemoClientId, isDemoKid } from '$lib/sandbox/accounts';

// What the playground says is held here in no language, as codes and values; the page renders it
// in its own (texts.ts).

/** A note at a field. */
export type PlaygroundNote =
	| {
			code:
				| 'kid_empty'
				| 'mac_key_empty'
				| 'nonce_empty'
				| 'ts_not_decimal'
				| 'ts_milliseconds'
				| 'client_id_empty';
	  }
	| { code: 'client_id_demo'; clientId: string }
	| { code: 'algorithm_unsupported'; algorithm: string; supported: string }
	| { code: 'scope'; reason: ScopeReason }
	| { code: 'error'; error: MacInputError };

/**
 * A field's note; a blocking one marks the field invalid and stops what depends on it, an `invalid`
 * one marks it invalid and lets the request be signed as it is.
 */
export interface FieldProblem {
	note: PlaygroundNote;
	blocking: boolean;
	invalid?: boolean;
}

/** Why the URL that goes out differs from the one written. */
export interface UrlNote {
	/** The URL as it goes out, when the user typed it by hand; null for a composed one. */
	sentAs: string | null;
	/** What a browser's URL parser changes (the core's urlRewrites). */
	changes: UrlRewrite[];
}

export type Shell = 'bash' | 'cmd' | 'powershell';

/**
 * The credential fields and the application they sign for, as the user had them, with the request
 * and the ts and nonce modes a preset also sets: what "Put back my credential" restores.
 */
export interface CredentialSnapshot {
	kid: string;
	macKey: string;
	macAlgorithm: string;
	tokenType: string;
	scopes: Record<Scope, boolean>;
	clientId: string;
	region: Region;
	operationOverride: Operation | 'auto';
	customUrl: string | null;
	fixedTs: string | null;
	nonce: string;
	nonceFixed: boolean;
	nonceKind: NonceKind;
}

/** What put another credential in place of the user's: signing out, a sandbox login, or a preset. */
export type Replacement =
	| { kind: 'signed_out'; yours: string }
	| { kind: 'preset'; preset: string; yours: string }
	| { kind: 'login'; account: string; kid: string; clientId: string; yours: string };

/** A credential the page put in place of the user's, with what it replaced, to put back. */
export interface ReplacedCredential {
	/** What happened; `yours` is the kid of the user's credential. */
	by: Replacement;
	previous: CredentialSnapshot;
}

function problem(compute: () => void): PlaygroundNote | null {
	const outcome = attempt(compute);
	return outcome.ok ? null : { code: 'error', error: outcome.error };
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
	baseUrls = $state<Record<Region, string>>({ ...BASE_URLS });
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
	/** Set while the page's own action (a sandbox login, signing out) replaced the user's credential. */
	replaced = $state<ReplacedCredential | null>(null);
	/** Which shell the curl command is shown for besides bash. */
	shell = $state<Shell>('bash');

	/** Fields and notices of the playground that an action elsewhere sends the focus to. */
	readonly focus = new FocusRequests<'client_id' | 'credential-replaced'>();

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
	/** The URL as typed by hand or composed, before a browser's URL parser rewrites it. */
	readonly writtenUrl = $derived(this.customUrl ?? this.composedUrl);
	/**
	 * What is signed and sent: the URL as the browser's URL parser writes it, which is what Send
	 * puts on the wire; the curl command carries the same text, which curl sends as it is.
	 */
	readonly target = $derived(attempt(() => requestTarget(this.writtenUrl)));
	/** The Request URL box: what the user typed, or the composed URL as it will go out. */
	readonly url = $derived(
		this.customUrl ?? (this.target.ok ? this.target.value.href : this.composedUrl)
	);
	/** Why the URL that goes out differs from the one written, or null when it does not. */
	readonly urlNote: UrlNote | null = $derived.by(() => {
		const changes = urlRewrites(this.writtenUrl);
		if (!this.target.ok || changes.length === 0) return null;
		return { sentAs: this.customUrl === null ? null : this.target.value.href, changes };
	});

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

	/** Messages keyed by the field they belong to; blocking ones stop the header from being built. */
	readonly messages = $derived.by(() => {
		const messages: Partial<Record<string, FieldProblem>> = {};
		const add = (field: string, note: PlaygroundNote | null, blocking = true) => {
			if (note) messages[field] = { note, blocking };
		};
		add(
			'kid',
			this.kid === '' ? { code: 'kid_empty' } : problem(() => checkHeaderValue('kid', this.kid))
		);
		add('mac_key', this.macKey === '' ? { code: 'mac_key_empty' } : null);
		add(
			'mac_algorithm',
			isSupportedAlgorithm(this.macAlgorithm)
				? null
				: { code: 'algorithm_unsupported', algorithm: this.macAlgorithm, supported: MAC_ALGORITHM }
		);
		add(
			'nonce',
			this.nonce === ''
				? { code: 'nonce_empty' }
				: problem(() => checkHeaderValue('nonce', this.nonce))
		);
		add(
			'ts',
			problem(() => checkHeaderValue('ts', this.ts))
		);
		if (!messages.ts && !isTimestamp(this.ts)) add('ts', { code: 'ts_not_decimal' }, false);
		else if (!messages.ts && this.ts.replace(/^0+/, '').length > 11)
			add('ts', { code: 'ts_milliseconds' }, false);
		if (this.operation === null && this.customUrl === null)
			add('operation', { code: 'scope', reason: this.scopeRule.reason });
		else if (!this.target.ok)
			add(this.customUrl === null ? 'base_url' : 'url', {
				code: 'error',
				error: this.target.error
			});
		if (this.customUrl === null && this.clientId.trim() === '') {
			add('client_id', { code: 'client_id_empty' }, false);
		} else if (this.customUrl === null && this.demoClientIdWithOwnKid) {
			messages.client_id = {
				note: { code: 'client_id_demo', clientId: this.clientId.trim() },
				blocking: false,
				invalid: true
			};
		}
		return messages;
	});
	/**
	 * The sandbox's demo client_id beside a credential the sandbox did not issue (an SDK login result
	 * pasted or typed): the service would refuse that client_id for the user's own application.
	 */
	readonly demoClientIdWithOwnKid = $derived(
		this.kid !== '' && !isDemoKid(this.kid) && isDemoClientId(this.clientId)
	);

	readonly blockingFields = $derived(
		Object.entries(this.messages)
			.filter(([, entry]) => entry?.blocking)
			.map(([field]) => field)
	);

	/** What the signature is computed from; null while a field blocks it or the URL cannot be signed. */
	readonly #signInput: SignInput | null = $derived(
		this.blockingFields.length > 0 || !this.target.ok
			? null
			: {
					macKey: this.macKey,
					base: this.base,
					kid: this.kid,
					ts: this.ts,
					nonce: this.nonce,
					href: this.target.value.href,
					space: this.headerSpace
				}
	);

	/** The signature and what is built from it; a promise, because SubtleCrypto is asynchronous. */
	readonly signed: Promise<Outcome<SignedOutputs> | null> = $derived(
		this.#signInput === null ? Promise.resolve(null) : signOutputs(this.#signInput)
	);

	/**
	 * The header's shape until the first signature is ready (in the prerendered page too): laid out
	 * unseen, so nothing moves when it arrives. Null once it has.
	 */
	readonly placeholder: string | null = $derived(
		this.signature !== undefined || this.#signInput === null
			? null
			: placeholderHeader(this.#signInput)
	);

	/**
	 * The signature once `signed` resolves, shown while a newer one is computed; undefined until the
	 * first is ready.
	 */
	readonly #signature = new Settled(() => this.signed);
	get signature(): Outcome<SignedOutputs> | null | undefined {
		return this.#signature.current;
	}

	load(preset: Preset): void {
		this.replaced = null;
		this.#apply(preset);
	}

	/**
	 * Loads a preset the user picked. A credential of their own (typed or pasted, not a preset's)
	 * is kept aside in memory, to put back: a click on an example never costs them their kid,
	 * mac_key and client_id.
	 */
	usePreset(preset: Preset): void {
		const own = !(this.kid === '' && this.macKey === '') && !this.#holdsPreset();
		if (this.replaced !== null || own)
			this.#keepToPutBack({
				kind: 'preset',
				preset: preset.id,
				yours: this.replaced?.previous.kid ?? this.kid
			});
		this.#apply(preset);
	}

	/** usePreset for the preset of that id, if there is one. */
	usePresetNamed(id: string): void {
		const preset = PRESETS.find((candidate) => candidate.id === id);
		if (preset) this.usePreset(preset);
	}

	/** Whether the credential fields hold a preset's credential, untouched. */
	#holdsPreset(): boolean {
		return PRESETS.some(
			(preset) =>
				preset.kid === this.kid &&
				preset.macKey === this.macKey &&
				preset.clientId === this.clientId
		);
	}

	#apply(preset: Preset): void {
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
		this.nonce = preset.nonce ?? randomNonce(this.nonceKind);
		this.nonceFixed = preset.nonce !== undefined;
	}

	/**
	 * Fills the credential fields that `credential` holds (a pasted SDK login result: first-use/paste.ts),
	 * and says which, in the spec's names.
	 */
	fillCredential(credential: Partial<Credential>): string[] {
		// What the user pastes is theirs: a credential the page put in place earlier is forgotten.
		this.replaced = null;
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
		return filled;
	}

	newNonce(): void {
		this.nonce = randomNonce(this.nonceKind);
		this.nonceFixed = false;
	}

	/** A typed nonce is kept exactly, and reused by every send until a new one is drawn. */
	setNonce(text: string): void {
		this.nonce = text;
		this.nonceFixed = true;
	}

	/**
	 * Signs out locally (spec §7, access_denied): the credential leaves the fields, the request stays,
	 * and what was there can be put back.
	 */
	signOut(): void {
		if (this.kid === '' && this.macKey === '') return;
		this.#keepToPutBack({ kind: 'signed_out', yours: this.replaced?.previous.kid ?? this.kid });
		this.kid = '';
		this.macKey = '';
	}

	/**
	 * Signs with a credential the page obtained (a sandbox login of the demo account `account`, by
	 * its id), saying so and keeping the user's own to put back.
	 */
	useCredential(
		credential: { kid: string; macKey: string; scopes: readonly string[]; clientId: string },
		account: string
	): void {
		this.#keepToPutBack({
			kind: 'login',
			account,
			kid: credential.kid,
			clientId: credential.clientId,
			yours: this.replaced?.previous.kid ?? this.kid
		});
		this.kid = credential.kid;
		this.macKey = credential.macKey;
		this.macAlgorithm = MAC_ALGORITHM;
		this.tokenType = 'mac';
		this.scopes = {
			basic_info: credential.scopes.includes('basic_info'),
			public_profile: credential.scopes.includes('public_profile')
		};
		this.clientId = credential.clientId;
	}

	/**
	 * Signs with a new sandbox login of the demo account behind `kid` from now on, saying so and keeping
	 * the user's credential to put back.
	 */
	async logInAgain(sandbox: Pick<Sandbox, 'login'>, kid: string = this.kid): Promise<void> {
		const token = await sandbox.login(kid);
		this.useCredential(token, token.accountId);
	}

	/** Puts back the credential a sandbox login or signing out replaced. */
	putBackCredential(): void {
		const previous = this.replaced?.previous;
		if (!previous) return;
		this.kid = previous.kid;
		this.macKey = previous.macKey;
		this.macAlgorithm = previous.macAlgorithm;
		this.tokenType = previous.tokenType;
		this.scopes = { ...previous.scopes };
		this.clientId = previous.clientId;
		this.region = previous.region;
		this.operationOverride = previous.operationOverride;
		this.customUrl = previous.customUrl;
		this.fixedTs = previous.fixedTs;
		this.nonceKind = previous.nonceKind;
		this.nonce = previous.nonce;
		this.nonceFixed = previous.nonceFixed;
		this.replaced = null;
	}

	/** The first replacement keeps the user's credential; later ones keep that same one. */
	#keepToPutBack(by: Replacement): void {
		this.replaced = {
			by,
			previous: this.replaced?.previous ?? {
				kid: this.kid,
				macKey: this.macKey,
				macAlgorithm: this.macAlgorithm,
				tokenType: this.tokenType,
				scopes: { ...this.scopes },
				clientId: this.clientId,
				region: this.region,
				operationOverride: this.operationOverride,
				customUrl: this.customUrl,
				fixedTs: this.fixedTs,
				nonce: this.nonce,
				nonceFixed: this.nonceFixed,
				nonceKind: this.nonceKind
			}
		};
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

	/** Spec §7, invalid_time: the live ts follows the server's clock, `offsetSeconds` ahead of this one. */
	followServerClock(offsetSeconds: number): void {
		this.clockOffsetSeconds = offsetSeconds;
		this.setTs('');
	}
}

const [getPlayground, setPlayground] = createContext<Playground>();
export { getPlayground, setPlayground };
