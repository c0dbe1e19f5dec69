// The spec's name of each of the seven lines, in the page's language: the signing page's steps and
// the verify page's line-by-line comparison say the same. (In English these are the core's own
// words, BASE_STRING_RULES; a unit test holds messages/playground to them.)
import type { BaseStringKey } from '$lib/mac';
import { m } from '$lib/paraglide/messages.js';

export function baseStringLineName(key: BaseStringKey): string {
	switch (key) {
		case 'ts':
			return m.playground_line_ts();
		case 'nonce':
			return m.playground_line_nonce();
		case 'method':
			return m.playground_line_method();
		case 'uri':
			return m.playground_line_uri();
		case 'host':
			return m.playground_line_host();
		case 'port':
			return m.playground_line_port();
		case 'ext':
			return m.playground_line_ext();
	}
}
