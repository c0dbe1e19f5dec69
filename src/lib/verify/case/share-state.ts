import {
	attempt,
	authorizationHeader,
	curlCommand,
	fromBase64,
	requestTarget,
	shellQuote,
	toBase64Url,
	utf8Bytes,
	type Outcome
} from '$lib/mac';
import { SHARE_LINK_MAX_CHARS, SHARE_TEXT_MAX_CHARS } from '$lib/read/input-limits';
import { parseSignedRequest, type SignedRequest } from '$lib/read/parse-signed-request';
import { isObject } from '$lib/read/parsed-request';
import { maskKid } from '$lib/diagnosis/mask-kid';

export type ShareOption = string | number | boolean;

/** What the /verify page can put in a link. There is no mac_key field, by design. */
export interface ShareState {
	signedRequest: string;
	url: string;
	baseString: string;
	options: Record<string, ShareOption>;
}

export interface ShareEncodeOptions {
	/** Keep the kid; by default it is replaced by KID_PLACEHOLDER. */
	includeKid?: boolean;
	/** When given, any occurrence of it in the texts is replaced, in case it was pasted by mistake. */
	macKey?: string;
}

export const KID_PLACEHOLDER = '<kid>';
// The first of these that leaves no trace of the key stands in for it.
const MAC_KEY_PLACEHOLDERS = ['<mac_key>', '<secret>', '…'];
const VERSION = 'v1.';
const MAX_OPTIONS = 32;
// Option names a page might use for secrets; they never go into a link whatever the page passes.
const SECRET_OPTION = /mac.?key|secret|password/i;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What a link carries of a pasted request: its method, URL and Authorization header, as a curl
 * command. A customer's curl, HAR or fetch call also holds cookies, other tokens and bodies, which
 * the diagnosis never reads and a ticket must not spread. With no usable URL it carries the header
 * alone (the agent's URL goes in the link's own field). A bare header, or a paste that cannot be
 * read, goes as it is.
 */
export function requestForLink(
	text: string,
	parsed: Outcome<SignedRequest> = attempt(() => parseSignedRequest(text))
): string {
	if (!parsed.ok || parsed.value.authorizationValue === undefined) return text;
	const { url, method, authorizationValue, uriForm } = parsed.value;
	const target = url === undefined ? null : attempt(() => requestTarget(url));
	if (url === undefined || !target?.ok) return `Authorization: ${authorizationValue}`;
	// curl sends its URL as written: a browser's request goes in as the browser sent it.
	const written = attempt(() => requestTarget(url, { uri: 'as-written' }).uri);
	const rewritten = uriForm === 'browser' && (!written.ok || written.value !== target.value.uri);
	const curl = curlCommand(rewritten ? target.value.href : url, authorizationValue);
	// Sliced, not String.replace: a quoted method such as '$' would read as a replacement pattern.
	return method === undefined || method === 'GET'
		? curl
		: `curl -X ${shellQuote(method)} ${curl.slice('curl '.length)}`;
}

/**
 * The signed request with its kid replaced, still parseable (a rebuilt header when that fails),
 * and the kid found, so that the other fields can be cleaned of it too.
 */
function withoutKid(text: string): { text: string; kid: string | null } {
	const parsed = attempt(() => parseSignedRequest(text));
	if (!parsed.ok) {
		// Unreadable, so the kid cannot be located exactly: blank whatever follows a MAC header's id=.
		return { text: blankKidsAfterMac(text), kid: null };
	}
	const { authorization } = parsed.value;
	const kid = authorization.id;
	// Masked as everywhere else (prefix...suffix), so that links to two kids' requests stay apart;
	// a kid too short to mask without showing it is the placeholder.
	const mask = kid.length >= 4 && !maskKid(kid).includes(kid) ? maskKid(kid) : KID_PLACEHOLDER;
	let replaced = text.replace(
		new RegExp(`(\\bid\\s*=\\s*[\\\\^"']*)${escapeRegExp(kid)}(?=[\\\\^"',\\s]|$)`, 'g'),
		(_, before: string) => before + mask
	);
	// Long enough not to hit other text by chance: the access_token, which equals the kid, too.
	if (kid.length >= 8) replaced = replaced.split(kid).join(mask);
	const check = attempt(() => parseSignedRequest(replaced));
	if (check.ok && check.value.authorization.id === mask && !replaced.includes(kid)) {
		return { text: replaced, kid };
	}
	const rebuilt = attempt(() => authorizationHeader({ ...authorization, id: mask }));
	return { text: rebuilt.ok ? `Authorization: ${rebuilt.value}` : '', kid };
}

// How far after `MAC`, on its line, an unreadable header's `id` is looked for.
const KID_WINDOW = 80;
const WORD = /\w/;
const SPACE = /\s/;
const OPENING = new Set(['\\', '^', '"', "'"]);
const isWord = (char: string | undefined) => char !== undefined && WORD.test(char);
const isSpace = (char: string | undefined) => char !== undefined && SPACE.test(char);

/** Whether `word` (lower case ASCII) is at `at` in `text`, in any case, as a word of its own at its start. */
function wordAt(text: string, at: number, word: string): boolean {
	return !isWord(text[at - 1]) && text.slice(at, at + word.length).toLowerCase() === word;
}

/**
 * The kid's extent after an `id` at `at`: `id`, white space, `=`, white space, any quotes or shell
 * escapes (\\ ^ " '), then the value up to the next of those, a comma or white space; null when
 * `at` starts no such thing.
 */
function kidAfterId(text: string, at: number): { start: number; end: number } | null {
	let next = at + 2;
	while (isSpace(text[next])) next++;
	if (text[next] !== '=') return null;
	next++;
	while (isSpace(text[next])) next++;
	while (OPENING.has(text[next] ?? '')) next++;
	const start = next;
	while (next < text.length && !OPENING.has(text[next] ?? '') && text[next] !== ',') {
		if (isSpace(text[next])) break;
		next++;
	}
	return next > start ? { start, end: next } : null;
}

/**
 * The text with the value of every `id=` that follows a word `MAC` on its line (within
 * KID_WINDOW characters) replaced by KID_PLACEHOLDER. A scan, not a regular expression: each `id`
 * is tried once whichever `MAC` it follows, so a run of white space after `id=` costs its length
 * once, and the whole scan is linear in the text.
 */
function blankKidsAfterMac(text: string): string {
	const tried = new Map<number, { start: number; end: number } | null>();
	const kidAt = (at: number) => {
		if (!tried.has(at)) tried.set(at, wordAt(text, at, 'id') ? kidAfterId(text, at) : null);
		return tried.get(at) ?? null;
	};
	const macs = /mac/gi;
	let out = '';
	let copied = 0;
	for (let found = macs.exec(text); found; found = macs.exec(text)) {
		const macAt = found.index;
		if (!wordAt(text, macAt, 'mac') || isWord(text[macAt + 3])) continue;
		for (let id = macAt + 4; id <= macAt + 3 + KID_WINDOW && text[id - 1] !== '\n'; id++) {
			const kid = kidAt(id);
			if (!kid) continue;
			out += text.slice(copied, kid.start) + KID_PLACEHOLDER;
			copied = kid.end;
			macs.lastIndex = kid.end;
			break;
		}
	}
	return out + text.slice(copied);
}

/**
 * The text with every occurrence of the mac_key replaced. A placeholder next to the text around it
 * can spell the key again (key "mac_key>x" before an "x"), so the result is checked, and as a last
 * resort the key is cut out until none is left.
 */
function withoutKey(text: string, macKey: string): string {
	for (const placeholder of MAC_KEY_PLACEHOLDERS) {
		const replaced = text.split(macKey).join(placeholder);
		if (!replaced.includes(macKey)) return replaced;
	}
	// Cut in one pass, as a stack: a key that a cut closes up again ("mac_mac_keykey") is cut too,
	// and each character is looked at once (cutting and searching again could take n passes).
	const kept: string[] = [];
	let tail = '';
	for (const char of text) {
		kept.push(char);
		tail = (tail + char).slice(-macKey.length);
		if (tail === macKey) {
			kept.length -= [...macKey].length;
			tail = kept.slice(-macKey.length).join('').slice(-macKey.length);
		}
	}
	return kept.join('');
}

function replaceAll(text: string, find: string | null | undefined, by: string, minimum: number) {
	return find && find.length >= minimum ? text.split(find).join(by) : text;
}

/** What a link carries of a paste: the request alone (requestForLink), and that with its kid masked. */
export interface LinkRequest {
	request: string;
	masked: { text: string; kid: string | null };
}

/**
 * The reading a link needs of a paste: done once per paste (in the reading worker for a large one),
 * then encodeShareState scrubs and encodes as the options change. `parsed` is the paste's own
 * reading, when the caller has it.
 */
export function linkRequestOf(signedRequest: string, parsed?: Outcome<SignedRequest>): LinkRequest {
	const request = requestForLink(signedRequest, parsed);
	return { request, masked: withoutKid(request) };
}

/**
 * The page state as a URL fragment (without "#"): versioned Base64url of JSON. Never carries the
 * mac_key, and the kid only when asked. A fragment may come out longer than SHARE_LINK_MAX_CHARS,
 * which no page opens: shareLink makes only links that open.
 */
export function encodeShareState(
	state: ShareState,
	options: ShareEncodeOptions = {},
	link: LinkRequest = linkRequestOf(state.signedRequest)
): string {
	const { text: request, kid } = options.includeKid
		? { text: link.request, kid: null }
		: link.masked;
	const scrub = (text: string) =>
		replaceAll(
			options.macKey && options.macKey.length >= 4 ? withoutKey(text, options.macKey) : text,
			kid,
			kid !== null && !maskKid(kid).includes(kid) ? maskKid(kid) : KID_PLACEHOLDER,
			8
		);
	const signedRequest = scrub(request);
	const safeOptions: Record<string, ShareOption> = {};
	for (const [name, value] of Object.entries(state.options).slice(0, MAX_OPTIONS)) {
		if (SECRET_OPTION.test(name) || name === '__proto__') continue;
		safeOptions[name] = typeof value === 'string' ? scrub(value) : value;
	}
	const payload = {
		signedRequest,
		url: scrub(state.url),
		baseString: scrub(state.baseString),
		options: safeOptions
	};
	// JSON.stringify writes a lone surrogate as an escape (\ud800), so it survives the trip as itself.
	return `${VERSION}${toBase64Url(utf8Bytes(JSON.stringify(payload)))}`;
}

/** Whether a page opens a link with this fragment: not past SHARE_LINK_MAX_CHARS. */
export function fitsShareLink(fragment: string): boolean {
	return fragment.length <= SHARE_LINK_MAX_CHARS;
}

/** A link's fragment, or the length of one no page would open. */
export type ShareLink = { kind: 'link'; fragment: string } | { kind: 'too-long'; length: number };

/**
 * The link for the page's state, when a page would open it. Texts past SHARE_TEXT_MAX_CHARS are not
 * encoded at all (an unreadable paste goes as it is, up to the box's megabytes, and the page
 * encodes its link again at every keystroke in the mac_key): the length is then that of their
 * Base64, a little less than the link's.
 */
export function shareLink(
	state: ShareState,
	options: ShareEncodeOptions,
	link: LinkRequest
): ShareLink {
	const texts = [options.includeKid ? link.request : link.masked.text, state.url, state.baseString];
	if (texts.some((text) => text.length > SHARE_TEXT_MAX_CHARS)) {
		const chars = texts.reduce((sum, text) => sum + text.length, 0);
		return { kind: 'too-long', length: VERSION.length + Math.ceil((chars * 4) / 3) };
	}
	const fragment = encodeShareState(state, options, link);
	return fitsShareLink(fragment)
		? { kind: 'link', fragment }
		: { kind: 'too-long', length: fragment.length };
}

function text(value: unknown): string | null {
	if (value === undefined) return '';
	return typeof value === 'string' && value.length <= SHARE_TEXT_MAX_CHARS ? value : null;
}

/**
 * What a fragment holds: the state of a link this page made; 'too-long' past SHARE_LINK_MAX_CHARS
 * (its length given, to say so); 'damaged' for a link of this page's version that cannot be read
 * (cut short, changed, or texts past SHARE_TEXT_MAX_CHARS); 'not-a-link' for any other fragment,
 * which the page leaves alone. Linear in the fragment's length: a check of its alphabet, Base64,
 * UTF-8 and JSON.parse, each one pass.
 */
export type ShareLinkReading =
	| { kind: 'state'; state: ShareState }
	| { kind: 'too-long'; length: number }
	| { kind: 'damaged' }
	| { kind: 'not-a-link' };

export function readShareLink(fragment: string): ShareLinkReading {
	const raw = fragment.startsWith('#') ? fragment.slice(1) : fragment;
	if (!raw.startsWith(VERSION)) return { kind: 'not-a-link' };
	if (!fitsShareLink(raw)) return { kind: 'too-long', length: raw.length };
	const state = decodeBody(raw.slice(VERSION.length));
	return state ? { kind: 'state', state } : { kind: 'damaged' };
}

/** The state a link carries, or null for anything that is not a link this page made. */
export function decodeShareState(fragment: string): ShareState | null {
	const reading = readShareLink(fragment);
	return reading.kind === 'state' ? reading.state : null;
}

function decodeBody(body: string): ShareState | null {
	try {
		if (!/^[\w-]*$/.test(body)) return null;
		const value: unknown = JSON.parse(
			new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(body))
		);
		if (!isObject(value)) return null;
		const record = value;
		const signedRequest = text(record.signedRequest);
		const url = text(record.url);
		const baseString = text(record.baseString);
		if (signedRequest === null || url === null || baseString === null) return null;
		const options: Record<string, ShareOption> = {};
		const rawOptions = record.options ?? {};
		if (!isObject(rawOptions)) return null;
		for (const [name, option] of Object.entries(rawOptions).slice(0, MAX_OPTIONS)) {
			if (SECRET_OPTION.test(name) || name === '__proto__') continue;
			if (typeof option === 'boolean' || (typeof option === 'number' && Number.isFinite(option)))
				options[name] = option;
			else if (typeof option === 'string' && option.length <= SHARE_TEXT_MAX_CHARS)
				options[name] = option;
		}
		return { signedRequest, url, baseString, options };
	} catch {
		return null;
	}
}
