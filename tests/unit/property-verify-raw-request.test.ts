// Property tests of the raw HTTP request reader: any text gives a request or a MacInputError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRawRequest } from '$lib/read';
import { RUNS, hostile, mutated, outcome } from './property-arbitraries';
import { rawText } from './verify-arbitraries-shell';

describe('parseRawRequest (property)', () => {
	it('gives the method, target and header lines or a MacInputError for any paste', () => {
		fc.assert(
			fc.property(fc.oneof(rawText, rawText, mutated(rawText), hostile), (text) => {
				const result = outcome(() => parseRawRequest(text));
				if (!result.ok) return;
				const request = result.value;
				if (request.url !== undefined) expect(request.url).toMatch(/^https?:\/\//i);
				for (const header of request.headers) {
					expect(header.name).toMatch(/^:?[!#$%&'*+.^\w`|~-]+$/);
					expect(typeof header.value).toBe('string');
				}
			}),
			RUNS
		);
	});
});
