// The /triage Summary names the requests whose header is not in the spec's form, of any verdict
// (a kid with no key included), where there are any.
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SummaryTable from '$lib/triage-desk/SummaryTable.svelte';
import { NO_COUNTS } from '$lib/triage-desk/desk.svelte';

describe('Summary, header format', () => {
	it('shows the count of headers not in the spec form', () => {
		render(SummaryTable, {
			props: {
				counts: { ...NO_COUNTS, groups: { ...NO_COUNTS.groups, 'no-key': 2 }, headerFormat: 1 },
				live: false
			}
		});
		const summary = screen.getByRole('table', { name: 'Summary' });
		expect(summary).toBeTruthy();
		expect(
			screen.getByRole('row', {
				name: "header not in the spec's form (any verdict, no key included) 1"
			})
		).toBeTruthy();
	});

	it('has no such row when every header is in the spec form', () => {
		render(SummaryTable, { props: { counts: NO_COUNTS, live: false } });
		expect(screen.queryByRole('row', { name: /header not in the spec's form/ })).toBeNull();
	});

	it('lists under "no key for kid" what those requests show without the key', () => {
		render(SummaryTable, {
			props: {
				counts: {
					...NO_COUNTS,
					groups: { ...NO_COUNTS.groups, 'no-key': 3 },
					keyless: [
						{ id: 'mac-hex-sha1', count: 2 },
						{ id: 'ts-milliseconds', count: 1 }
					]
				},
				live: false
			}
		});
		expect(screen.getByRole('row', { name: 'mac: 40 hex digits (SHA-1 in hex) 2' })).toBeTruthy();
		expect(screen.getByRole('row', { name: 'ts in milliseconds (13 digits) 1' })).toBeTruthy();
	});
});
