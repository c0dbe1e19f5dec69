/**
 * A signed request handed from the signing page to the verify page in the same tab. It is held in
 * this module's memory, never in the URL or storage, so the mac_key can come along, and it is read
 * once.
 */
export interface HandedCase {
	signedRequest: string;
	macKey: string;
}

let pending: HandedCase | null = null;

export function handOff(handed: HandedCase): void {
	pending = handed;
}

export function takeHandoff(): HandedCase | null {
	const handed = pending;
	pending = null;
	return handed;
}
