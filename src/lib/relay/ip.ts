/** Parses dotted IPv4 into its four bytes, or null. */
function ipv4(address: string): number[] | null {
	const parts = address.split('.');
	if (parts.length !== 4) return null;
	const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
	return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

/**
 * Whether an IP address may be reached from the relay: not loopback, private, link-local,
 * carrier-grade NAT, unspecified, multicast or an IPv6 unique-local address. A relay that forwards
 * to such addresses would let any web page probe the network it runs in.
 */
export function isPublicAddress(address: string): boolean {
	const text = address.replace(/^\[|\]$/g, '').toLowerCase();
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	const v4 = ipv4(mapped?.[1] ?? text);
	if (v4) {
		const [a = 0, b = 0] = v4;
		return !(
			a === 0 ||
			a === 10 ||
			a === 127 ||
			(a === 100 && b >= 64 && b <= 127) ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168) ||
			a >= 224
		);
	}
	if (!text.includes(':')) return false;
	return !(
		text === '::' ||
		text === '::1' ||
		/^fe[89ab]/.test(text) ||
		/^f[cd]/.test(text) ||
		/^ff/.test(text)
	);
}

/** Whether a URL host is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
	return ipv4(host) !== null || host.startsWith('[') || host.includes(':');
}
