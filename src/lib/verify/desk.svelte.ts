import { createContext } from 'svelte';
import { attempt, baseString, baseStringLines, requestTarget } from '$lib/mac';
import { LiveClock } from '$lib/ui/live-clock.svelte';
import { clockCheck } from './clock-check';
import { diffBaseString, unescapeBaseString } from './base-string-diff';
import { diagnose, type Diagnosis } from './diagnose';
import { parseSignedRequest } from './parse-signed-request';
import { decodeShareState, encodeShareState } from './share-state';

/** The deployments this build knows (vite.config.ts), for the "other deployment's host" diagnosis. */
const DEPLOYMENT_HOSTS = [__DOMESTIC_BASE_URL__, __OVERSEAS_BASE_URL__].flatMap((url) => {
	const target = attempt(() => requestTarget(url));
	return target.ok ? [target.value.host] : [];
});

/**
 * The support desk's state: what the agent pasted and typed is state; the parse, the expected base
 * string, the verdict and the diagnosis are derived from it.
 */
export class VerifyDesk {
	signedRequest = $state('');
	macKey = $state('');
	/** A URL the agent typed; null while the URL comes from the paste. */
	customUrl = $state<string | null>(null);
	/** The base string from the customer's logs, for the line-by-line diff. */
	customerBase = $state('');
	/** Read `\n`, `\r` and `\t` in the pasted base string as the characters they stand for. */
	unescapeCustomerBase = $state(false);
	/** Show the kid in full in the report and the share link. */
	revealKid = $state(false);

	#clock = new LiveClock(1000);

	readonly parsed = $derived(
		this.signedRequest.trim() === '' ? null : attempt(() => parseSignedRequest(this.signedRequest))
	);
	readonly request = $derived(this.parsed?.ok ? this.parsed.value : null);
	readonly url = $derived(this.customUrl ?? this.request?.url ?? '');
	readonly target = $derived(this.url === '' ? null : attempt(() => requestTarget(this.url)));
	readonly urlProblem = $derived.by(() => {
		if (this.target && !this.target.ok) return this.target.error.message;
		if (this.request && this.url === '')
			return 'The paste has no URL: enter the URL the customer called.';
		return null;
	});
	readonly method = $derived(this.request?.method ?? 'GET');

	/** The base string as the customer should have signed it, from their own header and request. */
	readonly expectedInput = $derived(
		this.request && this.target?.ok
			? {
					ts: this.request.authorization.ts,
					nonce: this.request.authorization.nonce,
					method: this.method.toUpperCase(),
					uri: this.target.value.uri,
					host: this.target.value.host,
					port: this.target.value.port,
					ext: this.request.authorization.ext ?? ''
				}
			: null
	);
	readonly expectedLines = $derived(this.expectedInput ? baseStringLines(this.expectedInput) : []);
	readonly expectedBase = $derived(this.expectedInput ? baseString(this.expectedInput) : '');

	readonly clock = $derived(
		this.request ? clockCheck(this.request.authorization.ts, this.#clock.now) : null
	);

	readonly diagnosis: Promise<Diagnosis | null> = $derived(
		this.request && this.target?.ok && this.macKey !== ''
			? diagnose({
					authorization: this.request.authorization,
					method: this.method,
					url: this.url,
					macKey: this.macKey,
					knownHosts: DEPLOYMENT_HOSTS
				})
			: Promise.resolve(null)
	);

	readonly diff = $derived(
		this.customerBase === '' || this.expectedBase === ''
			? null
			: diffBaseString(
					this.expectedBase,
					this.unescapeCustomerBase ? unescapeBaseString(this.customerBase) : this.customerBase
				)
	);

	/** The page's state for a link: never the mac_key, the kid only when the agent chose to. */
	shareFragment(): string {
		return encodeShareState(
			{
				signedRequest: this.signedRequest,
				url: this.customUrl ?? '',
				baseString: this.customerBase,
				options: { unescape: this.unescapeCustomerBase }
			},
			{ includeKid: this.revealKid, macKey: this.macKey }
		);
	}

	/** Fills the page from a share link's fragment; false when it is not one. */
	loadFragment(fragment: string): boolean {
		const state = decodeShareState(fragment.replace(/^#/, ''));
		if (!state) return false;
		this.signedRequest = state.signedRequest;
		this.customUrl = state.url === '' ? null : state.url;
		this.customerBase = state.baseString;
		this.unescapeCustomerBase = state.options.unescape === true;
		return true;
	}
}

const [getVerifyDesk, setVerifyDesk] = createContext<VerifyDesk>();
export { getVerifyDesk, setVerifyDesk };
