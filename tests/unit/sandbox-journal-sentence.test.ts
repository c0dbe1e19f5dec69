// The sandbox page's live journal says each failure as a sentence in the page's language, read
// from the verdict and the X-Sandbox-Diagnosis header the server wrote (the header as
// src/node/sandbox-server/diagnosis.ts writes it, quoted values included).
import { describe, expect, it } from 'vitest';
import { diagnosisParts, entrySentence } from '$lib/sandbox/live/entry-sentence';
import type { SandboxVerdict } from '$lib/sandbox/service';
import { inLocale } from './in-locale';

const HOST =
	'reason=mac-mismatch; mistake=host-other-deployment+port-wrong; client=docs-node-old; confidence=high; ' +
	'signed=open.tapapis.cn; called=127.0.0.1:8790; hint="signed open.tapapis.cn but called 127.0.0.1:8790: sign the host you call"';

const entry = (verdict: SandboxVerdict, diagnosis: string | null = `reason=${verdict}`) => ({
	verdict,
	method: 'GET',
	diagnosis
});

describe('diagnosisParts', () => {
	it('reads every part, a quoted one with its colon and spaces', () => {
		const parts = diagnosisParts(HOST);
		expect(parts.get('mistake')).toBe('host-other-deployment+port-wrong');
		expect(parts.get('signed')).toBe('open.tapapis.cn');
		expect(parts.get('called')).toBe('127.0.0.1:8790');
		expect(parts.get('hint')).toBe(
			'signed open.tapapis.cn but called 127.0.0.1:8790: sign the host you call'
		);
	});

	it('reads only the first 4 kB of a header, so a hostile stream costs that entry little', () => {
		const parts = diagnosisParts(`${'a'.repeat(5000)}; signed=far.example`);
		expect(parts.has('signed')).toBe(false);
		expect(diagnosisParts(`reason=x; ${'"'.repeat(100_000)}`).get('reason')).toBe('x');
	});
});

describe('entrySentence', () => {
	it('says the host signed and the address called, in both languages', () => {
		expect(inLocale('en', () => entrySentence(entry('mac-mismatch', HOST)))).toBe(
			'Signed `open.tapapis.cn` but called `127.0.0.1:8790`: sign the host you call.'
		);
		expect(inLocale('zh-CN', () => entrySentence(entry('mac-mismatch', HOST)))).toBe(
			'签算的请求域名是 `open.tapapis.cn`，实际调用的是 `127.0.0.1:8790`：请签算实际调用的请求域名。'
		);
	});

	it('names another mistake by its label, and says so when none reproduces the mac', () => {
		const found = 'reason=mac-mismatch; mistake=hmac-sha256; client=unity-sdk; confidence=high';
		expect(inLocale('en', () => entrySentence(entry('mac-mismatch', found)))).toMatch(
			/^The mac does not match; the diagnosis reproduces it as: .*SHA-256/i
		);
		const none = 'reason=mac-mismatch; mistake=unexplained; client=unknown; confidence=none';
		expect(inLocale('en', () => entrySentence(entry('mac-mismatch', none)))).toMatch(
			/no catalogued mistake reproduces it/
		);
	});

	it('says nothing for a request answered, and a sentence for every refusal', () => {
		expect(entrySentence(entry('ok', null))).toBeNull();
		const verdicts: SandboxVerdict[] = [
			'fault',
			'method-not-get',
			'not-found',
			'header-missing',
			'header-malformed',
			'client-id-missing',
			'ts-not-seconds',
			'ts-outside-window',
			'unknown-kid',
			'mac-mismatch',
			'revoked',
			'nonce-reused',
			'client-id-wrong',
			'scope-not-granted'
		];
		for (const locale of ['en', 'zh-CN'] as const)
			for (const verdict of verdicts)
				expect(inLocale(locale, () => entrySentence(entry(verdict)))).toMatch(/[.。]$/);
	});

	it('states what the spec leaves open as the sandbox’s rule or assumption', () => {
		expect(inLocale('en', () => entrySentence(entry('nonce-reused')))).toContain(
			'the spec does not say whether the service rejects a reused nonce'
		);
		expect(inLocale('en', () => entrySentence(entry('ts-outside-window')))).toContain(
			"the sandbox's assumption"
		);
		expect(
			inLocale('en', () =>
				entrySentence(entry('fault', 'reason=fault; fault=server_error:first=2'))
			)
		).toContain('`--fault server_error:first=2`');
	});
});
