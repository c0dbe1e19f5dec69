// Messages are plain text. Two marks let a sentence keep its inline parts in any word order:
// `backticks` for an identifier or a value in code style, and SLOT for one element the page puts
// in (pass SLOT as the parameter's value, then give <Rich> the element as its slot snippet).

/** A character no message contains: where <Rich> renders its `slot` snippet. */
export const SLOT = '\u{E000}';

export type RichPart = { kind: 'text' | 'code'; text: string } | { kind: 'slot' };

/** Splits a message into text, `code` and the slot. */
export function richParts(message: string): RichPart[] {
	const parts: RichPart[] = [];
	message.split('`').forEach((piece, index) => {
		const kind = index % 2 === 1 ? 'code' : 'text';
		piece.split(SLOT).forEach((text, at) => {
			if (at > 0) parts.push({ kind: 'slot' });
			if (text !== '') parts.push({ kind, text });
		});
	});
	return parts;
}

/** A message as plain text, for an attribute or a string: its `code` marks dropped. */
export function plain(message: string): string {
	return message.replaceAll('`', '');
}
