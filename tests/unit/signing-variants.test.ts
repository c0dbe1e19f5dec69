// The catalogue against what the standard libraries of the integrators' languages really produce:
// requests signed by Java, Go, PHP, Python, Node.js, C# (Mono), Ruby and openssl themselves with the
// API each "runtime" row of docs/signing-variants.md names (tests/fixtures/signing-variants/
// generate.sh wrote them). Each must come back as the doc says: explained by the mistake it names,
// a match for the rows that sign correctly, unexplained for the rows the catalogue does not name.
import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis';
import { parseAuthorization } from '$lib/mac';
import { judge } from '$lib/diagnosis/service-answer';
import fixture from '../fixtures/signing-variants/fixtures.json';

interface VariantRow {
	row: string;
	/**
	 * A mistake id; `none` for a correct signer; `refused:<why>` for a right signature the service
	 * refuses; `not-named` for what the catalogue cannot name.
	 */
	expect: string;
	url: string;
	key: string;
	authorization: string;
}

const ROWS = fixture.rows as VariantRow[];

async function diagnoseRow(r: VariantRow) {
	return diagnose({
		authorization: parseAuthorization(r.authorization),
		method: 'GET',
		url: r.url,
		uriForm: 'as-written',
		macKey: r.key
	});
}

describe('signing variants, as the runtimes made them', () => {
	it('covers every language with a toolchain in CI', () => {
		const languages = new Set(ROWS.map((r) => r.row.split(' ')[0]));
		for (const language of ['java', 'go', 'php', 'python', 'node', 'csharp', 'ruby', 'openssl'])
			expect(languages).toContain(language);
	});

	const named = ROWS.filter(
		(r) => r.expect !== 'none' && r.expect !== 'not-named' && !r.expect.startsWith('refused:')
	);
	it.each(named.map((r) => [r.row, r.expect, r] as const))('%s: names %s', async (_, id, r) => {
		const result = await diagnoseRow(r);
		expect(result.verdict).toBe('explained');
		expect(result.explanations[0]?.id).toBe(id);
	});

	const correct = ROWS.filter((r) => r.expect === 'none');
	it.each(correct.map((r) => [r.row, r] as const))('%s: signs correctly', async (_, r) => {
		expect((await diagnoseRow(r)).verdict).toBe('match');
	});

	const refused = ROWS.filter((r) => r.expect.startsWith('refused:'));
	it.each(refused.map((r) => [r.row, r.expect, r] as const))(
		'%s: signature right, %s',
		async (_, expected, r) => {
			const authorization = parseAuthorization(r.authorization);
			const judged = judge(await diagnoseRow(r), {
				ts: authorization.ts,
				outsideWindow: null,
				nonceFirstUsedAt: null
			});
			expect(`${judged.verdict}:${judged.refusal}`).toBe(expected);
		}
	);

	// A clock read once in milliseconds puts its remainder (here 400) into the base string while the
	// header gets whole seconds: ts-milliseconds tries ts × 1000 only (the remainder is unknowable
	// without the customer's base string, which the logged-evidence check reads).
	const notNamed = ROWS.filter((r) => r.expect === 'not-named');
	it.each(notNamed.map((r) => [r.row, r] as const))('%s: not named', async (_, r) => {
		expect(notNamed.length).toBeGreaterThan(0);
		expect((await diagnoseRow(r)).verdict).toBe('unexplained');
	});
});
