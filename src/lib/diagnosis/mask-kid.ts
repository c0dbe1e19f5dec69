// How a kid is masked wherever it leaves a person's screen (the case file, a share link, a triage's
// table and exports, the sandbox server's journal and recording): the one home of the mask, in a
// module of its own, without messages, so that the command line and the servers use it too.

/** What maskKid writes: at most 4 characters, `...`, at most 2 (none of them a dot). */
const MASKED = /^[^.]{1,4}\.\.\.[^.]{0,2}$/u;

/**
 * The kid's first and last characters around `...`: the first 4 and last 2 of a kid of 10 or more;
 * of a shorter one at most half of it (of a kid of 1 or 2 characters, its first), so that two kids
 * read as two (a fixed `<kid>` made every kid of a vendor with short kids one row). A kid that has
 * the form of a mask already is kept as it is.
 */
export function maskKid(kid: string): string {
	// Masked already (a recording's kid, triaged): as it is, not masked again into another.
	if (MASKED.test(kid)) return kid;
	const chars = Array.from(kid);
	const length = chars.length;
	const prefix = length >= 10 ? 4 : Math.max(1, Math.floor(length / 3));
	const suffix = length >= 10 ? 2 : length >= 4 ? 1 : 0;
	return `${chars.slice(0, prefix).join('')}...${chars.slice(length - suffix).join('')}`;
}

/** Every occurrence of the kid masked, unless it is to be shown or too short to find safely. */
export function masker(kid: string, revealKid: boolean): (text: string) => string {
	return revealKid || kid.length < 4
		? (text) => text
		: (text) => text.split(kid).join(maskKid(kid));
}
