import {
	attempt,
	authorizationHeader,
	curlCommand,
	fromBase64,
	requestTarget,
	shellQuote,
	toBase64Url,
	utf8Bytes
} from '$lib/mac';
import { parseSignedRequest } from '../../read/parse-signed-request';
import { isObject } from '../../read/parsed-request';

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
// A fragment this long is no longer a link anyone shares; it also bounds the work on hostile input.
const MAX_FRAGMENT = 300_000;
const MAX_TEXT = 100_000;
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
export function requestForLink(text: string): string {
	const parsed = attempt(() => parseSignedRequest(text));
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
		const blanked = text.replace(
			/(\bMAC\b[^\n]{0,80}?\bid\s*=\s*[\\^"']*)([^\\^"',\s]+)/gi,
			`$1${KID_PLACEHOLDER}`
		);
		return { text: blanked, kid: null };
	}
	const { authorization } = parsed.value;
	const kid = authorization.id;
	let replaced = text.replace(
		new RegExp(`(\\bid\\s*=\\s*[\\\\^"']*)${escapeRegExp(kid)}(?=[\\\\^"',\\s]|$)`, 'g'),
		`$1${KID_PLACEHOLDER}`
	);
	// Long enough not to hit other text by chance: the access_token, which equals the kid, too.
	if (kid.length >= 8) replaced = replaced.split(kid).join(KID_PLACEHOLDER);
	const check = attempt(() => parseSignedRequest(replaced));
	if (check.ok && check.value.authorization.id === KID_PLACEHOLDER && !replaced.includes(kid)) {
		return { text: replaced, kid };
	}
	const rebuilt = attempt(() => authorizationHeader({ ...authorization, id: KID_PLACEHOLDER }));
	return { text: rebuilt.ok ? `Authorization: ${rebuilt.value}` : '', kid };
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
	let cut = text;
	while (cut.includes(macKey)) cut = cut.split(macKey).join('');
	return cut;
}

function replaceAll(text: string, find: string | null | undefined, by: string, minimum: number) {
	return find && find.length >= minimum ? text.split(find).join(by) : text;
}

/**
 * The page state as a URL fragment (without "#"): versioned Base64url of JSON. Never carries the
 * mac_key, and the kid only when asked.
 */
export function encodeShareState(state: ShareState, options: ShareEncodeOptions = {}): string {
	const minimal = requestForLink(state.signedRequest);
	const { text: request, kid } = options.includeKid
		? { text: minimal, kid: null }
		: withoutKid(minimal);
	const scrub = (text: string) =>
		replaceAll(
			options.macKey && options.macKey.length >= 4 ? withoutKey(text, options.macKey) : text,
			kid,
			KID_PLACEHOLDER,
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
	return `${VERSION}${toBase64Url(utf8Bytes(JSON.stringify(payload)))}`;
}

function text(value: unknown): string | null {
	if (value === undefined) return '';
	return typeof value === 'string' && value.length <= MAX_TEXT ? value : null;
}

/** The state a link carries, or null for anything that is not a link this page made. */
export function decodeShareState(fragment: string): ShareState | null {
	try {
		const raw = fragment.startsWith('#') ? fragment.slice(1) : fragment;
		if (raw.length > MAX_FRAGMENT || !raw.startsWith(VERSION)) return null;
		const body = raw.slice(VERSION.length);
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
			else if (typeof option === 'string' && option.length <= MAX_TEXT) options[name] = option;
		}
		return { signedRequest, url, baseString, options };
	} catch {
		return null;
	}
}
