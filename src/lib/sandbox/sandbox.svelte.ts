import { createContext } from 'svelte';
import { DEMO_ACCOUNTS } from './accounts';
import type { SandboxService, SandboxSettings } from './service';
import {
	initialSnapshot,
	type GivenCredential,
	type InvalidReason,
	type SandboxToken
} from './state';

/**
 * The page's view of the sandbox service: a mirror of its state, kept by subscribing, so the page
 * shows token states and faults live; changes go to the service as commands. The service's code is
 * loaded on first use: a visitor who never sends or opens its settings does not download it.
 */
export class Sandbox {
	readonly state = $state(initialSnapshot());
	#service: Promise<SandboxService> | null = null;

	constructor(
		private readonly hosts: () => readonly string[],
		private readonly avatarBase?: string
	) {}

	service(): Promise<SandboxService> {
		this.#service ??= import('./service').then(({ SandboxService }) => {
			const service = new SandboxService({ hosts: this.hosts, avatarBase: this.avatarBase });
			service.subscribe((snapshot) => Object.assign(this.state, snapshot));
			return service;
		});
		return this.#service;
	}

	async handle(request: Request): Promise<Response> {
		return (await this.service()).handle(request);
	}

	async configure(settings: SandboxSettings): Promise<void> {
		(await this.service()).configure(settings);
	}

	async invalidate(kid: string, reason: InvalidReason): Promise<void> {
		(await this.service()).invalidate(kid, reason);
	}

	/**
	 * A new login of the demo account behind `kid`: a fresh credential, as the SDK hands out. A kid the
	 * sandbox never issued gets its first demo account, which is nobody's real login.
	 */
	async login(kid: string): Promise<SandboxToken> {
		return (await this.service()).login(this.accountFor(kid));
	}

	/** The visitor's own credential, known to the sandbox from now on (until a reset). */
	async register(credential: GivenCredential): Promise<SandboxToken> {
		return (await this.service()).register(credential);
	}

	/** Whether the sandbox issued this kid (a demo account's, or one of its logins). */
	issued(kid: string): boolean {
		return this.tokenFor(kid) !== undefined;
	}

	tokenFor(kid: string): SandboxToken | undefined {
		return this.state.tokens.find((token) => token.kid === kid);
	}

	/** The demo account a kid belongs to, or the first one for a kid the sandbox never issued. */
	accountFor(kid: string): string {
		return this.tokenFor(kid)?.accountId ?? DEMO_ACCOUNTS[0]?.id ?? '';
	}

	async reset(): Promise<void> {
		(await this.service()).reset();
	}
}

const [getSandbox, setSandbox] = createContext<Sandbox>();
export { getSandbox, setSandbox };
