/** Parses dotted-decimal IPv4 into its four bytes, or null. */
function ipv4(address: string): number[] | null {
	const parts = address.split('.');
	if (parts.length !== 4) return null;
	const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
	return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

/** Parses an IPv6 address (any textual form: `::`, embedded dotted IPv4, hex) into 16 bytes, or null. */
function ipv6(address: string): number[] | null {
	if (!/^[0-9a-f:.]+$/.test(address)) return null;
	let text = address;
	if (text.includes('.')) {
		const lastColon = text.lastIndexOf(':');
		const v4 = ipv4(text.slice(lastColon + 1));
		if (!v4) return null;
		const [a = 0, b = 0, c = 0, d = 0] = v4;
		text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return null;
	const groups = (part: string | undefined) => (part ? part.split(':') : []);
	const head = groups(halves[0]);
	const rest = groups(halves[1]);
	const missing = 8 - head.length - rest.length;
	if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
	const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
	const bytes: number[] = [];
	for (const group of all) {
		if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
		const value = parseInt(group, 16);
		bytes.push(value >> 8, value & 0xff);
	}
	return bytes;
}

function isPublicV4([a = 0, b = 0, c = 0]: number[]): boolean {
	return !(
		a === 0 ||
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) ||
		(a === 169 && b === 254) ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 0 && (c === 0 || c === 2)) ||
		(a === 192 && b === 168) ||
		(a === 198 && (b === 18 || b === 19)) ||
		(a === 198 && b === 51 && c === 100) ||
		(a === 203 && b === 0 && c === 113) ||
		a >= 224
	);
}

const startsWith = (bytes: number[], prefix: number[]) =>
	prefix.every((byte, index) => bytes[index] === byte);

function isPublicV6(bytes: number[]): boolean {
	const zeros = (count: number) => Array<number>(count).fill(0);
	// IPv4-mapped (::ffff:0:0/96) and SIIT (::ffff:0:0:0/96): the IPv4 address is what is reached.
	if (
		startsWith(bytes, [...zeros(10), 0xff, 0xff]) ||
		startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])
	)
		return isPublicV4(bytes.slice(12));
	// NAT64 (64:ff9b::/96): a translator reaches the embedded IPv4 address.
	if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return isPublicV4(bytes.slice(12));
	// 6to4 (2002::/16): a relay router reaches the embedded IPv4 address.
	if (startsWith(bytes, [0x20, 0x02])) return isPublicV4(bytes.slice(2, 6));
	// Teredo (2001::/32), documentation (2001:db8::/32) and ORCHID (2001:10::/28, 2001:20::/28).
	if (startsWith(bytes, [0x20, 0x01, 0, 0]) || startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8]))
		return false;
	if (startsWith(bytes, [0x20, 0x01, 0x00]) && (bytes[3]! & 0xe0) === 0x00) return false;
	// Only global unicast (2000::/3) is reachable; that excludes ::/96 (unspecified, loopback,
	// IPv4-compatible), unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10,
	// multicast ff00::/8, discard 100::/64 and local-use NAT64 64:ff9b:1::/48.
	return (bytes[0]! & 0xe0) === 0x20;
}

/**
 * Whether an IP address may be reached from the relay: a public unicast address, not loopback,
 * private, link-local, carrier-grade NAT, unspecified, multicast, reserved or documentation space,
 * and not an IPv6 form that embeds such an IPv4 address (mapped, compatible, NAT64, 6to4). Anything
 * that does not parse is not public. A relay that forwards to such addresses would let any web page
 * probe the network it runs in.
 */
export function isPublicAddress(address: string): boolean {
	const text = address.replace(/^\[|\]$/g, '').toLowerCase();
	const v4 = ipv4(text);
	if (v4) return isPublicV4(v4);
	const v6 = ipv6(text);
	return v6 !== null && isPublicV6(v6);
}

/** Whether a URL host is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
	return ipv4(host) !== null || host.startsWith('[') || host.includes(':');
}
