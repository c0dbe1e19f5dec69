import { baseString, macErrorMessage, parseAuthorization, requestTarget, sign } from '$lib/mac';
import { headerFormatOf, readAsMeant } from '$lib/read/header-format';
import type { MacHeaderParams } from '$lib/mac';
import { MacInputError } from '$lib/mac/errors';
import { isTimestamp, randomNonce } from '$lib/mac/ts-nonce';
import { ERROR_CODES, STATUS_TEXTS, type ErrorCode } from '$lib/account-api/error-codes';
import { wrap } from '$lib/account-api/envelope';
import { OPERATIONS, operationAt } from '$lib/account-api/operations';
import { NonceMemory } from './nonces';
import {
	givenToken,
	initialSnapshot,
	type GivenCredential,
	type InvalidReason,
	type SandboxSnapshot,
	type SandboxToken
} from './state';

export { initialSnapshot, type SandboxSnapshot, type SandboxToken, type InvalidReason };

/** Thrown when the request's host is not one the sandbox answers for: as if DNS found nothing. */
export class SandboxUnreachable extends Error {
	override name = 'SandboxUnreachable';
	constructor(
		/** The hosts the sandbox answers for. */
		readonly hosts: readonly string[],
		/** The host that was asked for. */
		readonly host: string
	) {
		super(`The sandbox answers only for ${hosts.join(' and ')}, not ${host}.`);
	}
}

export interface SandboxOptions {
	/** Hosts the sandbox answers for (the deployments' hosts); every host when left out. */
	hosts?: () => readonly string[];
	now?: () => number;
	/** Where relative avatar addresses resolve; the page passes its own origin so they load under its CSP. */
	avatarBase?: string;
	/** The tokens it starts with (and returns to on reset): the demo accounts' when left out. */
	tokens?: readonly SandboxToken[];
	/** The ts window in seconds, either way. */
	windowSeconds?: number;
	/** Nonces remembered at most (see NonceMemory). */
	maxNonces?: number;
	/**
	 * HMAC-SHA-1 of the base string with the key, in Base64: the core's (SubtleCrypto) by default; a
	 * Node server passes node:crypto's, which runs in the request's own task.
	 */
	hmac?: (macKey: string, base: string) => string | Promise<string>;
	/**
	 * Whether a wrong mac's answer carries the base string the sandbox built (`sandbox_base_string`),
	 * which the real service never sends; true when left out.
	 */
	revealBaseString?: boolean;
}

/**
 * Why the sandbox answered as it did, in ids: `ok`, or the check the request failed. The server's
 * journal and X-Sandbox-Diagnosis say these; the page words them in its language.
 */
export type SandboxVerdict =
	| 'ok'
	| 'fault'
	| 'method-not-get'
	| 'not-found'
	| 'header-missing'
	| 'header-malformed'
	/** Read as meant, but not written as the spec shows (read/header-format.ts). */
	| 'header-format'
	| 'client-id-missing'
	| 'ts-not-seconds'
	| 'ts-outside-window'
	| 'unknown-kid'
	| 'mac-mismatch'
	| 'revoked'
	| 'nonce-reused'
	| 'client-id-wrong'
	| 'scope-not-granted';

/** What the sandbox found, beside its answer. */
export interface SandboxOutcome {
	verdict: SandboxVerdict;
	/** The kid the header named, where it could be read. */
	kid: string | null;
	params: MacHeaderParams | null;
	/** The base string the sandbox built from the request, where the header could be read. */
	baseString: string | null;
	/** The token of that kid, where the sandbox has one. */
	token: SandboxToken | null;
}

/** A request as the sandbox reads it: what a fetch Request or a Node server hands over. */
export interface ServiceRequest {
	method: string;
	/** The URL as called: scheme, host (and port) from Host, path and query. */
	url: string;
	authorization: string | null;
	/**
	 * The path and query exactly as received, where a server knows them: a URL through the URL
	 * parser has `'`, `"`, `<` and `>` of its query re-encoded, and the signature covers the bytes
	 * the client sent. The page's own requests need none: they are built from the URL it signed.
	 */
	target?: string;
}

/** The service's answer, before it is a Response: a server writes it as it is. */
export interface ServiceAnswer {
	status: number;
	statusText: string;
	headers: Record<string, string>;
	/** The JSON body. */
	body: string;
	outcome: SandboxOutcome;
}

/** Commands that change the sandbox's settings. */
export interface SandboxSettings {
	windowSeconds?: number;
	clockSkewSeconds?: number;
	/** The fault switch: the next N requests get server_error. */
	failNext?: number;
}

/**
 * What the service of the spec does, as a web-standard fetch handler: the page, the relay and the
 * sandbox server share it. Its state is its own: changed through commands (configure, invalidate,
 * login, reset) and observed through `subscribe`.
 */
export class SandboxService {
	#snapshot: SandboxSnapshot;
	readonly #initial: readonly SandboxToken[] | undefined;
	#nonces: NonceMemory;
	#logins = 0;
	#listeners = new Set<(snapshot: SandboxSnapshot) => void>();
	/** Kept as a list and a map: a server with many accounts finds a kid in O(1). */
	#byKid = new Map<string, SandboxToken>();

	constructor(private readonly options: SandboxOptions = {}) {
		this.#initial = options.tokens;
		this.#snapshot = this.#fresh();
		this.#nonces = new NonceMemory(options.maxNonces);
		this.#index();
	}

	#fresh(): SandboxSnapshot {
		const snapshot = initialSnapshot(this.#initial);
		if (this.options.windowSeconds !== undefined)
			snapshot.windowSeconds = this.options.windowSeconds;
		return snapshot;
	}

	#index(): void {
		this.#byKid = new Map(this.#snapshot.tokens.map((token) => [token.kid, token]));
	}

	/** A copy of what the sandbox holds now. */
	snapshot(): SandboxSnapshot {
		const { tokens, ...settings } = this.#snapshot;
		return {
			...settings,
			tokens: tokens.map((token) => ({ ...token, scopes: [...token.scopes] }))
		};
	}

	/** Calls `listener` with a snapshot now and after every change; returns the unsubscribe. */
	subscribe(listener: (snapshot: SandboxSnapshot) => void): () => void {
		this.#listeners.add(listener);
		listener(this.snapshot());
		return () => this.#listeners.delete(listener);
	}

	#changed(): void {
		if (this.#listeners.size === 0) return;
		const snapshot = this.snapshot();
		for (const listener of this.#listeners) listener(snapshot);
	}

	tokenFor(kid: string): SandboxToken | undefined {
		return this.#byKid.get(kid);
	}

	now(): number {
		return (this.options.now?.() ?? Date.now()) + this.#snapshot.clockSkewSeconds * 1000;
	}

	configure(settings: SandboxSettings): void {
		const whole = (value: number | undefined, min: number) =>
			value === undefined || !Number.isFinite(value) ? undefined : Math.max(min, Math.trunc(value));
		const windowSeconds = whole(settings.windowSeconds, 0);
		const clockSkewSeconds = whole(settings.clockSkewSeconds, -Infinity);
		const failNext = whole(settings.failNext, 0);
		if (windowSeconds !== undefined) this.#snapshot.windowSeconds = windowSeconds;
		if (clockSkewSeconds !== undefined) this.#snapshot.clockSkewSeconds = clockSkewSeconds;
		if (failNext !== undefined) this.#snapshot.failNext = failNext;
		this.#changed();
	}

	/** Spec §3: the user changed their account security information or revoked the authorization. */
	invalidate(kid: string, reason: InvalidReason): void {
		const token = this.#byKid.get(kid);
		if (token && token.status === 'valid') {
			token.status = 'invalid';
			token.invalidatedBy = reason;
			this.#changed();
		}
	}

	/** A new login of the same account: a fresh credential, as the SDK would hand out. */
	login(accountId: string): SandboxToken {
		const first = this.#snapshot.tokens.find((candidate) => candidate.accountId === accountId);
		if (!first) throw new Error(`No account ${accountId}`);
		this.#logins += 1;
		const root = (this.#initial ?? initialSnapshot().tokens).find(
			(candidate) => candidate.accountId === accountId
		);
		const token: SandboxToken = {
			kid: `${root?.kid ?? first.kid}-${this.#logins}`,
			macKey: randomNonce('letters'),
			accountId,
			clientId: first.clientId,
			scopes: [...first.scopes],
			status: 'valid',
			identity: { ...first.identity }
		};
		this.#snapshot.tokens = [...this.#snapshot.tokens, token];
		this.#byKid.set(token.kid, token);
		this.#changed();
		return { ...token };
	}

	/**
	 * Makes a credential the visitor holds one the sandbox knows, as if it had issued it: its kid,
	 * mac_key, client_id and scopes, replacing what the sandbox held for that kid. A reset forgets it.
	 */
	register(credential: GivenCredential): SandboxToken {
		const token = givenToken(credential);
		this.#snapshot.tokens = [
			...this.#snapshot.tokens.filter((held) => held.kid !== token.kid),
			token
		];
		this.#byKid.set(token.kid, token);
		this.#changed();
		return { ...token, scopes: [...token.scopes] };
	}

	/** Back to the first tokens and settings; every nonce forgotten. */
	reset(): void {
		this.#snapshot = this.#fresh();
		this.#logins = 0;
		this.#nonces.clear();
		this.#index();
		this.#changed();
	}

	/** Answers a fetch Request (the page's sandbox, the relay's --sandbox); see `decide`. */
	async handle(request: Request, target?: string): Promise<Response> {
		const answer = await this.decide({
			method: request.method,
			url: request.url,
			authorization: request.headers.get('authorization'),
			target
		});
		return new Response(answer.body, {
			status: answer.status,
			statusText: answer.statusText,
			headers: answer.headers
		});
	}

	/** Answers one request, and says why (the outcome). */
	async decide(request: ServiceRequest): Promise<ServiceAnswer> {
		const url = new URL(request.url);
		const hosts = this.options.hosts?.();
		if (hosts && !hosts.includes(url.hostname)) throw new SandboxUnreachable(hosts, url.hostname);
		const now = this.now();
		const outcome: SandboxOutcome = {
			verdict: 'ok',
			kid: null,
			params: null,
			baseString: null,
			token: null
		};
		const fail = (verdict: SandboxVerdict, code: ErrorCode, description: string) => {
			outcome.verdict = verdict;
			const extra: Record<string, string> =
				verdict === 'mac-mismatch' && this.options.revealBaseString !== false
					? { sandbox_base_string: outcome.baseString! }
					: {};
			return { ...this.error(now, code, description, extra), outcome };
		};
		if (this.#snapshot.failNext > 0) {
			this.#snapshot.failNext -= 1;
			this.#changed();
			return fail(
				'fault',
				'server_error',
				'The sandbox was told to fail this request (fault switch).'
			);
		}
		if (request.method !== 'GET') {
			return fail(
				'method-not-get',
				'invalid_request',
				`Only GET is supported, not ${request.method}.`
			);
		}
		const operation = operationAt(url.pathname);
		if (!operation) return fail('not-found', 'not_found', `No resource at ${url.pathname}.`);

		const header = request.authorization;
		if (header === null)
			return fail('header-missing', 'invalid_request', 'The Authorization header is missing.');
		let params: MacHeaderParams;
		// A header not in the spec's form (§5.1) is refused: whether the service reads another form, the
		// spec does not say, and a client that passes here should not meet that question in production.
		// Its values, read as meant, still name the kid, so the diagnosis can say whether it signs right.
		const format = headerFormatOf(header);
		try {
			params = format === null ? parseAuthorization(header) : readAsMeant(header).params;
		} catch (error) {
			const reason =
				error instanceof MacInputError
					? macErrorMessage(error.code, error.params as never)
					: 'unreadable';
			return fail(
				'header-malformed',
				'invalid_request',
				`The Authorization header is malformed: ${reason}`
			);
		}
		outcome.kid = params.id;
		outcome.params = params;
		if (format !== null)
			return fail(
				'header-format',
				'invalid_request',
				`The Authorization header is not written as the spec shows (MAC id="…",ts="…",nonce="…",mac="…"): ${format.seen}. This sandbox reads only the spec's form; whether the service reads another, the spec does not say.`
			);
		// Rebuild the base string from the request as received, exactly as a signer builds it.
		const parsed = requestTarget(request.url);
		const target = request.target;
		outcome.baseString = baseString({
			ts: params.ts,
			nonce: params.nonce,
			method: request.method,
			uri: target ?? parsed.uri,
			host: parsed.host,
			port: parsed.port,
			// Spec §5.3: line 7, the extra data, is empty. A header's ext part is not signed by the
			// service, so a client that signs it there gets another mac than the service's.
			ext: ''
		});
		const clientId = url.searchParams.get('client_id');
		if (!clientId)
			return fail('client-id-missing', 'invalid_request', 'The client_id parameter is missing.');

		const windowSeconds = this.#snapshot.windowSeconds;
		if (!isTimestamp(params.ts)) {
			return fail(
				'ts-not-seconds',
				'invalid_time',
				`ts "${params.ts}" is not decimal whole seconds.`
			);
		}
		const offBy = Number(params.ts) - Math.floor(now / 1000);
		if (Math.abs(offBy) > windowSeconds) {
			const side = offBy > 0 ? 'ahead of' : 'behind';
			return fail(
				'ts-outside-window',
				'invalid_time',
				`ts is ${Math.abs(offBy)} s ${side} the server's clock; the sandbox accepts ±${windowSeconds} s.`
			);
		}

		const token = this.#byKid.get(params.id);
		if (!token) return fail('unknown-kid', 'access_denied', `Unknown kid "${params.id}".`);
		outcome.token = token;
		const mac = this.options.hmac
			? await this.options.hmac(token.macKey, outcome.baseString)
			: await sign(token.macKey, outcome.baseString);
		if (mac !== params.mac) {
			return fail('mac-mismatch', 'access_denied', 'The mac does not match the request.');
		}
		if (token.status === 'invalid') {
			const why =
				token.invalidatedBy === 'security_changed'
					? 'the user changed their account security info'
					: 'the user revoked the authorization';
			return fail('revoked', 'access_denied', `The token is no longer valid: ${why}.`);
		}
		if (this.#nonces.seen(params.id, params.nonce, now)) {
			return fail(
				'nonce-reused',
				'invalid_request',
				'This nonce was already used within the time window.'
			);
		}
		this.#nonces.remember(params.id, params.nonce, now + windowSeconds * 1000, now);

		if (clientId !== token.clientId) {
			return fail(
				'client-id-wrong',
				'invalid_client',
				`client_id "${clientId}" is not the application this token was issued to.`
			);
		}
		const { scope } = OPERATIONS[operation];
		if (!token.scopes.includes(scope)) {
			return fail('scope-not-granted', 'forbidden', `The user did not grant ${scope}.`);
		}
		return { ...this.respond(now, 200, wrap(this.resource(token, scope), true, now)), outcome };
	}

	private resource(token: SandboxToken, scope: string): Record<string, string> {
		const { openid, unionid, name, avatar } = token.identity;
		if (scope === 'basic_info') return { openid, unionid };
		const base = this.options.avatarBase ?? 'https://example.com/avatars/';
		let address = avatar;
		try {
			address = new URL(avatar, base).href;
		} catch {
			// An avatar that is no URL is answered as it was given.
		}
		return { name, avatar: address, openid, unionid };
	}

	/** The service's error answer for `code`, wrapped, with the status of the older docs. */
	error(
		now: number,
		code: ErrorCode,
		description: string,
		extra: Record<string, string> = {}
	): Omit<ServiceAnswer, 'outcome'> {
		const body = wrap(
			{ code: 0, error: code, error_description: description, msg: description, ...extra },
			false,
			now
		);
		return this.respond(now, ERROR_CODES[code].status, body);
	}

	private respond(now: number, status: number, body: unknown): Omit<ServiceAnswer, 'outcome'> {
		return {
			status,
			statusText: STATUS_TEXTS[status] ?? '',
			headers: {
				'content-type': 'application/json; charset=utf-8',
				date: new Date(now).toUTCString(),
				'cache-control': 'no-store'
			},
			body: JSON.stringify(body)
		};
	}
}
