// The catalogue against what the standard libraries of the integrators' languages really produce:
// requests signed by Java, Go, PHP, Python, Node.js, Ruby and openssl themselves with the API each row
// of docs/signing-variants.md names (tests/fixtures/signing-variants/generate.sh wrote them). Each
// must come back explained by the mistake the doc names for it.
import { describe, expect, it } from 'vitest';
import { diagnose } from '$lib/diagnosis';
import { parseAuthorization } from '$lib/mac';
import fixture from '../fixtures/signing-variants/fixtures.json';

interface VariantRow {
	row: string;
	expect: string;
	host: string;
	target: string;
	authorization: string;
}

const ROWS = fixture.rows as VariantRow[];

/**
 * Rows the catalogue does not name yet, each with why; the test holds them unexplained so that the
 * day the catalogue learns one, this list must shrink. ts-milliseconds tries only ts × 1000, while a
 * clock read once in milliseconds carries its remainder (here 400) into the base string.
 */
const NOT_NAMED: Record<string, string> = {
	'java System.currentTimeMillis() signed, seconds sent': 'millisecond remainder not searched',
	'node Date.now() signed, seconds sent': 'millisecond remainder not searched'
};

async function diagnoseRow(r: VariantRow) {
	return diagnose({
		authorization: parseAuthorization(r.authorization),
		method: 'GET',
		url: `https://${r.host}${r.target}`,
		uriForm: 'as-written',
		macKey: MAC_KEY
	});
}
const MAC_KEY = 'demo-mac-key-profile-Q9sLx2';

describe('signing variants, as the runtimes made them', () => {
	const named = ROWS.filter((r) => !(r.row in NOT_NAMED));
	const notNamed = ROWS.filter((r) => r.row in NOT_NAMED);

	it('knows every row it leaves out', () => {
		expect(notNamed.map((r) => r.row).sort()).toEqual(Object.keys(NOT_NAMED).sort());
	});

	it.each(named.map((r) => [r.row, r.expect, r] as const))('%s: names %s', async (_, id, r) => {
		const result = await diagnoseRow(r);
		expect(result.verdict).toBe('explained');
		expect(result.explanations[0]?.id).toBe(id);
	});

	it.each(notNamed.map((r) => [r.row, NOT_NAMED[r.row], r] as const))(
		'%s: not named yet (%s)',
		async (_, _reason, r) => {
			expect((await diagnoseRow(r)).verdict).toBe('unexplained');
		}
	);
});
