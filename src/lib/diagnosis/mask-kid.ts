// How a kid is masked wherever a case leaves the page (the case file, a triage's exports): in a
// module of its own, without messages, so the command line can use it too.

/** First 4 and last 2 characters of a long kid, which is enough to tell two tokens apart. */
export function maskKid(kid: string): string {
	return kid.length >= 10 ? `${kid.slice(0, 4)}...${kid.slice(-2)}` : '<kid>';
}

/** Every occurrence of the kid masked, unless it is to be shown or too short to find safely. */
export function masker(kid: string, revealKid: boolean): (text: string) => string {
	return revealKid || kid.length < 4
		? (text) => text
		: (text) => text.split(kid).join(maskKid(kid));
}
