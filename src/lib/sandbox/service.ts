import { baseString, macErrorMessage, parseAuthorization, requestTarget, sign } from '$lib/mac';
import { MacInputError } from '$lib/mac/errors';
import { isTimestamp, randomNonce } from '$lib/mac/ts-nonce';
import { ERROR_CODES, STATUS_TEXTS, type ErrorCode } from '$lib/account-api/error-codes';
import { wrap } from '$lib/account-api/envelope';
import { OPERATIONS, operationAt } from '$lib/account-api/operations';
import { DEMO_ACCOUNTS } from './accounts';
import { DEMO_USERS, vendorOf } from './directory';
import type { SandboxState, SandboxToken } from './state';
import { openid, unionid } from './identifiers';

export { initialSandboxState, type SandboxState, type SandboxToken } from './state';
export { vendorOf };

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
	/** Hosts the sandbox answers for (the deployments' hosts). */
	hosts: () => readonly string[];
	now?: () => number;
	/** Where the demo users' avatar images live; the page passes its own origin so they load under its CSP. */
	avatarBase?: string;
}

/** What the service of the spec does, as a web-standard fetch handler: the browser and Node share it. */
export class SandboxService {
	constructor(
		readonly state: SandboxState,
		private readonly options: SandboxOptions
	) {}

	now(): number {
		return (this.options.now?.() ?? Date.now()) + this.state.clockSkewSeconds * 1000;
	}

	/**
	 * Answers one request. `target` is its path and query exactly as received, where a server knows
	 * them: the Request's URL has been through the URL parser, which re-encodes `'`, `"`, `<` and `>`
	 * in a query, and the signature covers the bytes the client sent. The page's own requests
	 * need none: they are built from the URL the page signed.
	 */
	async handle(request: Request, target?: string): Promise<Response> {
		const url = new URL(request.url);
		if (!this.options.hosts().includes(url.hostname)) {
			throw new SandboxUnreachable(this.options.hosts(), url.hostname);
		}
		const now = this.now();
		if (this.state.failNext > 0) {
			this.state.failNext -= 1;
			return this.error(
				now,
				'server_error',
				'The sandbox was told to fail this request (fault switch).'
			);
		}
		if (request.method !== 'GET') {
			return this.error(now, 'invalid_request', `Only GET is supported, not ${request.method}.`);
		}
		const operation = operationAt(url.pathname);
		if (!operation) return this.error(now, 'not_found', `No resource at ${url.pathname}.`);

		const header = request.headers.get('authorization');
		if (header === null)
			return this.error(now, 'invalid_request', 'The Authorization header is missing.');
		let params;
		try {
			params = parseAuthorization(header);
		} catch (error) {
			const reason =
				error instanceof MacInputError
					? macErrorMessage(error.code, error.params as never)
					: 'unreadable';
			return this.error(now, 'invalid_request', `The Authorization header is malformed: ${reason}`);
		}
		const clientId = url.searchParams.get('client_id');
		if (!clientId) return this.error(now, 'invalid_request', 'The client_id parameter is missing.');

		const ts = Number(params.ts);
		if (!isTimestamp(params.ts)) {
			return this.error(now, 'invalid_time', `ts "${params.ts}" is not decimal whole seconds.`);
		}
		const offBy = ts - Math.floor(now / 1000);
		if (Math.abs(offBy) > this.state.windowSeconds) {
			const side = offBy > 0 ? 'ahead of' : 'behind';
			return this.error(
				now,
				'invalid_time',
				`ts is ${Math.abs(offBy)} s ${side} the server's clock; the sandbox accepts ±${this.state.windowSeconds} s.`
			);
		}

		const token = this.state.tokens.find((candidate) => candidate.kid === params.id);
		if (!token) return this.error(now, 'access_denied', `Unknown kid "${params.id}".`);

		// Rebuild the base string from the request as received, exactly as a signer builds it.
		const parsed = requestTarget(request.url);
		const base = baseString({
			ts: params.ts,
			nonce: params.nonce,
			method: request.method,
			uri: target ?? parsed.uri,
			host: parsed.host,
			port: parsed.port,
			ext: params.ext ?? ''
		});
		const expected = await sign(token.macKey, base);
		if (expected !== params.mac) {
			return this.error(now, 'access_denied', 'The mac does not match the request.', {
				sandbox_base_string: base
			});
		}
		if (token.status === 'invalid') {
			return this.error(
				now,
				'access_denied',
				`The token is no longer valid: ${token.invalidatedBy}.`
			);
		}
		this.forgetOldNonces(now);
		const nonceKey = `${params.id}\n${params.nonce}`;
		if (this.state.usedNonces[nonceKey] !== undefined) {
			return this.error(
				now,
				'invalid_request',
				'This nonce was already used within the time window.'
			);
		}
		this.state.usedNonces[nonceKey] = now + this.state.windowSeconds * 1000;

		if (clientId !== token.clientId) {
			return this.error(
				now,
				'invalid_client',
				`client_id "${clientId}" is not the application this token was issued to.`
			);
		}
		const { scope } = OPERATIONS[operation];
		if (!token.scopes.includes(scope)) {
			return this.error(now, 'forbidden', `The user did not grant ${scope}.`);
		}
		return this.respond(now, 200, wrap(this.resource(token, scope), true, now));
	}

	/** Spec §3: the user changed their account security information or revoked the authorization. */
	invalidate(kid: string, reason: string): void {
		const token = this.state.tokens.find((candidate) => candidate.kid === kid);
		if (token && token.status === 'valid') {
			token.status = 'invalid';
			token.invalidatedBy = reason;
		}
	}

	/** A new login of the same account: a fresh credential, as the SDK would hand out. */
	login(accountId: string): SandboxToken {
		const account = DEMO_ACCOUNTS.find((candidate) => candidate.id === accountId);
		if (!account) throw new Error(`No demo account ${accountId}`);
		this.state.logins += 1;
		const token: SandboxToken = {
			kid: `${account.kid}-${this.state.logins}`,
			macKey: randomNonce('letters'),
			accountId: account.id,
			userId: account.userId,
			clientId: account.clientId,
			scopes: [...account.scopes],
			status: 'valid'
		};
		this.state.tokens.push(token);
		return token;
	}

	private resource(token: SandboxToken, scope: string): Record<string, string> {
		const user = DEMO_USERS.find((candidate) => candidate.id === token.userId);
		const ids = {
			openid: openid(token.clientId, token.userId),
			unionid: unionid(vendorOf(token.clientId), token.userId)
		};
		if (scope === 'basic_info') return ids;
		const avatar = new URL(
			user?.avatar ?? '',
			this.options.avatarBase ?? 'https://example.com/avatars/'
		).href;
		return { name: user?.name ?? '', avatar, ...ids };
	}

	private forgetOldNonces(now: number): void {
		for (const [key, until] of Object.entries(this.state.usedNonces)) {
			if (until < now) delete this.state.usedNonces[key];
		}
	}

	private error(
		now: number,
		code: ErrorCode,
		description: string,
		extra: Record<string, string> = {}
	): Response {
		const body = wrap(
			{ code: 0, error: code, error_description: description, msg: description, ...extra },
			false,
			now
		);
		return this.respond(now, ERROR_CODES[code].status, body);
	}

	private respond(now: number, status: number, body: unknown): Response {
		return new Response(JSON.stringify(body), {
			status,
			statusText: STATUS_TEXTS[status] ?? '',
			headers: {
				'content-type': 'application/json; charset=utf-8',
				date: new Date(now).toUTCString(),
				'cache-control': 'no-store'
			}
		});
	}
}
