// The engine's fast path against its full one on a generated log: the fast readers of the header
// and URL with the engine's own HMAC signing every diagnosis variant, versus the core's parsers with
// the core's SubtleCrypto hmac() signing them. Every verdict record and the summary must be the same.
import { describe, expect, it } from 'vitest';
import { triageText, type TriageSummary, type VerdictRecord } from '$lib/triage';
import { diagnoseMistake } from '$lib/triage/verify';
import { triageLogText } from '../bench/triage-log.js';

const LOG = triageLogText({ requests: 2000, faultRate: 0.1, seed: 23 });

/** Ways a log writes the same request that only the core's parsers read. */
const REWRITES: ((request: Record<string, unknown>) => void)[] = [
	(request) => (request.url = String(request.url).replace('https://open', 'https://OPEN')),
	(request) => (request.url = String(request.url).replace('.cn/', '.cn:443/')),
	(request) => (request.url = `${String(request.url)}#top`),
	(request) => (request.url = String(request.url).replace('/account/', '/account/./')),
	(request) => (request.url = `  ${String(request.url)}`),
	(request) => (request.authorization = `Authorization: ${String(request.authorization)}`),
	(request) => (request.authorization = String(request.authorization).replace(/",/g, '", ')),
	(request) => (request.authorization = String(request.authorization).replace(/^MAC /, 'mac  ')),
	(request) => (request.authorization = String(request.authorization).replace('id=', 'ID=')),
	(request) => (request.authorization = String(request.authorization).replace(/"([^"]*)"$/, '$1')),
	(request) =>
		(request.authorization = String(request.authorization).replace('nonce="', 'nonce="\n '))
];

/** The log with every third line rewritten one of those ways (unparseable lines left as they are). */
function varied(text: string): string {
	return text
		.split('\n')
		.map((line, index) => {
			if (index % 3 !== 0 || line === '') return line;
			let request: unknown;
			try {
				request = JSON.parse(line);
			} catch {
				return line;
			}
			if (typeof request !== 'object' || request === null) return line;
			REWRITES[(index / 3) % REWRITES.length]?.(request as Record<string, unknown>);
			return JSON.stringify(request);
		})
		.join('\n');
}

async function run(text: string, fast: boolean) {
	const records: VerdictRecord[] = [];
	const summary = await triageText(text, LOG.keys, {
		nowMs: 1_763_800_000_000,
		fastPath: fast,
		...(fast ? {} : { diagnose: (mismatch) => diagnoseMistake(mismatch) }),
		onVerdicts: (batch) => void records.push(...batch)
	});
	// Everything but the time taken.
	const counts: Partial<TriageSummary> &
		Pick<TriageSummary, 'groups' | 'mistakes' | 'unexplained'> = { ...summary };
	delete counts.elapsedMs;
	return { records, counts };
}

describe('the fast path and the full path', () => {
	it('give the same verdicts, mistakes and counts on a generated log and on the log written unusually', async () => {
		for (const text of [LOG.text, varied(LOG.text)]) {
			const fast = await run(text, true);
			const full = await run(text, false);
			expect(fast.records.length).toBe(LOG.expected.requests);
			expect(fast.records).toStrictEqual(full.records);
			expect(fast.counts).toStrictEqual(full.counts);
		}
	});

	it('diagnoses every planted mistake on both paths', async () => {
		const fast = await run(LOG.text, true);
		expect(fast.counts.groups.mismatch).toBe(LOG.expected.mismatch);
		expect(Object.fromEntries(fast.counts.mistakes.map(({ id, count }) => [id, count]))).toEqual(
			LOG.expected.mistakes
		);
		expect(fast.counts.unexplained).toBe(LOG.expected.unexplained);
	});
});
