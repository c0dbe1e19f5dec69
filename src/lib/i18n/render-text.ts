// A Text in the language being rendered: the Paraglide message function of its key, called with its
// parameters. State and Node code hold Texts (text.ts); components render them with this.
import { m } from '$lib/paraglide/messages.js';
import type { Text } from './text';

type Message = (params: Record<string, unknown>) => string;
const messages = m as unknown as Readonly<Record<string, Message | undefined>>;

/** A list parameter (the fields to fix) is joined as the language writes lists: "kid, url", "kid、url". */
function value(param: unknown): unknown {
	return Array.isArray(param) ? param.join(m.core_separator()) : param;
}

/** The Text's message, `code` marks kept; a key no message has shows as itself, for a test to catch. */
export function renderText(text: Text): string {
	const message = messages[text.key];
	if (message === undefined) return text.key;
	const params = Object.entries((text.params ?? {}) as Record<string, unknown>);
	return message(Object.fromEntries(params.map(([name, param]) => [name, value(param)])));
}
