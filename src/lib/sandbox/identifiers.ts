/** FNV-1a, 32-bit: enough to turn names into stable, different-looking identifiers. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
	let hash = seed;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

function id(text: string): string {
	// Two rounds with different seeds give 16 hex digits, like the identifiers of a real service.
	return (
		fnv1a(text).toString(16).padStart(8, '0') +
		fnv1a(text, 0x1b873593).toString(16).padStart(8, '0')
	);
}

/** Spec §2.1: openid differs per application for the same user. */
export function openid(clientId: string, userId: string): string {
	return `oid-${id(`openid:${clientId}:${userId}`)}`;
}

/** Spec §2.1: unionid is the same across one vendor's applications. */
export function unionid(vendorId: string, userId: string): string {
	return `uid-${id(`unionid:${vendorId}:${userId}`)}`;
}
