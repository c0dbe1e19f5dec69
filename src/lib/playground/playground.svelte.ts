import { createContext } from 'svelte';
import {
	attempt,
	baseString,
	baseStringLines,
	browserRewrites,
	checkHeaderValue,
	CredentialError,
	isSupportedAlgorithm,
	isTimestamp,
	MAC_ALGORITHM,
	parseCredential,
	pastedJson,
	randomNonce,
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
import { BASE_URLS, type Region } from '$lib/account-api/deployments';
import { DEMO_ACCOUNTS } from '$lib/sandbox/accounts';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import type { FieldMessage } from '$lib/ui/FieldNote.svelte';
import { FocusRequests } from '$lib/ui/focus-requests.svelte';
import { LiveClock } from '$lib/ui/live-clock.svelte';
import { Settled } from '$lib/ui/settled.svelte';
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

/** The credential fields and the application they sign for, as the user had them. */
export interface CredentialSnapshot {
	kid: string;
	macKey: string;
	macAlgorithm: string;
	tokenType: string;
	scopes: Record<Scope, boolean>;
	clientId: string;
}

/** A credential the page put in place of the user's, with what it replaced, to put back. */
export interface ReplacedCredential {
	/** What happened, in a sentence. */
	message: string;
	previous: CredentialSnapshot;
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
	readonly urlNote = $derived.by(() => {
		const rewrites = browserRewrites(this.writtenUrl);
		if (!this.target.ok || rewrites.length === 0) return null;
		const sent = this.customUrl === null ? '' : `Goes out as ${this.target.value.href}: `;
		const changes = rewrites.join(', ');
		return `${sent}${sent === '' ? changes.charAt(0).toUpperCase() + changes.slice(1) : changes}. A browser rewrites the URL so before sending it, and the curl command carries the rewritten URL, so Send and curl send the same bytes and the signature covers them.`;
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
		return { filled, problem, ignored: ignoredText(pastedJson(text), credential.mac_key) };
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
		const yours = this.replaced?.previous.kid ?? this.kid;
		this.#keepToPutBack(
			`Signed out locally: kid and mac_key are empty (yours was kid ${yours || '(empty)'}).`
		);
		this.kid = '';
		this.macKey = '';
	}

	/**
	 * Signs with a credential the page obtained (a sandbox login), saying so and keeping the user's
	 * own to put back.
	 */
	useCredential(
		credential: { kid: string; macKey: string; scopes: readonly string[]; clientId: string },
		from: string
	): void {
		const yours = this.replaced?.previous.kid ?? this.kid;
		this.#keepToPutBack(
			`Signing with ${from} (kid ${credential.kid}, client_id ${credential.clientId}), in place of yours (kid ${yours || '(empty)'}).`
		);
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
		const label = DEMO_ACCOUNTS.find((account) => account.id === token.accountId)?.label ?? '';
		this.useCredential(token, `a fresh login of the sandbox's ${label.toLowerCase()}`);
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
		this.replaced = null;
	}

	/** The first replacement keeps the user's credential; later ones keep that same one. */
	#keepToPutBack(message: string): void {
		this.replaced = {
			message,
			previous: this.replaced?.previous ?? {
				kid: this.kid,
				macKey: this.macKey,
				macAlgorithm: this.macAlgorithm,
				tokenType: this.tokenType,
				scopes: { ...this.scopes },
				clientId: this.clientId
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
