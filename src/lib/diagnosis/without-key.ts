// What a signed request tells before its mac_key is given: support staff often hold the customer's
// request first. Each finding says what was seen; none needs the key, and none claims more than the
// request shows.
import { fromBase64, isTimestamp } from '$lib/mac';
import { text, type Text } from '$lib/i18n/text';
import {
	BASE_URLS,
	DEPLOYMENTS,
	REGIONS,
	hostsOf,
	type Region
} from '$lib/account-api/deployments';
import type { ClockCheck } from './clock-check';
import type { HeaderFormat } from '$lib/read/header-format';
import { isMillisecondsTs } from './service-answer';

/**
 * What the mac's text looks like: the length and alphabet of a Base64 HMAC-SHA-1 (28 characters,
 * one `=`), the same without padding or in Base64URL, a hex digest, a SHA-256 digest (44 Base64
 * characters or 64 hex), or none of these.
 */
export type MacShape =
	| 'base64-sha1'
	| 'base64-sha1-unpadded'
	| 'base64url-sha1'
	| 'hex-sha1'
	| 'base64-sha256'
	| 'hex-sha256'
	/** .NET's BitConverter.ToString of a SHA-1 digest: 20 hex pairs joined by `-`. */
	| 'hex-dashed-sha1'
	/** Base64 of a SHA-1 digest's 40 hex digits (PHP's base64_encode(hash_hmac(…))). */
	| 'base64-of-hex-sha1'
	/** Python's str() of a Base64 HMAC-SHA-1's bytes: `b'…'`. */
	| 'bytes-repr-sha1'
	| 'other';

const HEX_40 = /^[\da-f]{40}$/i;
const HEX_64 = /^[\da-f]{64}$/i;
const BASE64_SHA1 = /^[\d+/a-z]{27}=$/i;
const BASE64_SHA1_UNPADDED = /^[\d+/a-z]{27}$/i;
const BASE64URL_SHA1 = /^[\w-]{27}=?$/;
const BASE64_SHA256 = /^[\w+/-]{43}=?$/;
const HEX_DASHED_SHA1 = /^[\da-f]{2}(?:-[\da-f]{2}){19}$/i;
/** 40 bytes in Base64: 56 characters ending in `==`. */
const BASE64_40_BYTES = /^[\d+/a-z]{54}==$/i;
const BYTES_REPR_SHA1 = /^b'[\d+/a-z]{27}='$/i;

/** The shape of a mac's text (anchored patterns of fixed length: linear in any input). */
export function macShape(mac: string): MacShape {
	const value = mac.trim();
	if (value.length > 64) return 'other';
	if (HEX_40.test(value)) return 'hex-sha1';
	if (HEX_64.test(value)) return 'hex-sha256';
	if (BASE64_SHA1.test(value)) return 'base64-sha1';
	if (BASE64_SHA1_UNPADDED.test(value)) return 'base64-sha1-unpadded';
	if (BASE64URL_SHA1.test(value)) return 'base64url-sha1';
	if (BASE64_SHA256.test(value)) return 'base64-sha256';
	if (HEX_DASHED_SHA1.test(value)) return 'hex-dashed-sha1';
	if (BYTES_REPR_SHA1.test(value)) return 'bytes-repr-sha1';
	if (BASE64_40_BYTES.test(value) && HEX_40.test(latin1(fromBase64(value))))
		return 'base64-of-hex-sha1';
	return 'other';
}

function latin1(bytes: Uint8Array): string {
	return String.fromCharCode(...bytes);
}

const SHAPE_TEXTS = {
	'base64-sha1': 'verify_found_mac_base64',
	'base64-sha1-unpadded': 'verify_found_mac_unpadded',
	'base64url-sha1': 'verify_found_mac_base64url',
	'hex-sha1': 'verify_found_mac_hex',
	'base64-sha256': 'verify_found_mac_sha256',
	'hex-sha256': 'verify_found_mac_sha256_hex',
	'hex-dashed-sha1': 'verify_found_mac_hex_dashed',
	'base64-of-hex-sha1': 'verify_found_mac_base64_of_hex',
	'bytes-repr-sha1': 'verify_found_mac_bytes_repr',
	other: 'verify_found_mac_other'
} as const satisfies Record<MacShape, string>;

export interface RequestSeen {
	authorization: { ts: string; mac: string };
	url?: string | undefined;
	headerFormat?: HeaderFormat | undefined;
	/**
	 * clockCheck of the ts: against the time the request was sent where the paste says it, or
	 * saying the window cannot be checked (and what to ask for) where it does not.
	 */
	clock?: ClockCheck | null | undefined;
}

/** A ts of whole seconds with a fraction (`1764320000.123`: Python's time.time(), PHP's microtime(true)). */
const FLOAT_SECONDS = /^\d{1,15}\.\d{1,9}$/;

const REGION_TEXTS = {
	domestic: 'verify_found_host_domestic',
	overseas: 'verify_found_host_overseas'
} as const satisfies Record<Region, string>;

/** The deployment a host belongs to: its host in this build (BASE_URLS) or its default host. */
function regionOfHost(host: string): Region | undefined {
	return REGIONS.find(
		(region) => DEPLOYMENTS[region].host === host || hostsOf([BASE_URLS[region]]).includes(host)
	);
}

/** A ts's units: whole seconds as the spec asks, milliseconds, seconds with a fraction, or other. */
export type TsUnits = 'seconds' | 'milliseconds' | 'float' | 'other';

export function tsUnits(ts: string): TsUnits {
	if (isMillisecondsTs(ts)) return 'milliseconds';
	if (isTimestamp(ts)) return 'seconds';
	return FLOAT_SECONDS.test(ts) ? 'float' : 'other';
}

/**
 * What a request of a kid with no key shows that the service would not take, as ids (the triage
 * counts them): its ts's units other than seconds (`ts-…`) and its mac's shape other than a
 * padded Base64 HMAC-SHA-1 (`mac-…`). Empty for a request that shows nothing of the kind.
 */
export function keylessFindings(ts: string, mac: string): KeylessId[] {
	const ids: KeylessId[] = [];
	const units = tsUnits(ts);
	if (units !== 'seconds') ids.push(`ts-${units}`);
	const shape = macShape(mac);
	if (shape !== 'base64-sha1') ids.push(`mac-${shape}`);
	return ids;
}

/** Every id keylessFindings gives (the Summary lists them most first). */
export const KEYLESS_IDS = [
	'ts-milliseconds',
	'ts-float',
	'ts-other',
	'mac-base64-sha1-unpadded',
	'mac-base64url-sha1',
	'mac-hex-sha1',
	'mac-base64-sha256',
	'mac-hex-sha256',
	'mac-hex-dashed-sha1',
	'mac-base64-of-hex-sha1',
	'mac-bytes-repr-sha1',
	'mac-other'
] as const;
export type KeylessId = (typeof KEYLESS_IDS)[number];

/**
 * The findings the request alone supports, in the order of the base string's lines, then the mac:
 * the header's format, ts's units, the URL's port, host and client_id.
 */
export function findingsWithoutKey(request: RequestSeen): Text[] {
	const found: Text[] = [];
	if (request.headerFormat)
		found.push(text('verify_found_header_format', { seen: request.headerFormat.seen }));
	const { ts, mac } = request.authorization;
	const units = tsUnits(ts);
	if (units === 'milliseconds') found.push(text('verify_found_ts_milliseconds', { ts }));
	else if (units === 'float') found.push(text('verify_found_ts_float', { ts }));
	else if (units === 'other')
		found.push(text('verify_found_ts_not_seconds', { ts: ts.slice(0, 30) }));
	// The window, for a ts of seconds (one in other units is refused whatever the time): judged
	// against the time the request was sent, or said to be unchecked, with what to ask for.
	else if (request.clock) found.push(text('verify_found_window', { check: request.clock.message }));
	if (request.url !== undefined) {
		let url: URL | null;
		try {
			url = new URL(request.url);
		} catch {
			url = null;
		}
		if (url !== null) {
			// The URL's text, not URL.port: `new URL` drops a default port (`:443`) the customer wrote.
			const written = /^[a-z][\d+.a-z-]*:\/\/[^/?#]*:(\d*)(?=[/?#]|$)/i.exec(request.url);
			if (written) found.push(text('verify_found_port', { port: written[1] ?? '' }));
			const host = url.hostname.toLowerCase();
			const legacy = REGIONS.find((region) => DEPLOYMENTS[region].legacyHost === host);
			const region = regionOfHost(host);
			if (legacy !== undefined)
				found.push(text('verify_found_host_legacy', { host, current: DEPLOYMENTS[legacy].host }));
			else if (region !== undefined) {
				// Which deployment the customer's SDK was initialized for, the request does not show.
				const other = REGIONS.find((each) => each !== region) ?? region;
				found.push(text(REGION_TEXTS[region], { host, other: DEPLOYMENTS[other].host }));
			} else found.push(text('verify_found_host_unknown', { host: host.slice(0, 80) }));
			if (!url.searchParams.has('client_id')) found.push(text('verify_found_no_client_id'));
		}
	}
	const shape = macShape(mac);
	const length = String(mac.trim().length);
	found.push(
		shape === 'hex-sha1' ||
			shape === 'hex-sha256' ||
			shape === 'hex-dashed-sha1' ||
			shape === 'base64-of-hex-sha1' ||
			shape === 'bytes-repr-sha1'
			? text(SHAPE_TEXTS[shape])
			: text(SHAPE_TEXTS[shape], { length })
	);
	return found;
}
