import { createContext } from 'svelte';
import { text, type Text } from '$lib/i18n/text';
import { attempt, type Outcome } from '$lib/mac/errors';
import type { Playground } from '$lib/playground/playground.svelte';
import type { Sandbox } from '$lib/sandbox/sandbox.svelte';
import { FocusRequests } from '$lib/ui/focus-requests.svelte';
import { Loaded } from '$lib/ui/loaded.svelte';
import type { Attempt, SendResult, SendState } from './attempts';
import type { Target } from './send';

const PROXY_SETTING_KEY = 'mac-playground:proxy-setting';

/** Sending the playground's request: the target, the retries after server_error, and what came back. */
export class Sender implements SendState {
	target = $state<Target>('sandbox');
	/** The relay address typed on this device, or null until one is (then it is remembered). */
	#typedProxySetting = $state<string | null>(null);
	/** What was remembered, read on first use: not as the page hydrates (storage is a wait on the
	 * browser's other process), but when the Send panel or the Proxy target needs it. */
	#rememberedProxySetting: string | undefined;
	omitAuthorization = $state(false);
	busy = $state(false);
	result = $state.raw<SendResult | null>(null);
	attempts = $state<Attempt[]>([]);
	/** Set when server_error came back on every allowed attempt. */
	gaveUp = $state(false);
	/** A request the service said not to resubmit (forbidden, not_found). */
	refused = $state<{ key: string; code: string } | null>(null);
	/** The last Send could not fetch the code it loads on first use (offline, a new deployment). */
	unavailable = $state(false);
	/** Parts of the Send panel that an action elsewhere sends the focus to. */
	readonly focus = new FocusRequests<'relay-address' | 'send-heading'>();

	readonly #playground: Playground;
	readonly #sandbox: Sandbox;
	readonly #storage: Pick<Storage, 'getItem' | 'setItem'> | null;
	/** Set when a send put a new answer on screen, until the answer takes the focus. */
	#answerAwaitsFocus = false;

	constructor(
		playground: Playground,
		sandbox: Sandbox,
		storage: Pick<Storage, 'getItem' | 'setItem'> | null = null
	) {
		this.#playground = playground;
		this.#sandbox = sandbox;
		this.#storage = storage;
	}

	/** The relay's address: the one typed, else the one remembered on this device, else the local one. */
	get proxySetting(): string {
		if (this.#typedProxySetting !== null) return this.#typedProxySetting;
		this.#rememberedProxySetting ??=
			this.#storage?.getItem(PROXY_SETTING_KEY) ?? 'http://127.0.0.1:8787/';
		return this.#rememberedProxySetting;
	}

	// .by: the playground is set in the constructor, after the fields are made.
	readonly upstreamUrl: string | null = $derived.by(() =>
		this.#playground.target.ok ? this.#playground.target.value.href : null
	);
	/** The relay's URL rules, loaded with the first choice of the Proxy target, not with the page. */
	readonly #relayRules = new Loaded(() => import('./proxy-url'));
	/** The URL that goes to the relay, or why there is none; null unless the target is Proxy. */
	readonly proxyUrl: Outcome<string> | null = $derived.by(() => {
		const rules = this.target === 'proxy' ? this.#relayRules.get() : null;
		const upstreamUrl = this.upstreamUrl;
		if (rules === null || upstreamUrl === null) return null;
		return attempt(() => rules.proxyRequestUrl(this.proxySetting, upstreamUrl));
	});
	/** What is wrong with the relay's address, in words for the person who typed it, or null. */
	readonly proxyProblem: Text | null = $derived.by(() => {
		if (this.proxyUrl === null || this.proxyUrl.ok) return null;
		// In by now: proxyUrl is made with them.
		return this.#relayRules.get()?.proxyProblem(this.proxyUrl.error) ?? null;
	});
	readonly requestUrl: string | null = $derived(
		this.target !== 'proxy' ? this.upstreamUrl : this.proxyUrl?.ok ? this.proxyUrl.value : null
	);
	readonly requestKey = $derived.by(() => `${this.upstreamUrl}\n${this.#playground.kid}`);
	readonly isRefused = $derived(this.refused?.key === this.requestKey);
	/** Whether the answer on screen came from the target chosen now. */
	readonly resultIsCurrent = $derived(this.result?.target === this.target);
	/** Why Send is unavailable right now, or null. */
	readonly cannotSend: Text | null = $derived.by(() => {
		if (this.#playground.blockingFields.length > 0)
			return text('status_fix_first', { fields: this.#playground.blockingFields });
		if (this.proxyProblem) return this.proxyProblem;
		if (this.isRefused) return text('status_refused', { code: this.refused?.code ?? '' });
		return null;
	});

	/** The relay address is not a secret: it is remembered on this device. */
	setProxySetting(text: string): void {
		this.#typedProxySetting = text;
		this.#storage?.setItem(PROXY_SETTING_KEY, text);
	}

	/** Sends to the sandbox, whatever target was chosen before. */
	sendToSandbox(): Promise<void> {
		this.target = 'sandbox';
		return this.send();
	}

	/** Switches to the Proxy target and takes the user to the relay's address. */
	useRelay(): void {
		this.target = 'proxy';
		this.focus.request('relay-address');
	}

	/** Spec §7, invalid_time: re-signs with the server's time and sends again. */
	resignWithServerTime(offsetSeconds: number): Promise<void> {
		this.#playground.followServerClock(offsetSeconds);
		return this.send();
	}

	/**
	 * True once after a send put a new answer on screen: the answer's heading takes the focus then,
	 * and not when it is merely shown again (coming back to the page).
	 */
	takeAnswerFocus(): boolean {
		const awaits = this.#answerAwaitsFocus;
		this.#answerAwaitsFocus = false;
		return awaits;
	}

	async send(): Promise<void> {
		let sendWithRetries: (typeof import('./send-run'))['sendWithRetries'];
		try {
			// Chosen a moment ago, the Proxy target may still be loading its rules: the send waits.
			if (this.target === 'proxy') await this.#relayRules.load();
			if (this.busy || this.cannotSend) return;
			// Sending, its retries and the explaining of answers load on the first Send, not with the page.
			({ sendWithRetries } = await import('./send-run'));
			this.unavailable = false;
		} catch {
			this.unavailable = true;
			return;
		}
		// Again: a second click may have started a send while this one waited for the code.
		if (this.busy || this.cannotSend) return;
		this.busy = true;
		const before = this.result;
		try {
			await sendWithRetries(this, this.#playground, this.#sandbox);
		} finally {
			this.#answerAwaitsFocus = this.result !== before;
			this.busy = false;
		}
	}
}

const [getSender, setSender] = createContext<Sender>();
export { getSender, setSender };
