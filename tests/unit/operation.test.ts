import { describe, expect, it } from 'vitest';
import { operationForScopes } from '$lib/account-api/operations';
import { scopeReasonText } from '$lib/playground/texts';

// The rule itself is tested beside it (src/lib/account-api/operations.test.ts); this is its words.
describe('scopeReasonText', () => {
	it('says why no operation was chosen', () => {
		expect(scopeReasonText(operationForScopes([]).reason)).toMatch(/No scope/);
	});
});
