// A message not yet in a language: its key and parameters. State and pure logic (which are shared
// by both languages' pages, and by Node) hold Texts; a component renders one in the page's language
// with renderText (render-text.ts).
import type * as messages from '$lib/paraglide/messages.js';

type Messages = Omit<typeof messages, 'm'>;
export type MessageKey = keyof Messages;
export type MessageParams<K extends MessageKey> = Parameters<Messages[K]>[0];

export interface Text<K extends MessageKey = MessageKey> {
	key: K;
	params: MessageParams<K>;
}

/** A Text of `key`; the parameters are those its message names (checked against messages/). */
export function text<K extends MessageKey>(
	key: K,
	...params: [keyof MessageParams<K>] extends [never] ? [] : [MessageParams<K>]
): Text<K> {
	return { key, params: (params[0] ?? {}) as MessageParams<K> };
}
