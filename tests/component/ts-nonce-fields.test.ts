import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Playground } from '$lib/playground/playground.svelte';
import TsNonceFields from '$lib/playground/TsNonceFields.svelte';
import WithPlayground from './WithPlayground.svelte';

function setup() {
	const playground = new Playground();
	render(WithPlayground, { props: { playground, component: TsNonceFields } });
	return { playground, user: userEvent.setup() };
}

describe('TsNonceFields', () => {
	it('leaves the ts live when the focus only passes through it', async () => {
		const { playground, user } = setup();
		const ts = screen.getByLabelText('ts');
		await user.click(ts);
		expect(ts).toHaveFocus();
		await user.tab();
		expect(playground.fixedTs).toBeNull();
		expect(screen.getByText('Live')).toBeInTheDocument();
	});

	it('fixes the ts once something is typed', async () => {
		const { playground, user } = setup();
		const ts = screen.getByLabelText('ts');
		await user.click(ts);
		await user.keyboard('{End}7');
		expect(playground.fixedTs).toMatch(/^\d+7$/);
		expect(screen.getByRole('button', { name: 'Use live ts' })).toBeInTheDocument();
	});

	it('names its radio group, so the arrow keys move within it', () => {
		setup();
		const radios = screen.getAllByRole('radio');
		expect(radios.map((radio) => radio.getAttribute('name'))).toEqual(['nonce-kind', 'nonce-kind']);
	});
});
