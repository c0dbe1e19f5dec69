// The triage page's Summary: a header not written as the spec shows it has a row of its own, counted
// over every verdict, a kid with no key included.
import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SummaryTable from '$lib/triage-desk/SummaryTable.svelte';
import { NO_COUNTS } from '$lib/triage-desk/desk.svelte';

describe('triage Summary', () => {
	it('has a row for headers not in the spec form, with its count', () => {
		render(SummaryTable, {
			props: { counts: { ...NO_COUNTS, headerFormat: 3, skipped: 0 }, live: false }
		});
		const row = screen.getByRole('row', { name: /header not in the spec's form/ });
		expect(within(row).getByRole('cell').textContent).toBe('3');
	});
});
