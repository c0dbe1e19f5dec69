// A journal entry's failure as one sentence in the page's language, from its verdict and the
// X-Sandbox-Diagnosis the server sent (src/node/sandbox-server/diagnosis.ts writes it); the page
// keeps the raw header beside it.
import { m } from '$lib/paraglide/messages.js';
import { mistakeLabel } from '$lib/triage-desk/labels';
import type { JournalEntry } from '../journal';

/**
 * The parts of an X-Sandbox-Diagnosis header (`reason=…; mistake=…; signed=…; hint="…"`) by name.
 * A quoted value may hold `;`; a part without `=` is skipped.
 */
export function diagnosisParts(header: string): Map<string, string> {
	const parts = new Map<string, string>();
	// The server writes a few hundred characters; a cap keeps a hostile stream's entry linear.
	for (const match of header.slice(0, 4096).matchAll(/([a-z-]+)=("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
		const [, name = '', raw = ''] = match;
		parts.set(name, raw.startsWith('"') ? raw.slice(1, -1) : raw.trim());
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
		case 'client-id-missing':
			return m.sandbox_live_says_client_id_missing();
		case 'ts-not-seconds':
			return m.sandbox_live_says_ts_not_seconds();
		case 'ts-outside-window':
			return m.sandbox_live_says_ts_window();
		case 'unknown-kid':
			return m.sandbox_live_says_unknown_kid();
		case 'mac-mismatch': {
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
