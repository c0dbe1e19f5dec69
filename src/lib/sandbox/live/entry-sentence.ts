// A journal entry's failure as one sentence in the page's language, from its verdict and the
// X-Sandbox-Diagnosis the server sent (src/node/sandbox-server/diagnosis.ts writes it); the page
// keeps the raw header beside it.
import { m } from '$lib/paraglide/messages.js';
import { mistakeLabel } from '$lib/triage-desk/labels';
import type { JournalEntry } from '../journal';

/**
 * The parts of an X-Sandbox-Diagnosis header (`reason=…; mistake=…; signed=…; hint="…"`) by name.
 * A quoted value may hold `;` and `:`; text without `=` is skipped. One pass over the first 4 kB
 * (the server writes a few hundred characters), so a hostile stream's entry costs little.
 */
export function diagnosisParts(header: string): Map<string, string> {
	const parts = new Map<string, string>();
	const text = header.slice(0, 4096);
	let from = 0;
	for (let equals = text.indexOf('='); equals >= 0; equals = text.indexOf('=', from)) {
		const name = text.slice(Math.max(from, text.lastIndexOf(';', equals) + 1), equals).trim();
		let value: string;
		if (text[equals + 1] === '"') {
			const close = text.indexOf('"', equals + 2);
			from = close < 0 ? text.length : close + 1;
			value = text.slice(equals + 2, close < 0 ? text.length : close);
		} else {
			const semicolon = text.indexOf(';', equals);
			from = semicolon < 0 ? text.length : semicolon;
			value = text.slice(equals + 1, from).trim();
		}
		if (/^[a-z-]+$/.test(name)) parts.set(name, value);
	}
	return parts;
}

/** Why the sandbox refused the request, in the page's language; null for one it answered. */
export function entrySentence(entry: Pick<JournalEntry, 'verdict' | 'method' | 'diagnosis'>) {
	const parts = diagnosisParts(entry.diagnosis ?? '');
	switch (entry.verdict) {
		case 'ok':
			return null;
		case 'fault':
			return m.sandbox_live_says_fault({ spec: parts.get('fault') ?? '' });
		case 'method-not-get':
			return m.sandbox_live_says_method({ method: entry.method });
		case 'not-found':
			return m.sandbox_live_says_not_found();
		case 'header-missing':
			return m.sandbox_live_says_header_missing();
		case 'header-malformed':
			return m.sandbox_live_says_header_malformed();
		case 'header-format':
			return m.sandbox_live_says_header_format();
		case 'client-id-missing':
			return m.sandbox_live_says_client_id_missing();
		case 'ts-not-seconds':
			return m.sandbox_live_says_ts_not_seconds();
		case 'ts-outside-window':
			return m.sandbox_live_says_ts_window();
		case 'unknown-kid':
			return m.sandbox_live_says_unknown_kid();
		case 'mac-mismatch': {
			// Signed right over the header's ext as line 7: the sandbox, as the spec, signs it empty.
			if (parts.get('headline') === 'refused:ext-not-signed') return m.diagnosis_refused_ext();
			const signed = parts.get('signed');
			const called = parts.get('called');
			if (signed !== undefined && called !== undefined)
				return m.sandbox_live_says_host({ signed, called });
			const mistake = parts.get('mistake');
			if (mistake === undefined || mistake === 'unexplained')
				return m.sandbox_live_says_unexplained();
			return m.sandbox_live_says_mistake({ mistake: mistakeLabel(mistake) });
		}
		case 'revoked':
			return m.sandbox_live_says_revoked();
		case 'nonce-reused':
			return m.sandbox_live_says_nonce();
		case 'client-id-wrong':
			return m.sandbox_live_says_client_id_wrong();
		case 'scope-not-granted':
			return m.sandbox_live_says_scope();
	}
	return null;
}
