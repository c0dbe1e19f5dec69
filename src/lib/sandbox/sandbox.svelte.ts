import { createContext } from 'svelte';
import { DEMO_ACCOUNTS } from './accounts';
import { initialSandboxState, SandboxService, type SandboxToken } from './service';

/** The sandbox service with its state made reactive, so the page shows token states and faults live. */
export class Sandbox {
	readonly state = $state(initialSandboxState());
	readonly service: SandboxService;

	constructor(hosts: () => readonly string[], avatarBase?: string) {
		this.service = new SandboxService(this.state, { hosts, avatarBase });
	}

	tokenFor(kid: string): SandboxToken | undefined {
		return this.state.tokens.find((token) => token.kid === kid);
	}

	/** The demo account a kid belongs to, or the first one for a kid the sandbox never issued. */
	accountFor(kid: string): string {
		return this.tokenFor(kid)?.accountId ?? DEMO_ACCOUNTS[0]?.id ?? '';
	}

	reset(): void {
		Object.assign(this.state, initialSandboxState());
	}
}

const [getSandbox, setSandbox] = createContext<Sandbox>();
export { getSandbox, setSandbox };
