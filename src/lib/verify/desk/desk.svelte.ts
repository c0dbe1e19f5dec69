// The /verify page's desk: its state (paste, key and URL in; verdict and diagnosis derived), its
// worked examples and its components, one per panel of the page.
import { createContext } from 'svelte';
import {
	attempt,
	baseString,
	baseStringLines,
	hmac,
	requestTarget,
	type MacInputError
} from '$lib/mac';
import { text, type MessageParams, type Text } from '$lib/i18n/text';
import { sentences } from '$lib/i18n/shown-text';
import { LiveClock } from '$lib/ui/live-clock.svelte';
import { Settled } from '$lib/ui/settled.svelte';
import { clockCheck } from '$lib/diagnosis/clock-check';
import { diffLoggedBaseString } from '$lib/diagnosis/base-string-diff';
import { diagnose, type DiagnoseInput } from '$lib/diagnosis/diagnose';
import type { Diagnosis } from '$lib/diagnosis/verdict';
import { likelyClient, type LikelyClient } from '$lib/diagnosis/likely-client';
import { loggedEvidence, type LoggedEvidence } from '$lib/diagnosis/logged-evidence';
import {
	judge,
	refusalText,
	type Judgement,
	type Refusal,
	type ServiceVerdict
} from '$lib/diagnosis/service-answer';
import { BASE_URLS, hostsOf } from '$lib/account-api/deployments';
import type { VerifyExample } from './examples';
import type { ListedRequest } from '$lib/read/parse-signed-request';
import { findingsWithoutKey } from '$lib/diagnosis/without-key';
import { LOGGED_BASE_STRING_MAX_CHARS, MAC_KEY_MAX_CHARS } from '$lib/read/input-limits';
import {
	expectedInputOf,
	firstToOpen,
	keyKidOf,
	listedVerdicts,
	verdictsForKeyKid,
	type ListedVerdict
} from './request-list';
import {
	shareLink,
	type ShareLink,
	type ShareLinkReading,
	type ShareState
} from '../case/share-state';
import { PasteReader } from '../reading/paste-reader.svelte';

/** The deployments this build knows (vite.config.ts), for the "other deployment's host" diagnosis. */
const DEPLOYMENT_HOSTS = hostsOf(Object.values(BASE_URLS));

/** The diagnosis the desk shows; `stopped` when it could not run and the verdict stands alone. */
export type DeskDiagnosis = Diagnosis & { stopped?: true };

/** What the agent typed or pasted: everything an example replaces. */
interface DeskInputs {
	signedRequest: string;
	macKey: string;
	customUrl: string | null;
	customerBase: string;
	unescapeCustomerBase: boolean | null;
}

function exampleInputs(example: VerifyExample): DeskInputs {
	return {
		signedRequest: example.signedRequest,
		macKey: example.macKey,
		customUrl: example.url ?? null,
		customerBase: example.customerBase ?? '',
		unescapeCustomerBase: null
	};
}

function sameInputs(a: DeskInputs, b: DeskInputs): boolean {
	return (Object.keys(a) as (keyof DeskInputs)[]).every((key) => a[key] === b[key]);
}

function isEmpty(inputs: DeskInputs): boolean {
	return (
		inputs.signedRequest === '' &&
		inputs.macKey === '' &&
		inputs.customUrl === null &&
		inputs.customerBase === ''
	);
}

/**
 * The support desk's state: what the agent pasted and typed is state; the paste is read by its
 * reader (at once, or in a worker when large); the expected base string, the verdict and the
 * diagnosis are derived from what it read.
 */
export class VerifyDesk {
	/** Reads the paste box: its status, Cancel, and the reading the rest of the desk derives from. */
	readonly reader = new PasteReader();
	#signedRequest = $state('');
	/** What the agent pasted: every change is read (a newer paste supersedes the one being read). */
	get signedRequest(): string {
		return this.#signedRequest;
	}
	set signedRequest(text: string) {
		this.#signedRequest = text;
		this.linkProblem = null;
		this.reader.read(text);
	}
	macKey = $state('');
	/** A URL the agent typed; null while the URL comes from the paste. */
	customUrl = $state<string | null>(null);
	/** The base string from the customer's logs, for the line-by-line diff. */
	customerBase = $state('');
	/**
	 * Read `\n`, `\r` and `\t` in the pasted base string as the characters they stand for; null
	 * until the agent chooses: then they are read so when the paste shows them as text.
	 */
	unescapeCustomerBase = $state<boolean | null>(null);
	/** Show the kid in full in the report and the share link. */
	revealKid = $state(false);

	/** The example on the page, if one was loaded. */
	example = $state<VerifyExample | null>(null);
	/**
	 * What examples and requests handed over from the signing page replaced, newest last: kept in
	 * memory only, to put back one at a time.
	 */
	replaced = $state<DeskInputs[]>([]);

	/** The example the inputs still hold, untouched; null once the agent edits them. */
	readonly showingExample = $derived(
		this.example !== null && sameInputs(this.#inputs, exampleInputs(this.example))
			? this.example
			: null
	);

	#clock = new LiveClock(1000);

	/** The several signed requests of a paste (a HAR, NDJSON, log lines), and how they are numbered. */
	readonly #listing = $derived(this.reader.result?.listing ?? null);
	/** A mac_key past MAC_KEY_MAX_CHARS is not signed with: the field says why. */
	readonly macKeyTooLong = $derived(this.macKey.length > MAC_KEY_MAX_CHARS);
	/** The mac_key the desk signs with: empty while the one typed is past its limit. */
	readonly #key = $derived(this.macKeyTooLong ? '' : this.macKey);
	/** Every signed request of a paste that holds several; null for a paste of one. */
	readonly requests = $derived(this.#listing?.requests ?? null);
	/** Whether the listed requests are numbered by line (NDJSON, log lines), not by HAR entry. */
	readonly listedByLine = $derived(this.#listing?.byLine ?? false);
	readonly #listed = $derived.by(() => {
		const requests = this.requests;
		return requests
			? listedVerdicts(requests, this.#key).then((verdicts) => ({ requests, verdicts }))
			: Promise.resolve(null);
	});
	readonly #settledListed = new Settled(() => this.#listed);
	/** Each listed request's verdict against the key alone, before the kids are told apart. */
	get #keyVerdicts(): ListedVerdict[] | null {
		const settled = this.#settledListed.current;
		return settled && settled.requests === this.requests ? settled.verdicts : null;
	}
	/** The request the agent opened from the list, with the paste it was opened in. */
	#chosen = $state<{ signedRequest: string; number: number } | null>(null);
	readonly #chosenNumber = $derived(
		this.#chosen?.signedRequest === this.signedRequest ? this.#chosen.number : null
	);
	/**
	 * Which kid the mac_key is for, when the paste holds the requests of several kids: the others'
	 * requests have no key here, which is not a mismatch.
	 */
	readonly keyKid = $derived(
		this.requests ? keyKidOf(this.requests, this.#keyVerdicts, this.#chosenNumber) : null
	);
	/** Each listed request's verdict, in the list's order; null while they are computed. */
	get listedVerdicts(): ListedVerdict[] | null {
		const verdicts = this.#keyVerdicts;
		return verdicts && this.requests
			? verdictsForKeyKid(this.requests, verdicts, this.keyKid)
			: null;
	}
	/** The listed request the desk verifies: the one opened, else the first that fails. */
	readonly opened = $derived.by((): ListedRequest | null => {
		const requests = this.requests;
		if (!requests) return null;
		const number = this.#chosenNumber ?? firstToOpen(requests, this.listedVerdicts);
		return requests.find((listed) => listed.number === number) ?? requests[0] ?? null;
	});

	/** Opens one of the listed requests: the desk verifies it instead. */
	open(number: number): void {
		this.#chosen = { signedRequest: this.signedRequest, number };
	}

	readonly parsed = $derived(
		this.opened ? this.opened.parsed : (this.reader.result?.single ?? null)
	);
	readonly request = $derived(this.parsed?.ok ? this.parsed.value : null);
	readonly url = $derived(this.customUrl ?? this.request?.url ?? '');
	/** curl and raw requests send the URI as written, a browser as its URL parser writes it. */
	readonly uriForm = $derived(this.request?.uriForm ?? 'browser');
	readonly target = $derived(
		this.url === '' ? null : attempt(() => requestTarget(this.url, { uri: this.uriForm }))
	);
	/** What is wrong with the URL: the core's error, or 'missing' when the paste has none. */
	readonly urlProblem = $derived.by((): MacInputError | 'missing' | null => {
		if (this.target && !this.target.ok) return this.target.error;
		if (this.request && this.url === '') return 'missing';
		return null;
	});
	readonly method = $derived(this.request?.method ?? 'GET');
	/** The kid of the request opened, when the mac_key is another kid's: nothing to verify it with. */
	readonly kidWithoutKey = $derived(
		this.keyKid !== null && this.request && this.request.authorization.id !== this.keyKid
			? this.request.authorization.id
			: null
	);

	/** The base string as the customer should have signed it, from their own header and request. */
	readonly expectedInput = $derived(
		this.request && this.target?.ok ? expectedInputOf(this.request, this.target.value) : null
	);
	readonly expectedLines = $derived(this.expectedInput ? baseStringLines(this.expectedInput) : []);
	readonly expectedBase = $derived(this.expectedInput ? baseString(this.expectedInput) : '');

	readonly #settledDiagnosis = new Settled(() => this.diagnosis);
	/** The diagnosis once computed; the last one while a newer one is computed. */
	get settledDiagnosis(): DeskDiagnosis | null | undefined {
		return this.#settledDiagnosis.current;
	}
	readonly diagnosis: Promise<DeskDiagnosis | null> = $derived(
		this.request && this.target?.ok && this.#key !== '' && this.kidWithoutKey === null
			? diagnoseOrVerdict(
					{
						authorization: this.request.authorization,
						method: this.method,
						url: this.url,
						uriForm: this.uriForm,
						macKey: this.#key,
						knownHosts: DEPLOYMENT_HOSTS
					},
					this.expectedBase
				)
			: Promise.resolve(null)
	);

	/** The Authorization header as the paste writes it: its parts' separator is part of its shape. */
	readonly #authorizationText = $derived(
		this.request?.authorizationValue ?? this.reader.result?.headerText ?? ''
	);

	/**
	 * Which of the vendor's clients most likely made the request: from its shape, and from the
	 * likeliest mistake once the diagnosis of this request has one.
	 */
	readonly likelyClient: LikelyClient | null = $derived.by(() => {
		if (!this.request) return null;
		const diagnosis = this.settledDiagnosis;
		const current =
			diagnosis && diagnosis.customerMac === this.request.authorization.mac.trim()
				? diagnosis
				: null;
		return likelyClient({
			authorization: this.#authorizationText,
			mistakes: current?.explanations[0]?.id ?? null,
			url: this.url
		});
	});

	/** A logged base string past LOGGED_BASE_STRING_MAX_CHARS is not compared: the field says why. */
	readonly customerBaseTooLong = $derived(this.customerBase.length > LOGGED_BASE_STRING_MAX_CHARS);

	readonly diff = $derived(
		this.customerBase === '' || this.expectedBase === '' || this.customerBaseTooLong
			? null
			: diffLoggedBaseString(this.expectedBase, this.customerBase, this.unescapeCustomerBase)
	);

	/**
	 * The diagnosis as the page and the report say it: once the logged base string is compared, the
	 * verdict no longer asks for it next, and says what the comparison found instead.
	 */
	readonly shownDiagnosis: DeskDiagnosis | null | undefined = $derived.by(() => {
		const diagnosis = this.settledDiagnosis;
		const diff = this.diff;
		if (diagnosis?.match && this.refusal !== null && this.request)
			return {
				...diagnosis,
				message: refusalText(this.refusal, {
					ts: this.request.authorization.ts,
					first: this.nonceFirstUsedAt,
					format: this.request.headerFormat ?? null
				})
			};
		if (!diagnosis || diff === null || diagnosis.stopped) return diagnosis;
		// Their logged base string is evidence, told first: signed with the key it gives their mac, so
		// the key is right and the lines it differs on are the mistake.
		const evidence = this.evidence;
		if (!diagnosis.match && evidence?.keyRight) {
			const rest = diagnosis.verdict === 'explained' ? [diagnosis.message] : [];
			return {
				...diagnosis,
				message: sentences('diagnosis_sentences', [...rest, evidence.message]) ?? evidence.message
			};
		}
		// It does not give their mac: the same string says the difference comes after it (the key or
		// the digest step); another string, where to start, and that the key or digest differs or the
		// string logged is not the one signed.
		const differs = text('diagnosis_compared_differs', { line: String(diff.firstDifference) });
		const compared: Text = diff.same
			? text('diagnosis_compared_same')
			: evidence === null
				? differs
				: (sentences('diagnosis_sentences', [differs, evidence.message]) as Text);
		let verdict: Text;
		if (diagnosis.message.key === 'diagnosis_verdict_unexplained')
			verdict = text('diagnosis_verdict_unexplained_compared');
		else if (diagnosis.message.key === 'diagnosis_verdict_stopped')
			verdict = text(
				'diagnosis_verdict_stopped_compared',
				diagnosis.message.params as MessageParams<'diagnosis_verdict_stopped_compared'>
			);
		else return diagnosis;
		return {
			...diagnosis,
			message: sentences('diagnosis_sentences', [verdict, compared]) ?? verdict
		};
	});

	/**
	 * The logged base string as evidence (logged-evidence.ts): signed with the key, does it give their
	 * mac? Null without a logged base string, a key or a mismatch.
	 */
	readonly #evidence: Promise<LoggedEvidence | null> = $derived.by(() => {
		const diff = this.diff;
		const request = this.request;
		if (diff === null || !request || this.#key === '' || this.kidWithoutKey !== null)
			return Promise.resolve(null);
		return loggedEvidence(
			this.expectedBase,
			diff.read.text,
			this.#key,
			request.authorization.mac
		).catch(() => null);
	});
	readonly #settledEvidence = new Settled(() => this.#evidence);
	/** The evidence of the logged base string, once computed for the inputs on the page. */
	get evidence(): LoggedEvidence | null {
		return this.#settledEvidence.current ?? null;
	}

	/**
	 * The number of an earlier request of the paste with the same kid and nonce, or null: a paste of
	 * several requests (a HAR, NDJSON) shows it; a single request cannot.
	 */
	readonly nonceFirstUsedAt = $derived.by((): number | null => {
		const opened = this.opened;
		const requests = this.requests;
		if (!opened?.parsed.ok || !requests) return null;
		const { id, nonce } = opened.parsed.value.authorization;
		for (const listed of requests) {
			if (listed.number >= opened.number) break;
			if (
				listed.parsed.ok &&
				listed.parsed.value.authorization.id === id &&
				listed.parsed.value.authorization.nonce === nonce
			)
				return listed.number;
		}
		return null;
	});

	/**
	 * The headline's judgement of a diagnosis of the request on the desk (service-answer.ts): the
	 * service's verdict, why it would refuse a right signature, and the headline's id, which the
	 * sandbox server's X-Sandbox-Diagnosis and the triage give the same request. The window is
	 * judged only against a send time the paste gives; the nonce only against the paste's earlier
	 * requests.
	 */
	judgementOf(diagnosis: Diagnosis): Judgement | null {
		const request = this.request;
		if (!request) return null;
		const clock = this.clock;
		return judge(diagnosis, {
			ts: request.authorization.ts,
			ext: request.authorization.ext,
			outsideWindow: clock && clock.against === 'sent' ? clock.likelyInvalidTime : null,
			nonceFirstUsedAt: this.nonceFirstUsedAt,
			headerFormat: request.headerFormat ?? null
		});
	}

	/** The judgement of the diagnosis on the page; null until one is settled. */
	readonly judgement: Judgement | null = $derived.by(() => {
		const diagnosis = this.settledDiagnosis;
		return diagnosis ? this.judgementOf(diagnosis) : null;
	});
	/** Why the service would refuse the request though its signature is right; null otherwise. */
	readonly refusal: Refusal | null = $derived(this.judgement?.refusal ?? null);
	/** The service's answer, the headline's verdict: match only when nothing says it would refuse. */
	readonly serviceVerdict: ServiceVerdict | null = $derived(this.judgement?.verdict ?? null);

	/** When the request was sent, where the paste or the logged base string's log line says so. */
	readonly sentAt = $derived(this.request?.sentAt ?? this.diff?.read.loggedAt ?? null);

	readonly clock = $derived(
		this.request
			? clockCheck(this.request.authorization.ts, this.#clock.now, undefined, this.sentAt)
			: null
	);

	/**
	 * What the request alone shows (its header's format, ts and window, URL and mac's shape), key or
	 * not; the window by the clock line's own check, so that the two never differ.
	 */
	readonly foundWithoutKey = $derived(
		this.request
			? findingsWithoutKey({ ...this.request, url: this.url || undefined, clock: this.clock })
			: []
	);
	/** The clock's line is one of the findings while they are shown (before the mac_key). */
	readonly clockInFindings = $derived(
		this.macKey === '' && this.foundWithoutKey.some((found) => found.key === 'verify_found_window')
	);

	/**
	 * The page's link: never the mac_key, the kid only when the agent chose to; or how long it would
	 * be when no page would open it. Null until the paste is read (the link carries what the reader
	 * found of it).
	 */
	shareLink(): ShareLink | null {
		const link = this.reader.result?.link;
		if (!link) return null;
		return shareLink(
			{
				signedRequest: this.signedRequest,
				url: this.customUrl ?? '',
				baseString: this.customerBase,
				options: this.unescapeCustomerBase === null ? {} : { unescape: this.unescapeCustomerBase }
			},
			{ includeKid: this.revealKid, macKey: this.macKey },
			link
		);
	}

	get #inputs(): DeskInputs {
		return {
			signedRequest: this.signedRequest,
			macKey: this.macKey,
			customUrl: this.customUrl,
			customerBase: this.customerBase,
			unescapeCustomerBase: this.unescapeCustomerBase
		};
	}

	set #inputs(inputs: DeskInputs) {
		this.signedRequest = inputs.signedRequest;
		this.macKey = inputs.macKey;
		this.customUrl = inputs.customUrl;
		this.customerBase = inputs.customerBase;
		this.unescapeCustomerBase = inputs.unescapeCustomerBase;
	}

	/**
	 * Puts `next` in place of the inputs, keeping what was there unless it was empty or an untouched
	 * example: loading something never costs the agent a customer's case, or their edits.
	 */
	#replace(next: DeskInputs, example: VerifyExample | null): void {
		const current = this.#inputs;
		if (!isEmpty(current) && this.showingExample === null && !sameInputs(current, next))
			this.replaced.push(current);
		this.#inputs = next;
		this.example = example;
	}

	loadExample(example: VerifyExample): void {
		this.#replace(exampleInputs(example), example);
	}

	/** A request signed on the signing page, with its mac_key, handed over in this tab's memory. */
	receive(handed: { signedRequest: string; macKey: string }): void {
		this.#replace(
			{ ...handed, customUrl: null, customerBase: '', unescapeCustomerBase: null },
			null
		);
	}

	/** Puts back what the last example or hand-over replaced. */
	putBack(): void {
		const previous = this.replaced.pop();
		if (previous === undefined) return;
		this.#inputs = previous;
		this.example = null;
	}

	#loadedFragment: string | null = null;
	/** What was wrong with the share link opened, said at the paste box; null once the box is used. */
	linkProblem = $state<Exclude<ShareLinkReading['kind'], 'state' | 'not-a-link'> | null>(null);
	/** The length of a link too long to open, for its message. */
	linkLength = $state(0);

	/**
	 * Fills the page from a share link's fragment, decoded at once or in the reading worker when
	 * large; its paste is then read as any other. A fragment already loaded in this tab is not
	 * loaded again (coming back to the page must not undo edits), and what it replaces is kept to
	 * put back. The mac_key typed stays: a link never carries one.
	 */
	loadFragment(fragment: string): void {
		if (fragment === this.#loadedFragment) return;
		this.reader.open(fragment, (link) => this.#opened(fragment, link));
	}

	#opened(fragment: string, link: ShareLinkReading): void {
		this.#loadedFragment = fragment;
		if (link.kind === 'not-a-link') return;
		if (link.kind !== 'state') {
			this.linkProblem = link.kind;
			this.linkLength = link.kind === 'too-long' ? link.length : 0;
			return;
		}
		const state: ShareState = link.state;
		this.#replace(
			{
				signedRequest: state.signedRequest,
				macKey: this.macKey,
				customUrl: state.url === '' ? null : state.url,
				customerBase: state.baseString,
				unescapeCustomerBase:
					typeof state.options.unescape === 'boolean' ? state.options.unescape : null
			},
			null
		);
	}
}

/**
 * The diagnosis, or when it fails (a defect of the catalogue on input nobody foresaw) the verdict
 * alone, signed the correct way over `expectedBase`: the page shows a verdict, never an error.
 */
async function diagnoseOrVerdict(
	input: DiagnoseInput,
	expectedBase: string
): Promise<DeskDiagnosis> {
	try {
		return await diagnose(input);
	} catch {
		const expectedMac = (await hmac(input.macKey, expectedBase)).base64;
		const customerMac = input.authorization.mac.trim();
		const match = expectedMac === customerMac;
		return {
			verdict: match ? 'match' : 'unexplained',
			match,
			expectedMac,
			expectedBaseString: expectedBase,
			customerMac,
			signedExt: (input.authorization.ext ?? '') !== '',
			explanations: [],
			keyOrUnseenInputs: !match,
			message: text(match ? 'diagnosis_verdict_match' : 'limits_diagnosis_stopped'),
			variantsTried: 1,
			work: 0,
			stopped: true
		};
	}
}

const [getVerifyDesk, setVerifyDesk] = createContext<VerifyDesk>();
export { getVerifyDesk, setVerifyDesk };
