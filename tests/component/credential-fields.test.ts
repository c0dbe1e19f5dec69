import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Component } from 'svelte';
import { describe, expect, it } from 'vitest';
import CredentialFields from '$lib/playground/CredentialFields.svelte';
import { Playground } from '$lib/playground/playground.svelte';
import SdkPaste from '$lib/playground/SdkPaste.svelte';
import WithPlayground from './WithPlayground.svelte';
import { attributeIs, descriptionMatches, until } from './until.svelte';

function setup(component: Component = CredentialFields) {
	const playground = new Playground();
	render(WithPlayground, { props: { playground, component } });
	return { playground, user: userEvent.setup() };
}

describe('CredentialFields', () => {
	it('masks mac_key until the user reveals it', async () => {
		const { user } = setup();
		const key = screen.getByLabelText('mac_key');
		expect(key).toHaveAttribute('type', 'password');
		await user.click(screen.getByRole('button', { name: 'Show mac_key' }));
		expect(key).toHaveAttribute('type', 'text');
		expect(screen.getByRole('button', { name: 'Hide mac_key' })).toBeInTheDocument();
	});

	it('says at the field that kid is empty, and keeps the other values', async () => {
		const { user, playground } = setup();
		const kid = screen.getByLabelText('kid');
		await user.clear(kid);
		expect(kid).toHaveAttribute('aria-invalid', 'true');
		// The words for a problem load with the first one shown.
		await descriptionMatches(kid, /kid is empty/);
		expect(kid).toHaveAccessibleDescription(/kid is empty/);
		expect(screen.getByLabelText('mac_key')).toHaveValue(playground.macKey);
		expect(playground.macKey).not.toBe('');
	});

	it('flags an unsupported mac_algorithm at its field', async () => {
		const { user } = setup();
		const algorithm = screen.getByLabelText('mac_algorithm');
		await user.clear(algorithm);
		await user.type(algorithm, 'hmac-sha-256');
		await descriptionMatches(algorithm, /"hmac-sha-256" is not supported/);
		expect(algorithm).toHaveAccessibleDescription(/"hmac-sha-256" is not supported/);
	});

	it('shows access_token as equal to kid', async () => {
		const { user } = setup();
		await user.clear(screen.getByLabelText('kid'));
		await user.type(screen.getByLabelText('kid'), 'abc');
		expect(screen.getByLabelText('access_token')).toHaveValue('abc');
	});
});

describe('SdkPaste', () => {
	it('fills the credential as the result is pasted and says so', async () => {
		const { user, playground } = setup(SdkPaste);
		await user.click(screen.getByText('Paste SDK login result', { selector: 'summary' }));
		const box = screen.getByRole('textbox', { name: 'Paste SDK login result' });
		await user.click(box);
		await user.paste(
			JSON.stringify({
				kid: 'k9',
				mac_key: 'm9',
				token_type: 'mac',
				mac_algorithm: 'hmac-sha-1',
				scopeSet: '[basic_info]'
			})
		);
		// The reader loads with the first use of the box.
		await until(
			() => playground.kid,
			(kid) => kid === 'k9'
		);
		expect(playground.scopes).toEqual({ basic_info: true, public_profile: false });
		expect(box).toHaveAccessibleDescription(/Filled/);
	});

	it('keeps the pasted text and explains what is wrong with it', async () => {
		const { user, playground } = setup(SdkPaste);
		const kid = playground.kid;
		const box = screen.getByRole('textbox', { name: 'Paste SDK login result', hidden: true });
		await user.click(screen.getByText('Paste SDK login result', { selector: 'summary' }));
		await user.click(box);
		await user.paste('{"kid": ');
		expect(box).toHaveValue('{"kid": ');
		await attributeIs(box, 'aria-invalid', 'true');
		await descriptionMatches(box, /not JSON/);
		expect(box).toHaveAccessibleDescription(/not JSON/);
		expect(playground.kid).toBe(kid);
	});
});
